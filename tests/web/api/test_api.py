"""The stateless JSON API of docs/api.md §3: "Score one hand" and "Referee questions".

The rule tables of ``tests/data`` are replayed over HTTP, so the web layer answers exactly what
the rules layer decides; then the error contract: 400 for unreadable requests, 422 for rule
problems, messages in the language asked for, never a 500.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from tests.rules.casefiles import (
    check_meld_answer,
    check_referee_answer,
    check_score_answer,
    ids,
    load,
    meld_answer_from_body,
    meld_request,
)
from tests.rules.test_casefiles import legal_meld
from tests.web.examples import CONTRACT_EXAMPLE

ROOT = Path(__file__).resolve().parents[3]
SCORE = "/api/v1/score"
MELD = "/api/v1/referee/meld"
INITIAL = "/api/v1/referee/initial-meld"
PILE = "/api/v1/referee/discard-pile"
GO_OUT = "/api/v1/referee/go-out"
ENDPOINTS = (SCORE, MELD, INITIAL, PILE, GO_OUT)
REFEREE = {"meld": MELD, "initial-meld": INITIAL, "discard-pile": PILE, "go-out": GO_OUT}

MELD_CASES = load("meld_cases.json")
SCORE_CASES = load("score_cases.json")
REFEREE_CASES = load("referee_cases.json")
MINIMUM_CASES = load("minimum_cases.json")

# One valid request per endpoint (docs/api.md §3 shapes).
VALID = {
    SCORE: CONTRACT_EXAMPLE,
    MELD: {"ruleset": "german", "cards": ["9", "9", "9", "2"], "going_out": False},
    INITIAL: {
        "ruleset": "german",
        "cumulative_score": 2000,
        "melds": [["K", "K", "K", "2"], ["4", "4", "4"]],
        "top_card": None,
    },
    PILE: {
        "ruleset": "german",
        "top_card": "K",
        "pile_has_wild": False,
        "red_three_upcard": False,
        "side_has_melded": True,
        "side_melds": [["Q", "Q", "Q"]],
        "hand": ["K", "K", "5"],
        "cumulative_score": 0,
        "going_out": False,
    },
    GO_OUT: {
        "ruleset": "german",
        "players": 4,
        "side_canastas": {"natural": 0, "mixed": 1, "wild": 0},
        "concealed": False,
        "player_melded_before": False,
        "melds": [["Q", "Q", "Q"]],
    },
}


def post(
    client: FlaskClient,
    url: str,
    body: Any = None,
    lang: str = "en",
    raw: bytes | str | None = None,
) -> tuple[int, Any]:
    headers = {"Accept-Language": lang}
    if raw is not None:
        response = client.post(url, data=raw, content_type="application/json", headers=headers)
    else:
        response = client.post(url, json=body, headers=headers)
    assert response.status_code != 500, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/json"
    return response.status_code, response.get_json()


def assert_problems(body: Any) -> list[str]:
    """The error body of docs/api.md §3: problems with a code, a message and where."""
    assert isinstance(body, dict) and isinstance(body.get("problems"), list), body
    assert body["problems"], body
    for problem in body["problems"]:
        assert isinstance(problem["code"], str) and problem["code"]
        assert isinstance(problem["message"], str) and problem["message"].strip()
        assert isinstance(problem["where"], str)
    return [p["code"] for p in body["problems"]]


# ---- the shapes of docs/api.md §3 ----------------------------------------------------------


def test_score_contract_example(client: FlaskClient) -> None:
    status, body = post(client, SCORE, CONTRACT_EXAMPLE)
    assert status == 200, body
    assert body["warnings"] == []
    first, second = body["teams"]
    assert first["score"] == 690
    assert {
        k: first["items"][k]
        for k in ("melded_cards", "canasta_bonus", "red_threes", "going_out", "in_hand")
    } == {
        "melded_cards": 205,
        "canasta_bonus": 300,
        "red_threes": 100,
        "going_out": 100,
        "in_hand": -15,
    }
    assert first["canastas"] == {"natural": 0, "mixed": 1, "wild": 0}
    assert second["score"] == 415
    assert {
        k: second["items"][k]
        for k in ("melded_cards", "canasta_bonus", "red_threes", "going_out", "in_hand")
    } == {
        "melded_cards": 155,
        "canasta_bonus": 300,
        "red_threes": 0,
        "going_out": 0,
        "in_hand": -40,
    }
    assert second["canastas"] == {"natural": 0, "mixed": 1, "wild": 0}


@pytest.mark.parametrize(
    ("url", "extra"),
    [
        (MELD, {"points": 80}),
        (INITIAL, {"required": 90, "counted": 95}),
        (PILE, {"melds": None}),
        (GO_OUT, {}),
    ],
)
def test_referee_answer_shape(client: FlaskClient, url: str, extra: dict[str, Any]) -> None:
    """200 {"allowed", "reasons": [{"code", "message"}], ...} plus the endpoint's extras."""
    status, body = post(client, url, VALID[url])
    assert status == 200, body
    assert body["allowed"] is True
    assert body["reasons"]
    for reason in body["reasons"]:
        assert isinstance(reason["code"], str) and reason["code"]
        assert isinstance(reason["message"], str) and reason["message"].strip()
    for key, value in extra.items():
        assert key in body
        if value is not None:
            assert body[key] == value
    if url == PILE:
        assert isinstance(body["melds"], list) and body["melds"]
        assert all(isinstance(c, str) for meld in body["melds"] for c in meld)


