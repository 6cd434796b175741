"""The chart of running totals on the game page, in the view link and on the PDF."""

from __future__ import annotations

import io
import re

from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.web.games.chart import nice_step, running_chart
from tests.sheets.helpers import pdf_lines
from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
)


def test_the_chart_geometry() -> None:
    # Two hands, totals 690/415 then 1,380/830, target 5,000: the grid runs 0..6,000 in steps
    # of 2,000; the plot spans x 44..276 and y 186 (0) .. 12 (6,000), so 1 point = 0.029 units.
    chart = running_chart(["Us", "Them"], [[690, 415], [1380, 830]], 5000)
    assert chart is not None
    assert [v for _y, v in chart.ticks] == [0, 2000, 4000, 6000]
    assert chart.target_y == 41.0  # 186 - 174 * 5000 / 6000
    us, them = chart.series
    assert us.points == [(44.0, 186.0), (160.0, 166.0), (276.0, 146.0)]
    assert them.points[-1] == (276.0, 161.9)  # 186 - 174 * 830 / 6000 = 161.93
    # Told apart by more than colour: dash pattern and marker differ, names are apart.
    assert us.dash != them.dash and us.marker != them.marker
    assert abs(us.label_y - them.label_y) >= 13
    assert running_chart(["Us", "Them"], [], 5000) is None
    assert nice_step(730) == 200 and nice_step(5000) == 2000


def test_game_page_view_and_pdf_show_the_chart(client: FlaskClient) -> None:
    game_id = create_game(client, player__0__0="<Anna>")
    assert '<figure class="chart"' not in client.get(f"/games/{game_id}").text
    save_hand(client, game_id, hand_form(client, game_id, **DETAIL_US, **QUICK_THEM))
    page = client.get(f"/games/{game_id}").text
    figure = re.search(r'<figure class="chart".*?</figure>', page, re.S)
    assert figure and "Running totals" in figure[0] and "Target 5,000" in figure[0]
    assert '<desc id="chart-desc">Us: 690; Them: 415</desc>' in figure[0]
    assert "<script" not in figure[0]
    view = re.search(r"/view/([A-Za-z0-9_-]+)", page)
    assert view
    assert '<figure class="chart"' in client.get(f"/view/{view[1]}").text
    german = client.get(f"/games/{game_id}?lang=de").text
    assert "Verlauf der Punktestände" in german and "Ziel 5.000" in german
    data = client.get(f"/games/{game_id}/sheet.pdf?lang=de").data
    text = pdf_lines(data)[0]
    # The chart's words are in the sheet's own font (reportlab's graphics start in Helvetica,
    # which has no Polish letters).
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in PdfReader(io.BytesIO(data)).pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts and all("DejaVuSans" in font for font in fonts), fonts
    assert "Verlauf der Punktestände" in text
    assert text.index("Verlauf der Punktestände") < max(
        i for i, line in enumerate(text) if line.strip() == "Us"
    )
