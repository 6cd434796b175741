"""The sheets say everything. Items outside the five usual ones (American black
threes, penalties and special hands, and adjustments) each get a labelled column, in the full
and the compact layout, only when a hand of the sheet has one that is not zero, so every row
adds up to its score; the dealer of each hand; the statistics under a finished game."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.sheets import ScoreSheet, SheetHand, SheetStatistic
from scorekeeper.sheets.demo import german_number, sample_cutthroat, sample_sheet
from scorekeeper.sheets.pdf import render_score_sheet
from tests.sheets.helpers import contains_run, pdf_lines, pdf_pages

GERMAN_EXTRAS = {
    "black_threes": "Schwarze Dreien",
    "penalties": "Strafpunkte",
    "special_hand": "Sonderblatt",
    "adjustments": "Zu-/Abschlag",
}


def with_items(sheet: ScoreSheet, column: int, items: dict[str, int], note: str = "") -> ScoreSheet:
    """The first hand's ``column`` gets ``items`` on top of its own (score and totals follow)."""
    added = sum(items.values())
    first = sheet.hands[0]
    cell = first.cells[column]
    changed = dataclasses.replace(
        cell, items={**cell.items, **items}, score=cell.score + added, total=cell.total + added
    )
    cells = list(first.cells)
    cells[column] = changed
    hands = [dataclasses.replace(first, cells=tuple(cells), note=note or first.note)]
    for hand in sheet.hands[1:]:
        later = list(hand.cells)
        later[column] = dataclasses.replace(later[column], total=later[column].total + added)
        hands.append(dataclasses.replace(hand, cells=tuple(later)))
    labels = dataclasses.replace(sheet.labels, **GERMAN_EXTRAS)
    return dataclasses.replace(sheet, hands=tuple(hands), labels=labels)


def test_full_layout_labels_each_extra_item_only_when_needed() -> None:
    plain = sample_sheet(3)
    text = "\n".join(
        pdf_pages(
            render_score_sheet(
                dataclasses.replace(
                    plain, labels=dataclasses.replace(plain.labels, **GERMAN_EXTRAS)
                )
            )
        )
    )
    for label in GERMAN_EXTRAS.values():
        assert label not in text
    sheet = with_items(plain, 0, {"adjustments": -100}, "Zu-/Abschlag für Wir: <b>Tisch</b>.")
    lines = pdf_lines(render_score_sheet(sheet))[0]
    text = "\n".join(lines)
    assert "Zu-/Abschlag" in text
    assert "Schwarze Dreien" not in text and "Strafpunkte" not in text
    cell = sheet.hands[0].cells[0]
    # The first column group: minimum, the five items, the adjustment, score, total.
    run = [
        german_number(cell.minimum),
        *[
            german_number(cell.items[k])
            for k in ("canasta_bonus", "red_threes", "going_out", "melded_cards", "in_hand")
        ],
        german_number(-100),
        german_number(cell.score),
        german_number(cell.total),
    ]
    assert contains_run(lines, run), (run, lines[:60])
    assert sum(cell.items.values()) == cell.score
    # The note is printed literally (escaped for the Paragraph).
    assert "Zu-/Abschlag für Wir: <b>Tisch</b>." in " ".join(lines)


def test_full_layout_black_threes_beside_the_red_ones_penalties_after_the_cards() -> None:
    sheet = with_items(
        sample_sheet(2), 1, {"black_threes": 500, "penalties": -2500, "special_hand": 0}
    )
    lines = pdf_lines(render_score_sheet(sheet))[0]
    text = " ".join(lines)  # a turned heading may take two lines
    assert "Sonderblatt" not in text  # zero in every hand: no column
    heads = text[text.index("Nr.") :]
    order = ["Rote Dreien", "Schwarze Dreien", "Ausmachen", "Auf der Hand", "Strafpunkte", "Spiel"]
    assert sorted(order, key=heads.index) == order, heads[:600]
    cell = sheet.hands[0].cells[1]
    items = cell.items
    run = [
        german_number(cell.minimum),
        german_number(items["canasta_bonus"]),
        german_number(items["red_threes"]),
        german_number(500),
        german_number(items["going_out"]) + ("*" if cell.concealed else ""),
        german_number(items["melded_cards"]),
        german_number(items["in_hand"]),
        german_number(-2500),
        german_number(cell.score),
        german_number(cell.total),
    ]
    assert contains_run(lines, run), (run, lines[:80])