def test_referee_refusal_has_reasons(client: FlaskClient) -> None:
    status, body = post(client, MELD, {"ruleset": "german", "cards": ["K", "K"]})
    assert status == 200
    assert body["allowed"] is False
    assert [r["code"] for r in body["reasons"]] == ["meld.too_small"]


# ---- the rule tables over HTTP -------------------------------------------------------------


@pytest.mark.parametrize("case", MELD_CASES, ids=ids(MELD_CASES))
def test_meld_cases_over_http(client: FlaskClient, case: dict[str, Any]) -> None:
    status, body = post(client, MELD, meld_request(case))
    if "referee" in case:  # a meld the decks cannot make: the question is refused
        assert status == case["referee"]["status"], body
        assert [p["code"] for p in body["problems"]] == case["referee"]["problems"]
        return
    assert status == 200, body
    check_meld_answer(case, meld_answer_from_body(body))


@pytest.mark.parametrize("case", SCORE_CASES, ids=ids(SCORE_CASES))
def test_score_cases_over_http(client: FlaskClient, case: dict[str, Any]) -> None:
    status, body = post(client, SCORE, case["request"])
    check_score_answer(case, status, body)
    if status != 200:
        assert_problems(body)


@pytest.mark.parametrize("case", REFEREE_CASES, ids=ids(REFEREE_CASES))
def test_referee_cases_over_http(client: FlaskClient, case: dict[str, Any]) -> None:
    status, body = post(client, REFEREE[case["endpoint"]], case["request"])
    check_referee_answer(case, status, body, legal_meld)


@pytest.mark.parametrize("case", MINIMUM_CASES, ids=ids(MINIMUM_CASES))
def test_minimum_over_http(client: FlaskClient, case: dict[str, Any]) -> None:
    status, body = post(
        client,
        INITIAL,
        {
            "ruleset": case["ruleset"],
            "players": case["players"],
            "cumulative_score": case["cumulative_score"],
            "melds": [["4", "4", "4"]],
        },
    )
    assert status == 200, body
    assert body["required"] == case["required"]
    assert body["counted"] == 15
    assert body["allowed"] is (case["required"] <= 15)


# ---- languages -----------------------------------------------------------------------------


def _translated_templates(lang: str) -> list[re.Pattern[str]]:
    """English templates the catalogue of ``lang`` really translates (empty if none yet)."""
    path = ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return []
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    patterns = []
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        ids_ = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or set(strings) <= set(ids_):
            continue
        for msgid in ids_:
            parts = re.split(r"%\(\w+\)[sd]", msgid)
            patterns.append(re.compile(".+?".join(re.escape(p) for p in parts) + r"\Z"))
    return patterns


