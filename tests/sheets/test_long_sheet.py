"""A long score sheet is laid out one table per page (reportlab no longer splits
one long table again and again), with nothing lost, nothing doubled and the header on every
page. The hands come from the demo sheet: its hand numbers are 1..n (sheets/demo.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.sheets.demo import sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet


def page_texts(data: bytes, folder: Path) -> list[str]:
    pdf = folder / "sheet.pdf"
    pdf.write_bytes(data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    return text.split("\f")[:-1]


def test_a_long_sheet_has_every_hand_once_and_the_header_on_every_page(tmp_path: Path) -> None:
    sheet = sample_sheet(300)
    pages = page_texts(render_score_sheet(sheet), tmp_path)
    assert len(pages) >= 6
    numbers: list[int] = []
    for page in pages:
        assert sheet.columns[0].name in page  # the header, with the sides' names
        numbers += [int(m) for m in re.findall(r"^\s*(\d+)\s{2,}\d", page, re.M)]
    assert numbers == list(range(1, 301))


def test_reportlab_is_imported_only_when_a_pdf_is_made(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from scorekeeper import create_app\n"
        f"app = create_app({{'DATABASE_URL': 'sqlite:///{tmp_path / 'db.sqlite3'}', "
        "'SECRET_KEY': 'x'})\n"
        "assert app.test_client().get('/').status_code == 200\n"
        "assert 'reportlab' not in sys.modules, 'reportlab at start'\n"
        "assert app.test_client().get('/sheets/blank.pdf').status_code == 200\n"
        "assert 'reportlab' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