def test_compact_layout_keeps_the_extra_items_apart() -> None:
    sheet = sample_cutthroat()
    first = sheet.hands[0]
    cell = first.cells[1]
    items = {**cell.items, "penalties": -300, "black_threes": 100}
    changed = dataclasses.replace(cell, items=items, score=cell.score - 200, total=cell.total - 200)
    hand = SheetHand(first.number, (first.cells[0], changed, *first.cells[2:]), first.note)
    sheet = dataclasses.replace(
        sheet, hands=(hand,), labels=dataclasses.replace(sheet.labels, **GERMAN_EXTRAS)
    )
    lines = pdf_lines(render_score_sheet(sheet))[0]
    text = " ".join(lines)  # a turned heading may take two lines
    assert "Schwarze Dreien" in text and "Strafpunkte" in text
    assert contains_run(
        lines,
        [
            german_number(100),
            german_number(-300),
            german_number(changed.score),
            german_number(changed.total),
        ],
    ), lines[:60]


def test_dealer_column_and_statistics_print_user_text_literally() -> None:
    plain = sample_sheet(3)
    hands = tuple(
        dataclasses.replace(hand, dealer=name)
        for hand, name in zip(plain.hands, ("<i>Ann</i>", "Bernd & Co", "Łucja"), strict=True)
    )
    sheet = dataclasses.replace(
        plain,
        hands=hands,
        labels=dataclasses.replace(plain.labels, dealer="Geber", statistics="Statistik"),
        statistics=(
            SheetStatistic("Canastas", ("2 natürliche\n1 gemischter", "<b>0</b>")),
            SheetStatistic("Ausgemacht", ("2", "1")),
        ),
    )
    lines = pdf_lines(render_score_sheet(sheet))[0]
    assert "Geber" in lines and "Statistik" in lines
    assert contains_run(lines, ["1", "<i>Ann</i>"]) and contains_run(lines, ["2", "Bernd & Co"])
    assert contains_run(lines, ["Canastas", "2 natürliche", "1 gemischter", "<b>0</b>"]), lines
    assert contains_run(lines, ["Ausgemacht", "2", "1"])


# --- stored games, as the route serves them ------------------------------------------------

SIDES = [{"name": "Us", "players": ["Ann", "Ben"]}, {"name": "Them", "players": ["Cy", "Di"]}]


def post(client: FlaskClient, game: dict[str, Any], teams: list[Any]) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/games/{game['id']}/hands", json={"version": game["version"], "teams": teams}
    )
    assert response.status_code == 201, response.get_json()
    # the whole game (a save's answer may leave out the hands before its own)
    return client.get(f"/api/v1/games/{game['id']}").get_json()  # type: ignore[no-any-return]