# Requests whose answers carry problems or reasons of many kinds.
LANGUAGE_REQUESTS = [
    (MELD, {"ruleset": "german", "cards": ["K", "K"]}),
    (MELD, {"ruleset": "german", "cards": ["8", "8", "2", "2", "X"]}),
    (MELD, {"ruleset": "polish", "cards": ["8", "8", "2", "2", "X"]}),
    (MELD, {"ruleset": "classic", "cards": ["3s", "3s", "3c"]}),
    (MELD, {"ruleset": "classic", "cards": ["K", "K", "K", "K", "K", "K", "K"]}),
    (INITIAL, VALID[INITIAL]),
    (INITIAL, {"ruleset": "german", "cumulative_score": 2000, "melds": [["K", "K", "K", "2"]]}),
    (PILE, VALID[PILE]),
    (PILE, {"ruleset": "german", "top_card": "2", "hand": ["2", "2"]}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": ["K"], "pile_has_wild": True}),
    (GO_OUT, VALID[GO_OUT]),
    (GO_OUT, {"ruleset": "german", "side_canastas": {"natural": 0}}),
    (
        SCORE,
        {
            "ruleset": "german",
            "players": 4,
            "teams": [
                {"melds": [["K", "K", "K"], ["K", "K", "2"]], "went_out": True, "red_threes": 5},
                {"melds": [["Q", "Q"]], "went_out": True},
            ],
        },
    ),
    (SCORE, {"ruleset": "bridge", "teams": []}),
    (SCORE, {"ruleset": "german", "players": "four", "teams": []}),
]


def _messages(body: dict[str, Any]) -> list[tuple[str, str]]:
    items = body.get("problems") or body.get("reasons") or []
    return [(p["code"], p["message"]) for p in items]


@pytest.mark.parametrize(
    ("url", "request_body"),
    LANGUAGE_REQUESTS,
    ids=[f"{u.rsplit('/', 1)[1]}-{i}" for i, (u, _) in enumerate(LANGUAGE_REQUESTS)],
)
def test_messages_in_every_language(
    client: FlaskClient, url: str, request_body: dict[str, Any]
) -> None:
    """Accept-Language picks de, pl or en: same codes, a non-empty message for each; where the
    catalogue already translates the English sentence, the message differs from English."""
    answers = {}
    for lang in ("en", "de", "pl"):
        status, body = post(client, url, request_body, lang=lang)
        messages = _messages(body)
        assert messages, body
        assert all(isinstance(m, str) and m.strip() for _, m in messages), messages
        answers[lang] = (status, messages)
    english_status, english = answers["en"]
    for lang in ("de", "pl"):
        status, messages = answers[lang]
        assert status == english_status
        assert [c for c, _ in messages] == [c for c, _ in english]
        templates = _translated_templates(lang)
        for (code, text), (_, english_text) in zip(messages, english, strict=True):
            if any(t.match(english_text) for t in templates):
                assert text != english_text, f"{lang} {code}: not translated: {text}"


def test_accept_language_with_quality_values(client: FlaskClient) -> None:
    status, body = post(
        client, MELD, {"ruleset": "german", "cards": "KK"}, lang="fr;q=1.0, pl;q=0.8, de;q=0.5"
    )
    assert status == 200
    assert body["reasons"][0]["message"].strip()


# ---- unreadable requests: 400 --------------------------------------------------------------

MALFORMED = [
    b"",
    b"{",
    b"nope",
    b'{"ruleset": "german",}',
    b"\xff\xfe\x00",
    b"[1,]",
    b'{"ruleset": "german"',
    b"{'ruleset': 'german'}",
    b"\x00" * 10,
]


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("raw", MALFORMED, ids=[repr(m)[:20] for m in MALFORMED])
def test_malformed_json_is_400(client: FlaskClient, url: str, raw: bytes) -> None:
    status, body = post(client, url, raw=raw)
    assert status == 400
    assert assert_problems(body) == ["request.invalid_json"]


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize(
    "raw", [b"null", b"[]", b"5", b'"german"', b"true", b"NaN", b"[" * 50_000, b"1" * 5_000]
)
def test_json_that_is_no_object_is_400(client: FlaskClient, url: str, raw: bytes) -> None:
    status, body = post(client, url, raw=raw)
    assert status == 400
    assert_problems(body)


# Wrong types: docs/api.md §3 allows 400 (unreadable) or 422 (rule problems).
WRONG_TYPES = [
    (SCORE, {"ruleset": "german", "players": "four", "teams": []}),
    (SCORE, {"ruleset": "german", "players": 4.0, "teams": []}),
    (SCORE, {"ruleset": "german", "players": True, "teams": []}),
    (SCORE, {"ruleset": "german", "teams": "two"}),
    (SCORE, {"ruleset": "german", "teams": [5, "x"]}),
    (SCORE, {"ruleset": "german", "teams": [{"melds": "KKK"}, {"melds": [[1.5]]}]}),
    (SCORE, {"ruleset": "german", "teams": [{"melds": [["K", "K", "K"]]}, {"hands": 3}]}),
    (SCORE, {"ruleset": "german", "teams": [{"red_threes": "1"}, {"red_threes": -1}]}),
    (SCORE, {"ruleset": "german", "teams": [{"red_threes": 1.5}, {"went_out": "yes"}]}),
    (SCORE, {"ruleset": "german", "teams": [{"concealed": 1}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"quick": []}, {"quick": {"meld_points": "a"}}]}),
    (SCORE, {"ruleset": "german", "teams": [{"quick": {"melded": "no"}}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"quick": {"hand_points": -5}}, {}]}),
    (SCORE, {"ruleset": "german", "options": [], "teams": [{}, {}]}),
    (SCORE, {"ruleset": "german", "options": {"two_value": "x"}, "teams": [{}, {}]}),
    (SCORE, {"ruleset": "german", "options": {"two_value": -1}, "teams": [{}, {}]}),
    (SCORE, {"ruleset": ["german"], "teams": [{}, {}]}),
    (MELD, {"ruleset": "german", "cards": 5}),
    (MELD, {"ruleset": "german", "cards": {"K": 3}}),
    (MELD, {"ruleset": "german", "cards": [["K"], ["K"]]}),
    (MELD, {"ruleset": "german", "cards": ["K", "K", "K"], "going_out": "no"}),
    (MELD, {"ruleset": "german"}),
    (INITIAL, {"ruleset": "german", "cumulative_score": "2000", "melds": [["K", "K", "K"]]}),
    (INITIAL, {"ruleset": "german", "cumulative_score": 1000.5, "melds": [["K", "K", "K"]]}),
    (INITIAL, {"ruleset": "german", "melds": "KKK"}),
    (INITIAL, {"ruleset": "german", "melds": [["K", "K", "K"]], "top_card": ["K"]}),
    (INITIAL, {"ruleset": "german", "melds": [["K", "K", "K"]], "top_card": "KK"}),
    (INITIAL, {"ruleset": "german", "melds": [["K", "K", "K"]], "top_card": True}),
    (PILE, {"ruleset": "german"}),
    (PILE, {"ruleset": "german", "top_card": 7.5, "hand": []}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": "KK", "pile_has_wild": "true"}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": ["K", "K"], "side_melds": "QQQ"}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": ["K", "K"], "side_has_melded": 0}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": ["K", "Z"]}),
    (GO_OUT, {"ruleset": "german", "side_canastas": 1}),
    (GO_OUT, {"ruleset": "german", "side_canastas": {"natural": "1"}}),
    (GO_OUT, {"ruleset": "german", "side_canastas": {"natural": -1}}),
    (GO_OUT, {"ruleset": "german", "side_canastas": {"gold": 1}}),
    (GO_OUT, {"ruleset": "german", "concealed": "yes"}),
    (GO_OUT, {"ruleset": "german", "players": [4]}),
    (GO_OUT, {"ruleset": "german", "melds": [["K", "K", "K"], 7]}),
]


