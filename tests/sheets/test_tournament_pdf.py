"""The tournament sheets: a round's seating list and table cards, the standings and the final
results, drawn from read models built by hand, with the real German and Polish labels; read
back with pypdf, and the table card's QR code read back from its raster (pdftoppm)."""

from __future__ import annotations

import dataclasses
import io
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import segno
from flask import Flask
from PIL import Image

from scorekeeper import create_app
from scorekeeper.sheets import TournamentLabels
from scorekeeper.sheets.tournaments import render_round, render_standings, seat_order
from scorekeeper.sheets.tournaments.round_sheet import QR_QUIET
from scorekeeper.tournaments.model import RoundEnd, RoundState, TableView, TournamentView
from tests.sheets.helpers import contains_run, pdf_pages
from tests.sheets.tournament_views import (
    NAMES,
    TOURNAMENT_NAME,
    game_url,
    individual_view,
    labels_in,
    pairs_view,
)

LANGUAGES = ("de", "pl")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder = tmp_path_factory.mktemp("app")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{folder / 'test.sqlite3'}",
        }
    )
    yield app
    app.extensions["scorekeeper.engine"].dispose()


def _round_pages(view: TournamentView, labels: TournamentLabels) -> list[str]:
    return pdf_pages(render_round(view, 1, labels, game_url))


def _cards(pages: list[str], labels: TournamentLabels) -> list[str]:
    return [page for page in pages if labels.table_card in page]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_twelve_players_a_seating_page_then_a_card_per_table(app: Flask, lang: str) -> None:
    view = individual_view()
    with labels_in(app, lang) as labels:
        pages = _round_pages(view, labels)
        seating, card = labels.seating, labels.table_card
        round_one, end = labels.round(1), labels.hands(4)
        north, dealer = labels.compass[0], labels.first_dealer
    assert len(pages) == 1 + 3
    assert seating in pages[0] and card not in pages[0]
    for name in NAMES:  # every player on the seating list, as typed
        assert name in pages[0].replace("\n", " ") or name in pages[0], name
    assert dealer in pages[0]
    cards = pages[1:]
    assert all(card in page for page in cards)
    for table, page in zip(view.rounds[0].tables, cards, strict=True):
        assert TOURNAMENT_NAME in page and round_one in page and end in page
        assert game_url(table) in page.replace("\n", "")  # printed under the code
        assert north in page
        # the names of this table, and no one of another table
        here = {name for _, name in seat_order(table)}
        for name in NAMES:
            if len(name) < 20:  # long names may be wrapped by the text extraction
                assert (name in page) == (name in here), (table.number, name)


def test_the_labels_are_in_the_language_asked(app: Flask) -> None:
    view = individual_view()
    texts = {}
    for lang in ("de", "pl", "en"):
        with labels_in(app, lang) as labels:
            texts[lang] = "\n".join(_round_pages(view, labels))
    assert "Sitzplan" in texts["de"] and "3 Tische" in texts["de"] and "4 Spiele" in texts["de"]
    assert "Rozstawienie" in texts["pl"] and "3 stoły" in texts["pl"]
    assert "4 rozdania" in texts["pl"] and "Stół 1" in texts["pl"]
    assert "Seating list" in texts["en"] and "3 tables" in texts["en"]


def test_user_text_prints_as_typed(app: Flask) -> None:
    """A name or a tournament name that looks like markup is printed literally, with every
    German and Polish letter."""
    with labels_in(app, "pl") as labels:
        text = "\n".join(_round_pages(individual_view(), labels))
        text += "\n".join(pdf_pages(render_standings(individual_view(), labels)))
    assert "<b>Anna & Ben</b>" in text
    assert "Frühjahrsturnier <i>Żółw</i> & Co." in text
    for letters in ("Łucja Ząbkowska", "Jürgen Groß", "Źdźisław Ćwik", "Ömer Äußerlich"):
        assert letters in text
    assert "&amp;" not in text and "&lt;" not in text


def test_a_bye_is_listed(app: Flask) -> None:
    view = individual_view(players=13, byes=1, round_end=RoundEnd.MINUTES)
    with labels_in(app, "de") as labels:
        pages = _round_pages(view, labels)
        byes, sits_out, minutes = labels.byes, labels.sits_out, labels.minutes(60)
    assert len(pages) == 1 + 3
    bye = view.rounds[0].byes[0]
    assert f"{byes}: {bye}" in pages[0]
    assert sits_out in pages[0] and minutes in pages[0]


