"""Adjustments, points a table agreed to add to or take from a side in one hand
(table penalties, agreed corrections), with a note. They are house agreements, in no seed
file: the requests carry ``"adjustments": [{"points": -100, "note": "…"}]`` per team, at most
5 per side, points within ±10,000, a note of at most 80 characters, stored trimmed.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.web.games.test_backup import other  # noqa: F401  (a fixture: another installation)
from tests.web.games.test_game_pages import (
    DETAIL_US,
    QUICK_THEM,
    create_game,
    hand_form,
    save_hand,
    totals,
)

GAMES = "/api/v1/games"
SIDES = [{"name": "Wir", "players": ["Anna", "Ben"]}, {"name": "Ihr", "players": ["Cleo", "Dan"]}]
# docs/api.md §3's quick side: 155 melded + 300 (one mixed canasta) - 40 in hand = 415.
QUICK = {"mixed_canastas": 1, "meld_points": 155, "hand_points": 40}


def teams(
    us: list[dict[str, Any]] | None = None, them: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    first: dict[str, Any] = {"quick": QUICK, "went_out": True}
    second: dict[str, Any] = {"quick": QUICK}
    if us is not None:
        first["adjustments"] = us
    if them is not None:
        second["adjustments"] = them
    return [first, second]


def score(client: FlaskClient, sides: list[dict[str, Any]]) -> Any:
    return client.post("/api/v1/score", json={"ruleset": "german", "players": 4, "teams": sides})


def codes(response: Any) -> list[tuple[str, str]]:
    return [(p["code"], p["where"]) for p in response.get_json()["problems"]]


def test_score_adds_the_adjustments_as_an_item(client: FlaskClient) -> None:
    answer = score(
        client, teams([{"points": -100, "note": "table talk"}, {"points": 30, "note": "miscount"}])
    )
    assert answer.status_code == 200, answer.get_json()
    us, them = answer.get_json()["teams"]
    # 415 + 100 for going out, then -100 + 30 agreed at the table: 445.
    assert us["score"] == 445 and us["items"]["adjustments"] == -70
    assert sum(us["items"].values()) == us["score"]
    assert them["score"] == 415 and "adjustments" not in them["items"]


def test_a_detail_side_and_a_special_hand_keep_their_adjustment(client: FlaskClient) -> None:
    # docs/api.md §3's detail side scores 690; an adjustment of +50 makes it 740.
    detail = {
        "melds": [["K", "K", "K", "2"], ["7", "7", "7", "7", "7", "2", "2"]],
        "hands": [[], ["5", "Q"]],
        "red_threes": 1,
        "went_out": True,
        "adjustments": [{"points": 50}],
    }
    answer = score(client, [detail, {"quick": QUICK}])
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["teams"][0]["score"] == 740
    # docs/rulebook.md §6 (American): a special hand replaces every other item, not the agreement.
    american = client.post(
        "/api/v1/score",
        json={
            "ruleset": "american",
            "players": 4,
            "teams": [
                {
                    "special_hand": "pairs",
                    "went_out": True,
                    "hands": [[], []],
                    "adjustments": [{"points": -25, "note": "late"}],
                },
                {"quick": {"meld_points": 0}},
            ],
        },
    )
    assert american.status_code == 200, american.get_json()
    side = american.get_json()["teams"][0]
    assert side["items"]["adjustments"] == -25
    assert side["score"] == side["items"]["special_hand"] - 25


def test_bad_adjustments_are_refused(client: FlaskClient) -> None:
    cases = [
        ([{"points": 10_001}], ("request.value", "teams[0].adjustments[0].points")),
        ([{"points": -10_001}], ("request.value", "teams[0].adjustments[0].points")),
        ([{"note": "no points"}], ("request.missing", "teams[0].adjustments[0].points")),
        ([{"points": "-5"}], ("request.type", "teams[0].adjustments[0].points")),
        (
            [{"points": 5, "note": "x" * 81}],
            ("request.text_too_long", "teams[0].adjustments[0].note"),
        ),
        ([{"points": 5, "why": "?"}], ("request.unknown_key", "teams[0].adjustments[0].why")),
        ([{"points": 1}] * 6, ("request.too_large", "teams[0].adjustments")),
    ]
    for adjustments, problem in cases:
        answer = score(client, teams(adjustments))
        assert answer.status_code == 400 and problem in codes(answer), (
            adjustments,
            answer.get_json(),
        )
    assert score(client, teams([{"points": 10_000, "note": "y" * 80}])).status_code == 200
    german = client.post(
        "/api/v1/score?lang=de",
        json={"ruleset": "german", "players": 4, "teams": teams([{"points": 5, "note": "x" * 81}])},
    )
    assert "Zu lang: höchstens 80 Zeichen." in german.get_data(as_text=True)


def test_stored_trimmed_and_moved_with_a_backup(client: FlaskClient, other: Flask) -> None:  # noqa: F811
    game = client.post(GAMES, json={"ruleset": "german", "players": 4, "sides": SIDES}).json
    answer = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={
            "version": game["version"],
            "teams": teams(them=[{"points": -100, "note": "  =SUM(A1) <b>  "}]),
        },
    )
    assert answer.status_code == 201, answer.json
    hand = answer.json["hands"][0]
    assert hand["teams"][1]["adjustments"] == [{"points": -100, "note": "=SUM(A1) <b>"}]
    assert [s["total"] for s in answer.json["sides"]] == [515, 315]
    bad = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={"version": answer.json["version"], "teams": teams([{"points": 5, "extra": 1}])},
    )
    assert bad.status_code == 400
    assert len(client.get(f"{GAMES}/{game['id']}").json["hands"]) == 1
    # The backup moves it to another installation, scored the same.
    exported = client.get(f"/games/{game['id']}/export.json").json
    moved = other.test_client().post("/api/v1/games/import", json=exported)
    assert moved.status_code == 201, moved.json
    again = other.test_client().get(f"{GAMES}/{moved.json['games'][0]['id']}").json
    assert again["hands"][0]["teams"] == hand["teams"]
    assert [s["total"] for s in again["sides"]] == [515, 315]
    # The CSV: the item, and the note as text (never a formula).
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/games/{game['id']}/hands.csv?lang=en").text.removeprefix("\ufeff")
            )
        )
    )
    head, first = rows
    assert first[head.index("Ihr: Adjustment")] == "-100"
    assert first[head.index("Adjustment notes")] == "Ihr: -100 =SUM(A1) <b>"


# ---- the hand form, the history, the sheet ---------------------------------------------------

NOTE = "<b>Ala & Ola</b> talked"


def test_the_hand_form_history_and_sheet(client: FlaskClient) -> None:
    game_id = create_game(client)
    page = client.get(f"/games/{game_id}/hands/new").text
    assert "Adjustment (±)" in page and 'name="t1-adj-points"' in page
    # A note without points is a problem next to the field; nothing is stored.
    data = hand_form(client, game_id, **DETAIL_US, **QUICK_THEM, t1__adj__note="x")
    refused = save_hand(client, game_id, data, expect=422)
    assert 'id="n-t1-adj"' in refused.text and "A value is missing here." in refused.text
    assert totals(client, game_id) == ["0", "0"]
    data = hand_form(
        client,
        game_id,
        **DETAIL_US,
        **QUICK_THEM,
        t1__adj__points="-100",
        t1__adj__note=f"  {NOTE}  ",
    )
    save_hand(client, game_id, data)
    # docs/api.md §3: 690 and 415; the adjustment takes 100 from the second side.
    assert totals(client, game_id) == ["690", "315"]
    history = client.get(f"/games/{game_id}").text
    assert (
        "Adjustment for Them:" in history and "&lt;b&gt;Ala &amp; Ola&lt;/b&gt; talked" in history
    )
    assert NOTE not in history
    assert "−100" in history or "-100" in history
    # Correcting the hand shows the adjustment again, trimmed.
    edit = client.get(f"/games/{game_id}/hands/1/edit").text
    assert 'value="-100"' in edit and 'value="&lt;b&gt;Ala &amp; Ola&lt;/b&gt; talked"' in edit
    # "+50" is read too.
    data = hand_form(client, game_id, 1, t1__adj__points="+50")
    save_hand(client, game_id, data, number=1)
    assert totals(client, game_id) == ["690", "465"]
    german = client.get(f"/games/{game_id}?lang=de").text
    assert "Zu-/Abschlag für Them:" in german
    pdf = client.get(f"/games/{game_id}/sheet.pdf?lang=de")
    assert pdf.status_code == 200
    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.data)).pages
    )
    assert "Zu-/Abschlag Spiel" in text and f"Zu-/Abschlag für Them: +50 – {NOTE}." in text