@pytest.mark.parametrize(
    ("url", "request_body"),
    WRONG_TYPES,
    ids=[f"{u.rsplit('/', 1)[1]}-{i}" for i, (u, _) in enumerate(WRONG_TYPES)],
)
def test_wrong_types_are_400_or_422(
    client: FlaskClient, url: str, request_body: dict[str, Any]
) -> None:
    status, body = post(client, url, request_body)
    assert status in (400, 422), body
    assert_problems(body)


HUGE = [
    (MELD, {"ruleset": "german", "cards": ["K"] * 100_000}),
    (MELD, {"ruleset": "german", "cards": "K" * 200_000}),
    (MELD, {"ruleset": "german", "cards": ["K" * 100_000]}),
    (INITIAL, {"ruleset": "german", "melds": [["4", "4", "4"]] * 20_000}),
    (PILE, {"ruleset": "german", "top_card": "K", "hand": ["K"] * 50_000}),
    (
        PILE,
        {
            "ruleset": "german",
            "top_card": "K",
            "hand": ["K", "K"],
            "side_melds": [["Q", "Q", "Q"]] * 10_000,
        },
    ),
    (GO_OUT, {"ruleset": "german", "side_canastas": {"natural": 10**12}}),
    (GO_OUT, {"ruleset": "german", "melds": [["K", "K", "K"]] * 20_000}),
    (SCORE, {"ruleset": "german", "teams": [{"melds": []}] * 10_000}),
    (SCORE, {"ruleset": "german", "teams": [{"melds": [["K", "K", "K"]] * 10_000}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"hands": [["K"]] * 10_000}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"hands": [["4"] * 50_000]}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"red_threes": 10**30}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"red_threes": [1] * 1_000}, {}]}),
    (SCORE, {"ruleset": "german", "teams": [{"quick": {"meld_points": 10**40}}, {}]}),
    (SCORE, {"ruleset": "german", "players": 10**40, "teams": [{}, {}]}),
    (INITIAL, {"ruleset": "german", "cumulative_score": -(10**40), "melds": [["K", "K", "K"]]}),
]


