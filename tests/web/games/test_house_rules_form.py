"""The new-game form's house rules: only the chosen ruleset's parameters, in groups, folded
away; what is not offered stays as the ruleset has it."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import OPTION_SPECS, PRESETS
from scorekeeper.web.games.new_game import OPTION_GROUPS, shown_options
from tests.web.pagehelpers import form_of


def fields(page: str) -> set[str]:
    return set(re.findall(r'name="opt-([a-z_]+?)(?:-[kv])?"', page))


def test_every_parameter_has_one_group() -> None:
    grouped = [key for _group, keys in OPTION_GROUPS for key in keys]
    assert sorted(grouped) == sorted(k for k in OPTION_SPECS if k != "target")


def test_a_polish_game_is_not_offered_american_rules(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=polish").text
    offered = fields(page)
    # docs/rulebook.md §6: special hands and unfinished sevens are American only
    assert {"special_garbage_value", "unfinished_sevens_penalty", "threes_table"}.isdisjoint(
        offered
    )
    assert {"two_value", "wild_canasta_bonus", "black_three_pile_when_going_out"} <= offered
    american = fields(client.get("/games/new?ruleset=american").text)
    assert {"special_garbage_value", "unfinished_sevens_penalty", "threes_table"} <= american
    # American scores threes by its table and knows no concealed going out (docs/rulebook.md §6)
    assert {"red_three_special", "concealed_going_out_bonus"}.isdisjoint(american)
    assert "concealed_going_out" in american
    assert offered == shown_options(PRESETS["polish"])


def test_groups_are_folded_and_no_standard_line_is_empty(client: FlaskClient) -> None:
    for ruleset in PRESETS:
        page = client.get(f"/games/new?ruleset={ruleset}").text
        assert "Standard: </p>" not in page and "Standard:</p>" not in page
        assert '<details class="more house">' in page  # folded
        assert page.count('<details class="more opt-group">') >= 6  # every group folded too
    assert "Card values" in page and "Penalties and special hands" in page


def test_a_changed_rule_opens_its_group_and_hidden_rules_stay(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=polish").text
    data = form_of(page, "new-game", opt__two_value="zwei")
    data["action"] = "create"
    response = client.post("/games/new", data=data)
    assert response.status_code == 422  # no number: the group opens on its note
    assert '<details class="more opt-group" open>' in response.text
    data.setlist("opt-two_value", ["30"])
    created = client.post("/games/new", data=data)
    assert created.status_code == 303
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["options"] == {"two_value": 30}
