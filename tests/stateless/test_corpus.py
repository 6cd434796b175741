"""The corpus the phone's engine is held to (tests/engine_corpus.py) covers what it must: every
ruleset and player count, each entry mode, house rules, every referee question, refusals, and
each language; and it is the same on every run."""

from __future__ import annotations

import json
from collections import Counter

from scorekeeper.stateless.questions import QUESTIONS, answer
from tests.engine_corpus import corpus


def test_the_corpus_is_seeded() -> None:
    assert json.dumps(corpus()) == json.dumps(corpus())


def test_the_corpus_covers_every_ruleset_mode_question_and_language() -> None:
    items = corpus()
    scores = [r for q, r, _ in items if q == "score"]
    assert len(scores) >= 300
    assert len(items) - len(scores) >= 100
    assert {q for q, _, _ in items} == set(QUESTIONS)
    tables = Counter((r.get("ruleset"), r.get("players")) for r in scores if isinstance(r, dict))
    for table in [
        ("german", 4),
        ("polish", 2),
        ("polish", 4),
        ("classic", 2),
        ("classic", 3),
        ("classic", 4),
        ("classic", 6),
        ("american", 2),
        ("american", 4),
    ]:
        assert tables[table] >= 10, table
    scores = [r for r in scores if isinstance(r, dict)]
    assert any(r.get("ruleset") == "three-is-fifty" for r in scores)
    sides = [s for r in scores if isinstance(r.get("teams"), list) for s in r["teams"]]
    for mode in ("melds", "quick", "total", "special_hand", "adjustments"):
        assert sum(isinstance(s, dict) and mode in s for s in sides) >= 5, mode
    assert sum(bool(r.get("options")) for r in scores) >= 50
    for lang in ("de", "pl", "en"):
        assert sum(1 for *_, asked in items if asked == lang) >= 200


def test_the_corpus_holds_answers_and_refusals() -> None:
    statuses: Counter[tuple[str, int]] = Counter()
    codes: set[str] = set()
    for question, request, lang in corpus():
        status, body = answer(question, json.dumps(request), lang)
        statuses[(question.split("/")[0], status)] += 1
        codes.update(p["code"] for p in body.get("problems", []))
    for key in [("score", 200), ("score", 400), ("score", 422), ("referee", 200), ("referee", 400)]:
        assert statuses[key] >= 8, key
    assert len(codes) >= 30