@pytest.mark.parametrize(
    ("url", "request_body"),
    HUGE,
    ids=[f"{u.rsplit('/', 1)[1]}-{i}" for i, (u, _) in enumerate(HUGE)],
)
def test_huge_input_is_400_or_422(
    client: FlaskClient, url: str, request_body: dict[str, Any]
) -> None:
    status, body = post(client, url, request_body)
    assert status in (400, 422), body
    assert_problems(body)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_body_over_the_size_limit_is_400(client: FlaskClient, url: str) -> None:
    raw = b'{"ruleset": "german", "cards": [' + b'"K",' * 400_000 + b'"K"]}'
    status, body = post(client, url, raw=raw)
    assert status == 400
    assert_problems(body)


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("ruleset", ["bridge", "", "GERMAN", "american "])
def test_unknown_ruleset_is_422(client: FlaskClient, url: str, ruleset: Any) -> None:
    request_body = dict(VALID[url], ruleset=ruleset)
    status, body = post(client, url, request_body)
    assert status == 422, body
    assert "ruleset.unknown" in assert_problems(body)


@pytest.mark.parametrize("url", [*ENDPOINTS, "/api/v1/referee/options"])
@pytest.mark.parametrize("ruleset", ["absent", None])
def test_missing_ruleset_is_400_like_any_missing_field(
    client: FlaskClient, url: str, ruleset: Any
) -> None:
    """A missing (or null) ruleset is ``request.missing`` (400), named in words."""
    request_body = {k: v for k, v in VALID.get(url, {"hand": "K"}).items() if k != "ruleset"}
    if ruleset is None:
        request_body["ruleset"] = None
    status, body = post(client, url, request_body)
    assert status == 400, body
    problem = next(p for p in body["problems"] if p["where"] == "ruleset")
    assert problem["code"] == "request.missing"
    assert "None" not in problem["message"] and "ruleset" in problem["message"]


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("ruleset", [7, ["german"], True])
def test_a_ruleset_that_is_no_text_is_400(client: FlaskClient, url: str, ruleset: Any) -> None:
    status, body = post(client, url, dict(VALID[url], ruleset=ruleset))
    assert status == 400, body
    assert [p["code"] for p in body["problems"]] == ["request.type"]