def test_forty_tables_every_table_on_its_own_card(app: Flask) -> None:
    view = individual_view(players=160, names=[f"Spieler {n:03d}" for n in range(1, 161)])
    with labels_in(app, "de") as labels:
        pages = _round_pages(view, labels)
        cards = _cards(pages, labels)
        table_word = labels.table
    tables = view.rounds[0].tables
    assert len(tables) == 40
    seating_pages = len(pages) - len(cards)
    assert 1 <= seating_pages <= 3  # the list and who sits where, before the cards
    assert all(labels.table_card not in page for page in pages[:seating_pages])
    assert pages[seating_pages:] == cards and len(cards) == 40
    for table, page in zip(tables, cards, strict=True):
        names = {name for _, name in seat_order(table)}
        printed = {f"Spieler {n:03d}" for n in range(1, 161) if f"Spieler {n:03d}" in page}
        assert printed == names, table.number
        lines = [line.strip() for line in page.splitlines()]
        assert contains_run(lines, [table_word, str(table.number)])  # the large number
        assert f"/games/g{table.number:03d}key" in page.replace("\n", "")
    everyone = "\n".join(pages[:seating_pages])
    assert all(f"Spieler {n:03d}" in everyone for n in range(1, 161))


def test_a_round_the_tournament_does_not_have(app: Flask) -> None:
    with labels_in(app, "de") as labels, pytest.raises(ValueError):
        render_round(individual_view(), 2, labels, game_url)


def test_pairs_cards_print_the_pairs_as_sides(app: Flask) -> None:
    view = pairs_view()
    with labels_in(app, "pl") as labels:
        pages = _round_pages(view, labels)
        side_one = labels.side(1)
    tables = view.rounds[0].tables
    assert len(pages) == 1 + len(tables)
    for table, page in zip(tables, pages[1:], strict=True):
        assert side_one in page
        for side in table.sides:
            assert " & ".join(side) in page.replace("\n", " ") or all(n in page for n in side)


# --- the standings -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_standings_marked_provisional_while_tables_play(app: Flask, lang: str) -> None:
    view = individual_view()
    with labels_in(app, lang) as labels:
        (page,) = pdf_pages(render_standings(view, labels))
        provisional, final = labels.provisional, labels.results
        head = (labels.rank, labels.player, labels.match_points, labels.points, labels.played)
    assert provisional.upper() in page and page.splitlines()[0].split(" · ")[0] != final
    for word in head:
        assert word.split()[0] in page
    for row in view.standings:
        assert row.name in page


def test_results_with_every_tables_result(app: Flask) -> None:
    view = pairs_view()
    with labels_in(app, "de") as labels:
        text = "\n".join(pdf_pages(render_standings(view, labels)))
        final, provisional = labels.results, labels.provisional
        results, pair = labels.round_results, labels.pair
    assert final in text and provisional not in text
    assert results in text and pair in text
    for rnd in view.rounds:
        for table in rnd.tables:
            a, b = table.totals
            assert f"{a:,}".replace(",", ".") + " : " + f"{b:,}".replace(",", ".") in text


def test_not_final_while_a_round_is_proposed(app: Flask) -> None:
    done = pairs_view()
    proposed = dataclasses.replace(done.rounds[-1], number=3, state=RoundState.PROPOSED)
    view = dataclasses.replace(done, rounds=(*done.rounds, proposed))
    with labels_in(app, "de") as labels:
        text = "\n".join(pdf_pages(render_standings(view, labels)))
        final, standings = labels.results, labels.standings
    assert standings in text and final not in text


# --- the QR code, read back from the raster ----------------------------------------------------

DPI = 150


