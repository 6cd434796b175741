"""The score sheet of "3 ist 50": one column per player with each game's minus points and the
running total, the winner (lowest total) and margin, the joker value, page numbers, DejaVu Sans
and names printed literally; and the renderer's additive ``minus_points`` / ``target_text``."""

from __future__ import annotations

import dataclasses
import io
import re

from flask.testing import FlaskClient
from pypdf import PdfReader

from scorekeeper.sheets.demo import sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet
from tests.sheets.helpers import pdf_lines, pdf_pages

NASTY = "<b>Ala & Ola</b>"


def _form(client: FlaskClient, url: str, form_id: str) -> dict[str, str]:
    html = client.get(url).text
    form = html.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name or ('type="radio"' in tag and "checked" not in tag):
            continue
        fields[name[1]] = value[1] if value else ""
    return fields


def played(client: FlaskClient, games: list[list[str]], **house: str) -> str:
    data = {
        "players": "3",
        "name-0": NASTY,
        "name-1": "Łucja Żółć",
        "name-2": "Ben",
        "action": "create",
        **house,
    }
    response = client.post("/fifty/new", data=data)
    assert response.status_code == 303
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    for piles in games:
        fields = _form(client, f"/fifty/{game_id}/games/new", "entry-form")
        for i, cards in enumerate(piles):
            fields[f"p{i}-cards"] = cards
        fields["action"] = "save"
        assert client.post(f"/fifty/{game_id}/games", data=fields).status_code == 303
    return game_id


def sheet_lines(client: FlaskClient, game_id: str, lang: str) -> list[str]:
    response = client.get(f"/fifty/{game_id}/sheet.pdf?lang={lang}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    return [line for page in pdf_lines(response.data) for line in page]


def test_sheet_of_a_finished_evening(client: FlaskClient) -> None:
    game_id = played(client, [["3 A K 7", "4", ""], ["", "3 3", "X 2"]], stop_after="2")
    lines = sheet_lines(client, game_id, "en")
    text = "\n".join(lines)
    assert "3 is 50 score sheet" in text
    assert NASTY in text and "Łucja Żółć" in text
    assert "Joker: 10 points" in text
    assert "The evening ends after 2 games; the lowest total wins." in text
    assert "Minus points" in text and "Total" in text
    # game 1: 78 / 4 / 0; game 2: 0 / 100 / 12 -> totals 78 / 104 / 12
    for figure in ("78", "104", "12", "100"):
        assert figure in lines
    assert "Winner" in text and "Ben" in text
    assert "Margin" in text and "66" in lines
    assert "Page 1 of 1" in text


def test_sheet_languages_and_font(client: FlaskClient) -> None:
    game_id = played(client, [["3", "A", "K"]])
    de = "\n".join(sheet_lines(client, game_id, "de"))
    assert "Seite 1 von 1" in de and "Partie läuft noch" in de and "Gesamt" in de
    pl = "\n".join(sheet_lines(client, game_id, "pl"))
    assert "Strona 1 z 1" in pl
    # an unnamed evening's footer names the game once: "3 ist 50 – Minuspunkte, …"
    footer = [line for line in de.splitlines() if "Minuspunkte, die niedrigste" in line]
    assert any("\u00b7" in line for line in footer), footer  # the footer's line is among them
    assert all(line.count("3 ist 50") == 1 for line in footer), footer
    data = client.get(f"/fifty/{game_id}/sheet.pdf").data
    fonts = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts and all("DejaVuSans" in f for f in fonts), fonts


def test_a_long_evening_has_page_numbers(client: FlaskClient) -> None:
    game_id = played(client, [["K", "Q", "4"]] * 60)
    pages = pdf_pages(client.get(f"/fifty/{game_id}/sheet.pdf?lang=en").data)
    assert len(pages) >= 2
    assert f"Page 1 of {len(pages)}" in pages[0]
    assert f"Page {len(pages)} of {len(pages)}" in pages[-1]
    assert "600" in pages[-1]  # 60 × K = 600 for the first player


def test_minus_points_layout_is_additive() -> None:
    sheet = sample_sheet(3)
    canasta = "\n".join(pdf_pages(render_score_sheet(sheet)))
    fifty = "\n".join(
        pdf_pages(render_score_sheet(dataclasses.replace(sheet, minus_points=True, target_text="")))
    )
    # The Canasta sheet prints the items and the target; minus points only game and total.
    assert sheet.labels.red_threes in canasta and sheet.labels.red_threes not in fifty
    assert sheet.labels.target in canasta and sheet.labels.target not in fifty
    custom = "\n".join(
        pdf_pages(render_score_sheet(dataclasses.replace(sheet, target_text="after 5 games")))
    )
    assert "after 5 games" in custom