@pytest.fixture()
def american_game(client: FlaskClient) -> dict[str, Any]:
    """docs/rulebook.md §6, as tests/web/games/test_american_game.py works it out, with three
    black
    threes laid out when going out (+500 with two canastas) and an adjustment."""
    created = client.post(
        "/api/v1/games", json={"ruleset": "american", "players": 4, "sides": SIDES}
    )
    game = created.get_json()
    game = post(
        client,
        game,
        [
            {
                "melds": [["7"] * 7, ["K"] * 7],
                "hands": [[], []],
                "red_threes": 2,
                "black_threes": 3,
                "went_out": True,
            },
            {"quick": {"meld_points": 60, "hand_points": 30, "unfinished_sevens": 1}},
        ],
    )
    game = post(
        client,
        game,
        [
            {"special_hand": "straight"},
            {
                "quick": {"mixed_canastas": 1, "meld_points": 95, "hand_points": 20},
                "adjustments": [{"points": -100, "note": "<i>Tisch</i> & Regel"}],
            },
        ],
    )
    return post(
        client,
        game,
        [
            {"melds": [["2"] * 7, ["A"] * 7], "hands": [[], ["5"]], "went_out": True},
            {"quick": {"hand_points": 45, "sevens_aces_held": 1}},
        ],
    )


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            ["Black threes", "Penalties", "Special hand", "Adjustment", "Dealer", "Score"],
        ),
        (
            "de",
            ["Schwarze Dreien", "Strafpunkte", "Sonderblatt", "Zu-/Abschlag", "Geber", "Spiel"],
        ),
        (
            "pl",
            ["Czarne trójki", "Kary", "Układ specjalny", "Punkty uzgodnione", "Rozdający", "Wynik"],
        ),
    ],
)
def test_a_stored_american_game_labels_every_item(
    client: FlaskClient, american_game: dict[str, Any], lang: str, words: list[str]
) -> None:
    assert american_game["winner"] == 0
    response = client.get(f"/games/{american_game['id']}/sheet.pdf?lang={lang}")
    lines = [line.replace("\u00a0", " ") for line in pdf_lines(response.data)[0]]
    text = " ".join(lines)  # a turned heading may take two lines
    for word in words:
        assert word in text, (word, lines[:80])
    assert "Other" not in lines and "Sonstige" not in lines and "Inne" not in lines
    # black threes +500 and the penalty of the unfinished sevens −2,500 stand in their columns
    hand_1 = american_game["hands"][0]["sides"]
    assert hand_1[0]["items"]["black_threes"] == 500
    assert hand_1[1]["items"]["penalties"] == -2500
    # who dealt: seat 1 (Ann), then the next seat to the left (Cy), then Ben
    assert [h["dealer"]["name"] for h in american_game["hands"]] == ["Ann", "Cy", "Ben"]
    for hand in american_game["hands"]:
        assert contains_run(lines, [str(hand["number"]), hand["dealer"]["name"]])
    assert "<i>Tisch</i> & Regel" in text  # the adjustment's note, literally


def test_the_finished_game_prints_its_statistics_in_the_readers_words(
    client: FlaskClient, american_game: dict[str, Any]
) -> None:
    def lines(lang: str) -> list[str]:
        response = client.get(f"/games/{american_game['id']}/sheet.pdf?lang={lang}")
        return [line.replace("\u00a0", " ") for line in pdf_lines(response.data)[0]]

    english = lines("en")
    at = english.index("Statistics")
    stats = english[at:]
    # Us: a canasta of sevens and of kings (natural), then of twos (wild) and of aces.
    assert contains_run(stats, ["Canastas", "3 natural", "1 wild", "1 mixed"]), stats
    assert contains_run(stats, ["Went out", "2", "0"])
    assert contains_run(stats, ["Best hand", "+5,375", "+275"])
    assert "Special hand for Us: Straight." in " ".join(english)
    polish = lines("pl")
    stats = polish[polish.index("Statystyki") :]
    assert contains_run(stats, ["Kanasty", "3 czyste", "1 dzika", "1 mieszana"]), stats
    german = lines("de")
    stats = german[german.index("Statistik") :]
    assert contains_run(stats, ["Canastas", "3 natürliche", "1 wilder", "1 gemischter"]), stats


def test_a_running_game_prints_no_statistics(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"ruleset": "german", "players": 4, "sides": SIDES})
    game = post(
        client,
        created.get_json(),
        [
            {"quick": {"natural_canastas": 1, "meld_points": 100}, "went_out": True},
            {"quick": {"meld_points": 50, "hand_points": 20}},
        ],
    )
    response = client.get(f"/games/{game['id']}/sheet.pdf?lang=en")
    lines = pdf_lines(response.data)[0]
    assert "Statistics" not in lines
    assert contains_run(lines, ["1", "Ann"])  # the dealer of hand 1


def test_the_blank_pad_has_a_column_to_write_who_dealt(client: FlaskClient) -> None:
    for lang, word in (("de", "Geber"), ("pl", "Rozdający"), ("en", "Dealer")):
        response = client.get(f"/sheets/blank.pdf?ruleset=german&players=4&lang={lang}")
        lines = pdf_lines(response.data)[0]
        assert lines[lines.index(word) - 1] in ("Nr.", "Nr", "No."), lines[:20]