def _raster(pdf: bytes, page: int, tmp_path: Path, dpi: int = DPI) -> Image.Image:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    png = subprocess.run(
        ["pdftoppm", "-png", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), str(path)],
        check=True,
        capture_output=True,
    ).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def _modules(image: Image.Image, count: int) -> tuple[list[list[bool]], float]:
    """The modules of the QR code in the top right of a card, sampled at each module's middle
    from its first dark pixel (the corner of the top left finder pattern), and a module's
    width in pixels."""
    width, height = image.size
    left = int(width * 150 / 210)
    pixels = image.load()
    assert pixels is not None

    def dark(x: float, y: float) -> bool:
        value = pixels[int(x), int(y)]
        assert isinstance(value, int)
        return value < 128

    top = next(y for y in range(height // 2) if any(dark(x, y) for x in range(left, width)))
    x0 = next(x for x in range(left, width) if dark(x, top))
    x1 = x0
    while dark(x1, top):
        x1 += 1
    module = (x1 - x0) / 7  # the finder pattern's top edge: 7 dark modules
    # the quiet zone: white for 4 modules left of and above the code
    for k in range(1, QR_QUIET * 4):
        assert not dark(x0 - k * module / 4 - 1, top + 3.5 * module)
        assert not dark(x0 + 3.5 * module, top - k * module / 4 - 1)
    modules = [
        [dark(x0 + (c + 0.5) * module, top + (r + 0.5) * module) for c in range(count)]
        for r in range(count)
    ]
    return modules, module


def test_the_qr_code_of_each_card_reads_back_as_its_game_address(
    app: Flask, tmp_path: Path
) -> None:
    view = individual_view()
    with labels_in(app, "de") as labels:
        pdf = render_round(view, 1, labels, game_url)
    for number, table in enumerate(view.rounds[0].tables, start=2):
        expected = [[bool(v) for v in row] for row in segno.make_qr(game_url(table)).matrix]
        image = _raster(pdf, number, tmp_path)
        modules, module = _modules(image, len(expected))
        assert modules == expected, table.number
        # at least 3.5 cm wide without its quiet zone, for a phone held at arm's length
        assert len(expected) * module / DPI * 25.4 >= 35


def test_the_card_is_not_blank_where_the_code_is(app: Flask, tmp_path: Path) -> None:
    """At the resolution one looks at a page (60 dpi), the middle of the code's square is about
    half dark, as a QR code is."""
    view = individual_view()
    with labels_in(app, "pl") as labels:
        image = _raster(render_round(view, 1, labels, game_url), 2, tmp_path, dpi=60)
    px = 60 / 25.4  # pixels per millimetre
    box = image.crop((int(160 * px), int(38 * px), int(190 * px), int(62 * px)))
    histogram = box.histogram()
    assert 0.3 < sum(histogram[:128]) / sum(histogram) < 0.7


def test_long_provisional_standings_are_marked_on_every_page(app: Flask) -> None:
    view = individual_view(players=160, names=[f"Spieler {n:03d}" for n in range(1, 161)])
    with labels_in(app, "de") as labels:
        pages = pdf_pages(render_standings(view, labels))
        mark = labels.provisional.upper()
    assert len(pages) >= 3
    assert all(mark in page for page in pages)
    text = "\n".join(pages)
    assert all(f"Spieler {n:03d}" in text for n in range(1, 161))


def test_tables_of_six_three_and_two_name_their_seats(app: Flask) -> None:
    """A round of the odd count seated at other sizes: numbered seats at 6 and 3, the compass
    at 2 (face to face: north and south); every side's names over its pad columns."""
    base = individual_view()
    six = dataclasses.replace(
        base.rounds[0].tables[0],
        sides=(("Ala", "Iza"), ("Ola", "Józef"), ("Ela", "Ńel")),
        participants=((0, 3), (1, 4), (2, 5)),
        first_dealer=4,
    )
    three = dataclasses.replace(
        base.rounds[0].tables[1],
        sides=(("Ala",), ("Ola",), ("Ela",)),
        participants=((0,), (1,), (2,)),
    )
    two = dataclasses.replace(
        base.rounds[0].tables[2], sides=(("Ala",), ("Ola",)), participants=((0,), (1,))
    )
    rnd = dataclasses.replace(base.rounds[0], tables=(six, three, two))
    view = dataclasses.replace(base, rounds=(rnd,))
    with labels_in(app, "de") as labels:
        pages = _round_pages(view, labels)
        seats, compass = [labels.seat(n) for n in range(1, 7)], labels.compass
    assert len(pages) == 4
    assert [name for _, name in seat_order(six)] == ["Ala", "Ola", "Ela", "Iza", "Józef", "Ńel"]
    assert all(seat in pages[1] for seat in seats) and "Józef ★" in pages[1]
    assert "Ola & Józef" in pages[1]
    assert all(seat in pages[2] for seat in seats[:3]) and seats[3] not in pages[2]
    assert compass[0] in pages[3] and compass[2] in pages[3] and compass[1] not in pages[3]


def test_a_proposed_round_prints_its_seating_marked_and_no_cards(app: Flask) -> None:
    """A proposal has no games yet: no card, no address asked for."""
    base = individual_view()
    rnd = dataclasses.replace(base.rounds[0], state=RoundState.PROPOSED)
    view = dataclasses.replace(base, rounds=(rnd,))

    def no_game(table: TableView) -> str:
        raise AssertionError(f"table {table.number} has no game yet")

    with labels_in(app, "pl") as labels:
        pages = pdf_pages(render_round(view, 1, labels, no_game))
        proposal, card = labels.proposal, labels.table_card
    assert len(pages) == 1
    assert proposal in pages[0] and card not in pages[0]
    assert "Cleo" in pages[0]


def test_the_pairs_seating_counts_pairs(app: Flask) -> None:
    with labels_in(app, "de") as labels:
        (first, *_cards) = _round_pages(pairs_view(), labels)
    assert "8 Paare" in first and "4 Tische" in first
