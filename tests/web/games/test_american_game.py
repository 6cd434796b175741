"""A whole Modern American Canasta game to 8,500 through the games API (docs/rulebook.md §6), then
its
score sheet in three languages. Every number below is worked out by hand from docs/rulebook.md
§6."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.games.test_game_pages import hand_form
from tests.web.pagehelpers import HTMX, slot

GAMES = "/api/v1/games"
SIDES = [{"name": "Us", "players": ["Ann", "Ben"]}, {"name": "Them", "players": ["Cy", "Di"]}]

# Hand 1: we go out with a canasta of sevens (2,500) and a natural one (500): melded 35 + 70,
# going out 100, two red threes with two canastas = +300: 3,505. They hold an unfinished meld
# of sevens (-2,500) beside 60 melded, which count minus with no canasta (docs/rulebook.md §6: -60),
# 30 in hand, one black three with no canasta (-100): -2,690.
HAND_1 = [
    {"melds": [["7"] * 7, ["K"] * 7], "hands": [[], []], "red_threes": 2, "went_out": True},
    {"quick": {"meld_points": 60, "hand_points": 30, "unfinished_sevens": 1}, "black_threes": 1},
]
# Hand 2: we score a special hand "straight" (3,000 replaces everything); they have one mixed
# canasta (300) with 95 melded and 20 in hand, their red three counts 0 with one canasta: 375.
HAND_2 = [
    {"special_hand": "straight"},
    {"quick": {"mixed_canastas": 1, "meld_points": 95, "hand_points": 20}, "red_threes": 1},
]
# Hand 3: we make a wild canasta of twos only (3,000) and a natural canasta of aces (2,000),
# melded 140 + 140, went out (+100), a five left in the partner's hand (-5): 5,375.
# They: nothing melded, 45 in hand, one player held three aces (-1,500): -1,545.
HAND_3 = [
    {"melds": [["2"] * 7, ["A"] * 7], "hands": [[], ["5"]], "went_out": True},
    {"quick": {"hand_points": 45, "sevens_aces_held": 1}},
]


def post_hand(client: FlaskClient, game: dict[str, Any], teams: list[Any]) -> dict[str, Any]:
    response = client.post(
        f"{GAMES}/{game['id']}/hands", json={"version": game["version"], "teams": teams}
    )
    assert response.status_code == 201, response.get_json()
    return client.get(f"{GAMES}/{game['id']}").get_json()  # type: ignore[no-any-return]


def test_a_whole_american_game_to_8500(client: FlaskClient) -> None:
    created = client.post(GAMES, json={"ruleset": "american", "players": 4, "sides": SIDES})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    assert game["target"] == 8500
    assert [s["minimum_meld"] for s in game["sides"]] == [125, 125]

    game = post_hand(client, game, HAND_1)
    assert [s["total"] for s in game["sides"]] == [3505, -2690]
    # docs/rulebook.md §6: 3,000–4,995 needs 155; below 3,000, negative too, 125.
    assert [s["minimum_meld"] for s in game["sides"]] == [155, 125]
    assert game["winner"] is None

    game = post_hand(client, game, HAND_2)
    assert [s["total"] for s in game["sides"]] == [6505, -2315]
    assert [s["minimum_meld"] for s in game["sides"]] == [180, 125]
    assert game["winner"] is None

    game = post_hand(client, game, HAND_3)
    assert [s["total"] for s in game["sides"]] == [11880, -3860]
    assert game["winner"] == 0
    assert game["finished"] is True

    for lang in ("de", "pl", "en"):
        sheet = client.get(f"/games/{game['id']}/sheet.pdf?lang={lang}")
        assert sheet.status_code == 200
        assert sheet.data.startswith(b"%PDF")


def test_an_american_hand_breaking_its_rules_changes_nothing(client: FlaskClient) -> None:
    game = client.post(GAMES, json={"ruleset": "american", "players": 4, "sides": SIDES}).get_json()
    bad = [{"melds": [["7", "7", "7", "2"]], "hands": [[], []]}, {"quick": {"meld_points": 0}}]
    response = client.post(
        f"{GAMES}/{game['id']}/hands",
        json={"version": game["version"], "teams": bad},
        headers={"Accept-Language": "de"},
    )
    assert response.status_code == 422
    problems = response.get_json()["problems"]
    assert [p["code"] for p in problems] == ["meld.sevens_wild"]
    assert "Siebener" in problems[0]["message"]
    after = client.get(f"{GAMES}/{game['id']}").get_json()
    assert after["hands"] == [] and [s["total"] for s in after["sides"]] == [0, 0]


def test_the_hand_form_offers_concealed_going_out_only_where_it_is_played(
    client: FlaskClient,
) -> None:
    """docs/rulebook.md §6 settles that Modern American Canasta has no concealed going out
    (``concealed_going_out`` false): its hand form does not offer it; German does (§4)."""
    for ruleset, offered in (("american", False), ("german", True)):
        game = client.post(GAMES, json={"ruleset": ruleset, "players": 4, "sides": SIDES})
        page = client.get(f"/games/{game.get_json()['id']}/hands/new?lang=en").text
        assert ('name="concealed"' in page) is offered, ruleset
    house = {"ruleset": "american", "players": 4, "sides": SIDES}
    house["options"] = {"concealed_going_out": True}  # a table that plays it: offered again
    game = client.post(GAMES, json=house)
    assert 'name="concealed"' in client.get(f"/games/{game.get_json()['id']}/hands/new").text


def test_a_canasta_of_aces_or_sevens_is_named_so(client: FlaskClient) -> None:
    """docs/rulebook.md §6: a natural canasta of aces (2,000) or of sevens (2,500) has its own
    bonus;
    its note under the meld names it so, not "natural canasta"; a canasta of kings stays
    natural (500)."""
    created = client.post(GAMES, json={"ruleset": "american", "players": 4, "sides": SIDES})
    game_id = created.get_json()["id"]
    data = hand_form(
        client,
        game_id,
        t0__mode="detail",
        t0__meld=["A A A A A A A", "7 7 7 7 7 7 7", "K K K K K K K", ""],
        t1__mode="quick",
        t1__meld_points="150",
    )
    expected = {
        "en": ("aces canasta: 140 + 2,000", "sevens canasta: 35 + 2,500", "natural canasta: 70"),
        "de": ("Canasta (Asse): 140 + 2.000", "Canasta (Siebener): 35 + 2.500", "(natürlich)"),
        "pl": ("kanasta asów: 140 + 2\u00a0000", "kanasta siódemek: 35 + 2\u00a0500", "czysta"),
    }
    for lang, (aces, sevens, kings) in expected.items():
        preview = client.post(f"/games/{game_id}/preview?lang={lang}", data=data, headers=HTMX)
        assert aces in slot(preview.text, "t0-m0"), slot(preview.text, "t0-m0")
        assert sevens in slot(preview.text, "t0-m1")
        assert kings in slot(preview.text, "t0-m2")


def test_the_statistics_leave_out_concealed_where_the_rules_have_none(
    client: FlaskClient,
) -> None:
    """docs/rulebook.md §6: Modern American knows no concealed going out, so a game's statistics do
    not count it; the German rules do."""
    teams = [
        {"quick": {"natural_canastas": 2, "meld_points": 300, "melded": True}, "went_out": True},
        {"quick": {"meld_points": 150, "hand_points": 40, "melded": True}},
    ]
    for ruleset, shown in (("american", False), ("german", True)):
        made = client.post(GAMES, json={"ruleset": ruleset, "players": 4, "sides": SIDES})
        game = made.get_json()
        saved = post_hand(client, game, teams)
        assert saved["version"] == 2
        page = client.get(f"/games/{game['id']}?lang=en").text
        assert "Went out" in page
        assert ("of them concealed" in page) is shown, ruleset