@pytest.mark.parametrize(
    ("request_body", "shown"),
    [
        ({"ruleset": "german", "cards": [["9"], "9", "9"]}, '["9"]'),
        ({"ruleset": "german", "cards": [None, "9", "9"]}, "null"),
        ({"ruleset": "german", "cards": [True, "9", "9"]}, "true"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_unknown_cards_are_named_as_sent(
    client: FlaskClient, request_body: dict[str, Any], shown: str, lang: str
) -> None:
    """A card the reader sent is named in JSON, never as Python shows it."""
    response = client.post(MELD, json=request_body, headers={"Accept-Language": lang})
    problem = response.get_json()["problems"][0]
    assert problem["code"] == "card.unknown"
    assert f"\u201c{shown}\u201d" in problem["message"] or f"\u201e{shown}" in problem["message"]
    assert "None" not in problem["message"] and "['" not in problem["message"]


@pytest.mark.parametrize("options", [[1], "x", 5])
def test_house_rules_that_are_no_object_are_400(client: FlaskClient, options: Any) -> None:
    """``options: [1]`` is the wrong type, not a house rule named \u201c\u201d."""
    status, body = post(client, MELD, dict(VALID[MELD], options=options))
    assert status == 400, body
    assert body["problems"][0]["code"] == "request.type"
    assert body["problems"][0]["where"] == "options"
    assert "\u201c\u201d" not in body["problems"][0]["message"]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_players_not_in_the_ruleset_is_422(client: FlaskClient, url: str) -> None:
    status, body = post(client, url, dict(VALID[url], players=5))
    assert status == 422, body
    assert_problems(body)


@pytest.mark.parametrize("url", ENDPOINTS)
@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_other_methods_answer_json_not_500(client: FlaskClient, url: str, method: str) -> None:
    response = client.open(url, method=method)
    assert response.status_code == 405
    assert response.mimetype == "application/json"
    assert_problems(response.get_json())


@pytest.mark.parametrize("url", ENDPOINTS)
def test_valid_json_without_json_content_type(client: FlaskClient, url: str) -> None:
    import json

    # The body is read as JSON whatever the Content-Type says (a phone's plain fetch works).
    response = client.post(url, data=json.dumps(VALID[url]), content_type="text/plain")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "problems" not in response.get_json()


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    response = client.post("/api/v1/referee/nothing", json={})
    assert response.status_code == 404
    assert_problems(response.get_json())


@pytest.mark.parametrize("url", ENDPOINTS)
def test_every_valid_example_answers_200(client: FlaskClient, url: str) -> None:
    status, body = post(client, url, VALID[url])
    assert status == 200, body
    assert "problems" not in body or body["problems"] == []


OPTIONS = "/api/v1/referee/options"


@pytest.mark.parametrize(
    "request_body",
    [
        # seed 002 'meld all your cards except one ... going out illegally'; docs/rulebook.md §5
        {
            "ruleset": "classic",
            "players": 4,
            "hand": "Q Q Q 5",
            "side_melds": [["K"] * 6],
            "drawn": True,
        },
        # seed 000 'noch mindestens eine Karte auf der Hand halten'
        {
            "ruleset": "german",
            "players": 4,
            "hand": "K 5",
            "side_melds": [["K"] * 3],
            "drawn": True,
        },
        {"ruleset": "german", "players": 4, "hand": "K K K Q Q Q 5", "drawn": True},
    ],
)
@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_what_may_i_do_never_leaves_one_card(
    client: FlaskClient, request_body: dict[str, Any], lang: str
) -> None:
    """No move, and a note saying why, in the reader's language."""
    status, body = post(client, OPTIONS, request_body, lang)
    assert status == 200, body
    assert body["moves"] == []
    note = next(n for n in body["notes"] if n["code"] == "meld.one_card_left")
    assert note["message"] != "meld.one_card_left"


def test_what_may_i_do_offers_mixed_aces_for_the_american_initial_meld(
    client: FlaskClient,
) -> None:
    """docs/rulebook.md §6: A A A X 2 counts 130 of the 125, as referee/initial-meld says."""
    request_body = {
        "ruleset": "american",
        "players": 4,
        "hand": "A A A X 2 5 6",
        "side_has_melded": False,
        "cumulative_score": 0,
        "drawn": True,
    }
    status, body = post(client, OPTIONS, request_body)
    assert status == 200, body
    move = body["moves"][0]
    assert (move["kind"], move["points"], move["melds"]) == (
        "initial_meld",
        130,
        [["A", "A", "A", "X", "2"]],
    )
    status, body = post(
        client, INITIAL, {"ruleset": "american", "cumulative_score": 0, "melds": move["melds"]}
    )
    assert body["allowed"] is True and body["counted"] == 130


def test_the_polish_pile_answer_quotes_the_open_pile_rule(client: FlaskClient) -> None:
    """Seed 003, docs/rulebook.md §5 (a Polish pile is not frozen for a side that has not
    melded): the reason rests on the open-pile rule, not the frozen-pile rule."""
    request_body = {
        "ruleset": "polish",
        "players": 4,
        "top_card": "9",
        "pile_has_wild": False,
        "side_has_melded": False,
        "hand": "9 2 A A A",
    }
    status, body = post(client, PILE, request_body, "pl")
    assert status == 200 and body["allowed"] is True, body
    reason = body["reasons"][0]
    assert reason["params"]["how"] == "with_wild"
    assert reason["rule_item"] == "discard-pile.open"


def test_what_may_i_do_echoes_cards_requests_read(client: FlaskClient) -> None:
    """Wild cards added are listed; a black three is echoed as docs/api.md §2
    writes it with a suit letter, and the answer reads back."""
    status, body = post(
        client,
        OPTIONS,
        {"ruleset": "german", "hand": "2 X 5 6 9", "side_melds": [["Q"] * 3], "drawn": True},
    )
    add = next(m for m in body["moves"] if m["kind"] == "add")
    assert add["cards"] == ["2", "X"] and add["wilds"] == 2
    status, body = post(
        client,
        OPTIONS,
        {
            "ruleset": "polish",
            "hand": "Q Q Q 3c",
            "side_melds": [["K"] * 7],
            "drawn": True,
        },
    )
    out = next(m for m in body["moves"] if m["kind"] == "go_out")
    assert out["discard"] == "3s"
    status, again = post(client, MELD, {"ruleset": "polish", "cards": [out["discard"]] * 3})
    assert status == 200, again


def test_red_threes_per_player_need_the_hands(client: FlaskClient) -> None:
    """``hands: []`` with ``red_threes: [1, 1]`` on a German side is a problem."""
    request_body = {
        "ruleset": "german",
        "players": 4,
        "teams": [
            {"melds": [["K", "K", "K"]], "hands": [], "red_threes": [1, 1]},
            {"quick": {"melded": False}},
        ],
    }
    status, body = post(client, SCORE, request_body, "de")
    assert status == 422, body
    assert [p["code"] for p in body["problems"]] == ["red_threes.players"]
    assert body["problems"][0]["where"] == "teams[0].red_threes"


def test_a_whole_number_written_with_a_point_is_that_integer(client: FlaskClient) -> None:
    """JSON Schema counts 1e3 an integer, as the OpenAPI description is read (docs/api.md §3):
    the reader reads it as 1000, the same answer as for 1000."""
    melds = {"ruleset": "german", "melds": [["K", "K", "K"]]}
    as_float = post(client, INITIAL, {**melds, "cumulative_score": 1e3, "players": 4.0})
    as_int = post(client, INITIAL, {**melds, "cumulative_score": 1000, "players": 4})
    assert as_float == as_int
    assert as_int[0] == 200 and as_int[1]["required"] > 0
