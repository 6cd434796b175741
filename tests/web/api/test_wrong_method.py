"""An address of the API asked with a method it does not answer to: 405 with the problem
``request.method`` (docs/api.md, problem codes) and the ``Allow`` header naming the methods it
does answer to (RFC 9110 §15.5.6), found by schemathesis; no stray parameters in the problem."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/api/v1/score", {"POST"}),  # the stateless blueprint's own handler
        ("TRACE", "/api/v1/referee/meld", {"POST"}),
        ("TRACE", "/api/v1/games/abcdefghijklmnopqrstuv", {"GET"}),
        ("PATCH", "/api/v1/tables/abcdefghijklmnopqrstuv", {"GET", "DELETE"}),
    ],
)
def test_a_wrong_method_says_which_are_right(
    client: FlaskClient, method: str, path: str, allowed: set[str]
) -> None:
    answer = client.open(path, method=method)
    assert answer.status_code == 405
    assert answer.json is not None
    (problem,) = answer.json["problems"]
    assert problem["code"] == "request.method"
    assert "params" not in problem or "limit" not in problem["params"]
    given = {m.strip() for m in answer.headers.get("Allow", "").split(",") if m.strip()}
    assert allowed <= given and method not in given


@pytest.mark.parametrize("players", ["0", "7", "-62", "abc", "5"])
def test_a_ruleset_for_a_table_it_is_not_played_at_is_refused(
    client: FlaskClient, players: str
) -> None:
    """German Canasta is played by four (docs/rulebook.md, its table of rulesets): a deck for
    any other table is refused in words, not sized silently (found by schemathesis:
    ``?players=0`` gave 200)."""
    answer = client.get(f"/api/v1/rulesets/german?players={players}")
    assert answer.status_code == 422
    assert answer.json is not None
    (problem,) = answer.json["problems"]
    assert problem["code"] == "players.not_allowed" and problem["params"]["allowed"] == [4]
    assert client.get("/api/v1/rulesets/german?players=4").json["default_players"] == 4  # type: ignore[index]
    assert client.get("/api/v1/rulesets/classic?players=2").status_code == 200
