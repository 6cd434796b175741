"""The table disputes over HTTP (POST /api/v1/referee/<kind>), in English, German and Polish:
the same case file as the engine (tests/data/dispute_cases.json), each reason worded in the
reader's language with the rule it rests on, and the rule quoted from the rules page."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import disputes
from tests.rules.casefiles import ids, load
from tests.rules.test_disputes import check_options, check_ruling

CASES = load("dispute_cases.json")
LANGS = ("en", "de", "pl")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_dispute_cases_over_http(client: FlaskClient, case: dict[str, Any], lang: str) -> None:
    r = client.post(
        f"/api/v1/referee/{case['endpoint']}",
        json=case["request"],
        headers={"Accept-Language": lang},
    )
    body = r.get_json()
    if case["endpoint"] == "options":
        assert r.status_code == 200, body
        check_options(case, body)
        notes = body["notes"]
        assert all(n["message"] and n["message"] != n["code"] for n in notes), notes
        return
    check_ruling(case, r.status_code, body)
    if r.status_code != 200:
        return
    for reason in body["reasons"]:
        # Every reason is worded (never its bare code) and names its rule.
        assert reason["message"] and reason["message"] != reason["code"], reason
        assert reason["rule"] and reason["rule_item"].startswith(reason["rule"] + "."), reason
    assert body["quotes"], body
    for quote in body["quotes"]:
        assert quote["text"] and quote["url"].startswith("/rules/"), quote


# One ruling in each language, its words checked: the reason and the quoted rule.
WORDS = {
    ("partner-permission", "de"): ("Partner", "bindend"),
    ("partner-permission", "pl"): ("partner", "wiąże"),
    ("partner-permission", "en"): ("partner said no", "binds"),
    ("end-of-stock", "de"): ("rote Drei", "sofort"),
    ("end-of-stock", "pl"): ("czerwona trójka", "natychmiast"),
    ("end-of-stock", "en"): ("red three", "at once"),
}
REQUESTS = {
    "partner-permission": {"ruleset": "german", "answer": "no"},
    "end-of-stock": {"ruleset": "german", "stock": 1, "drawn": ["3h"]},
}


@pytest.mark.parametrize(("kind", "lang"), sorted(WORDS))
def test_rulings_are_in_the_readers_language(client: FlaskClient, kind: str, lang: str) -> None:
    r = client.post(
        f"/api/v1/referee/{kind}", json=REQUESTS[kind], headers={"Accept-Language": lang}
    )
    body = r.get_json()
    reason, rule = WORDS[(kind, lang)]
    assert reason.lower() in body["reasons"][0]["message"].lower(), body["reasons"][0]
    assert rule.lower() in body["quotes"][0]["text"].lower(), body["quotes"][0]


@pytest.mark.parametrize("kind", disputes.KINDS)
def test_bad_requests_are_refused_not_crashed(client: FlaskClient, kind: str) -> None:
    for body in ([], "x", {}, {"ruleset": 5}, {"ruleset": "nope"}):
        r = client.post(f"/api/v1/referee/{kind}", json=body)
        assert r.status_code in (400, 422), (kind, body, r.get_json())
        assert r.get_json()["problems"], r.get_json()
    r = client.post(f"/api/v1/referee/{kind}", data=b"{not json", content_type="application/json")
    assert r.status_code == 400
