"""The score sheet of a stored Canasta game, as the route serves it: a stored game turned
into the renderer's data in the asked language (issue: score sheets as PDF), read back with
pypdf. The renderer itself is tested in test_score_sheet.py; this checks what reaches it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.sheets.helpers import contains_run, pdf_lines, polish_number


def quick(
    natural: int = 0,
    mixed: int = 0,
    meld: int = 0,
    hand: int = 0,
    red: Any = 0,
    out: bool = False,
    concealed: bool = False,
) -> dict[str, Any]:
    return {
        "quick": {
            "natural_canastas": natural,
            "mixed_canastas": mixed,
            "meld_points": meld,
            "hand_points": hand,
            "melded": True,
        },
        "red_threes": red,
        "went_out": out,
        "concealed": concealed,
    }


def new_game(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def add(
    client: FlaskClient, game: dict[str, Any], teams: list[Any], **extra: Any
) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/games/{game['id']}/hands",
        json={"version": game["version"], "teams": teams, **extra},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def sheet(client: FlaskClient, key: str, lang: str) -> list[list[str]]:
    response = client.get(f"/games/{key}/sheet.pdf?lang={lang}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    return pdf_lines(response.data)


@pytest.fixture()
def german_game(client: FlaskClient) -> dict[str, Any]:
    game = new_game(
        client,
        ruleset="german",
        players=4,
        options={"two_value": 20},
        sides=[
            {"name": "Wir", "players": ["Łucja", "Jörg"]},
            {"name": "<b>Ala & Ola</b>", "players": ["Żaneta", "Weiß"]},
        ],
    )
    # The worked example of docs/api.md §3, with twos at 20 as a house rule (600, 415) ...
    game = add(
        client,
        game,
        [
            {
                "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"]],
                "red_threes": 1,
                "hands": [[], ["5", "Q"]],
                "went_out": True,
                "concealed": False,
            },
            quick(mixed=1, meld=155, hand=40),
        ],
    )
    # ... then a concealed going out worth 200 (docs/rulebook.md §4) and 2,000 points in one hand.
    game = add(
        client,
        game,
        [quick(meld=90, hand=25), quick(natural=2, meld=300, red=2, out=True, concealed=True)],
    )
    return add(
        client,
        game,
        [quick(natural=2, mixed=1, meld=900, red=2, out=True), quick(meld=50, hand=10)],
    )


@pytest.mark.parametrize(
    "lang, labels, page",
    [
        (
            "de",
            [
                "Canasta-Punkteliste",
                "Regeln",
                "Hausregeln",
                "Spieler",
                "Rote Dreien",
                "Ausmachen",
                "Handkarten",
                "Gesamt",
                "Zwischenstand",
            ],
            "Seite 1 von 1",
        ),
        (
            "pl",
            [
                "Kanasta – karta wyników",
                "Zasady",
                "Zasady domowe",
                "Gracze",
                "Kanasty",
                "Na ręce",
                "Suma",
                "Wynik dotychczasowy",
            ],
            "Strona 1 z 1",
        ),
        (
            "en",
            [
                "Canasta score sheet",
                "Rules",
                "House rules",
                "Players",
                "Red threes",
                "Going out",
                "In hand",
                "Total",
                "Score so far",
            ],
            "Page 1 of 1",
        ),
    ],
)
def test_labels_follow_the_language(
    client: FlaskClient, german_game: dict[str, Any], lang: str, labels: list[str], page: str
) -> None:
    lines = sheet(client, german_game["id"], lang)
    assert len(lines) == 1
    text = lines[0]
    for label in labels:
        assert label in text, label
    assert any(page in line for line in text)


def test_names_hands_and_totals_reach_the_sheet(
    client: FlaskClient, german_game: dict[str, Any]
) -> None:
    text = sheet(client, german_game["id"], "pl")[0]
    assert "<b>Ala & Ola</b>" in text  # user text printed literally (escaped for reportlab)
    assert "Wir: Łucja, Jörg" in text and "<b>Ala & Ola</b>: Żaneta, Weiß" in text
    assert "• Wartość dwójki: 20 zamiast 50" in text

    # Every hand: melded cards, in hand, hand score and running total, in that order.
    def pl(value: int) -> str:  # pypdf reads the no-break space of "1 000" as a space
        return polish_number(value).replace("\u00a0", " ")

    text = [line.replace("\u00a0", " ") for line in text]
    for row in german_game["hands"]:
        for side in row["sides"]:
            items = side["items"]
            run = [pl(v) for v in (items["canasta_bonus"], items["red_threes"])]
            run += [pl(items["going_out"]) + ("*" if side.get("concealed") else "")]
            run += [
                pl(v)
                for v in (items["melded_cards"], items["in_hand"], side["score"], side["total"])
            ]
            assert contains_run(text, run), (row["number"], run)
    totals = [s["total"] for s in german_game["sides"]]
    assert totals == [3165, 2155]  # 600 + 65 + 2,500 and 415 + 1,700 + 40
    # Nobody has won yet, so it is the score so far, not the final score.
    assert contains_run(text, ["Wynik dotychczasowy", pl(totals[0])])
    assert "Wynik końcowy" not in text
    assert "200*" in text  # the concealed going out, marked


def test_the_minimum_each_side_had_is_printed(
    client: FlaskClient, german_game: dict[str, Any]
) -> None:
    text = sheet(client, german_game["id"], "de")[0]
    # Hand 3 started at 665 and 2,115: minimum 50 and 90 (docs/rulebook.md §3).
    start = text.index("3", text.index("Gesamt"))  # the row of hand 3
    row = text[start : start + 18]
    # Nr., the dealer, then per side: minimum, canastas, red threes, going out, melded, hand,
    # score, total.
    assert row[0] == "3" and row[1] == "Jörg" and row[2] == "50" and row[10] == "90", row


def test_the_winner_and_margin(client: FlaskClient) -> None:
    game = new_game(
        client,
        ruleset="classic",
        players=2,
        target=500,
        sides=[{"name": "Anna", "players": ["Anna"]}, {"name": "Ben", "players": ["Ben"]}],
    )
    game = add(client, game, [quick(natural=2, meld=200, out=True), quick(meld=100, hand=30)])
    assert game["winner"] == 0
    text = sheet(client, game["id"], "en")[0]
    assert contains_run(text, ["Final score", "1,300", "Final score", "70"])
    assert "Score so far" not in text
    assert contains_run(text, ["Winner", "Anna", "Margin", "1,230"])  # 1,300 - 70
    # A player alone is the column: no "Anna: Anna" list.
    assert "Anna: Anna" not in text and "Ben: Ben" not in text
    assert "Anna, Ben" in text


def test_cutthroat_prints_one_column_group_per_player(client: FlaskClient) -> None:
    game = new_game(
        client,
        ruleset="classic",
        players=3,
        sides=[{"name": n, "players": [n]} for n in ("Ala", "Jürgen", "Żaneta")],
    )
    game = add(
        client,
        game,
        [
            quick(natural=2, meld=400, red=1, out=True),
            {**quick(natural=1, meld=200, hand=60), "red_threes": [1, 0]},
        ],
        lone_player=0,
    )
    totals = [s["total"] for s in game["sides"]]
    text = sheet(client, game["id"], "de")[0]
    for name in ("Ala", "Jürgen", "Żaneta"):
        assert name in text and f"{name}: {name}" not in text
    assert "Ala hat allein gespielt." in text
    for total in totals:
        assert f"{total:,}".replace(",", ".") in text


def test_sixty_hands_go_onto_pages_with_the_header_again(client: FlaskClient) -> None:
    game = new_game(
        client,
        ruleset="german",
        players=4,
        target=1_000_000,
        sides=[{"name": "Wir", "players": ["A", "B"]}, {"name": "Ihr", "players": ["C", "D"]}],
    )
    for _ in range(60):
        game = add(client, game, [quick(natural=1, meld=100, out=True), quick(meld=50, hand=20)])
    pages = sheet(client, game["id"], "de")
    assert len(pages) >= 2
    for number, text in enumerate(pages, 1):
        assert f"Seite {number} von {len(pages)}" in " ".join(text)
        assert "Gesamt" in text and "Wir" in text and "Ihr" in text
    assert "42.000" in pages[-1]  # 60 x 700


def test_the_read_only_key_also_prints_and_unknown_keys_do_not(
    client: FlaskClient, german_game: dict[str, Any]
) -> None:
    assert sheet(client, german_game["view_id"], "en")
    assert client.get("/games/nope/sheet.pdf").status_code == 404


def test_blank_pads_per_ruleset_and_language(client: FlaskClient) -> None:
    for ruleset, players, lang, needle in (
        ("german", 4, "de", "Seite 1 von 1"),
        ("polish", 2, "pl", "Strona 1 z 1"),
        ("classic", 6, "en", "7,000"),
    ):
        response = client.get(f"/sheets/blank.pdf?ruleset={ruleset}&players={players}&lang={lang}")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        text = " ".join(pdf_lines(response.data)[0])
        assert needle in text, (ruleset, needle)
    assert client.get("/sheets/blank.pdf?ruleset=nope").status_code == 404


def test_a_corrected_hand_is_marked_with_its_earlier_entry(
    client: FlaskClient, german_game: dict[str, Any]
) -> None:
    """Hand 2 first said 65 / 1,700 (see german_game); corrected to one more red
    three for the first side (+100), the sheet marks it and prints what it said before."""
    changed = client.put(
        f"/api/v1/games/{german_game['id']}/hands/2",
        json={
            "version": german_game["version"],
            "teams": [
                quick(meld=90, hand=25, red=1),
                quick(natural=2, meld=300, red=2, out=True, concealed=True),
            ],
        },
    )
    assert changed.status_code == 200, changed.get_json()
    text = " ".join(sheet(client, german_game["id"], "de")[0])
    assert "Korrigiert; vorher eingetragen: +65 / +1.700." in text
    english = " ".join(sheet(client, german_game["id"], "en")[0])
    assert "Corrected; entered before: +65 / +1,700." in english
    assert english.count("Corrected") == 1  # hands 1 and 3 were never corrected
