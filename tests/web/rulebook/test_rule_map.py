"""The rule map (scorekeeper/web/rulebook/rule_map.json) against the seeds it maps.

The seeds are read from ``shared/seeds`` beside the repository (the CI clone has ``shared/``
next to it; a worktree finds it further up). Every paragraph (one line of a seed, counted from
1) that states a rule must have an entry; every entry must point to something real: an engine
function that imports, a test that exists, a referee question the app answers (or one named as
still being built, while the paragraph has another home), a rules-page anchor that is on the
page of its ruleset.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.rulebook.rule_map import (
    MAP_PATH,
    Paragraph,
    RuleMap,
    live_referee,
    read_map,
    referee_kinds,
    rule_map,
)
from scorekeeper.web.rulebook.sources import none_label

REPO = Path(__file__).resolve().parents[3]


def seeds_dir() -> Path:
    """``shared/seeds`` beside the repository or a folder above it."""
    for folder in (REPO, *REPO.parents):
        candidate = folder / "shared" / "seeds"
        if candidate.is_dir():
            return candidate
    pytest.fail(f"no shared/seeds beside {REPO} or above it: the rule map cannot be checked")


@cache
def seed_lines() -> dict[str, list[str]]:
    return {
        path.name: path.read_text(encoding="utf-8").splitlines()
        for path in sorted(seeds_dir().glob("*.txt"))
    }


def test_every_seed_is_in_the_map() -> None:
    assert set(seed_lines()) == set(rule_map().seeds)


def test_every_paragraph_has_exactly_one_entry_with_its_own_words() -> None:
    entries: dict[tuple[str, int], Paragraph] = {}
    for p in rule_map().paragraphs:
        assert (p.seed, p.line) not in entries, f"two entries for {p.cite}"
        entries[(p.seed, p.line)] = p
    for seed, lines in seed_lines().items():
        for number, text in enumerate(lines, 1):
            entry = entries.pop((seed, number), None)
            if not text.strip():
                assert entry is None, f"{seed}:{number} is empty but has an entry"
                continue
            assert entry is not None, f"{seed}:{number} has no entry in the rule map: {text[:80]}"
            assert entry.text == text, f"{entry.cite}: the map's words are not the seed's"
    assert not entries, f"entries for lines the seeds do not have: {sorted(entries)[:5]}"


def test_a_paragraph_states_a_rule_or_says_why_not() -> None:
    for p in rule_map().paragraphs:
        assert (p.topic is None) == bool(p.none), p.cite
        if p.none:
            kind = p.none.split(":", 1)[0]
            # each reason has a kind the pages can name in the reader's language
            assert ":" in p.none and none_label(p.none) != "States no rule", (p.cite, kind)


def test_most_paragraphs_state_rules() -> None:
    rules = rule_map().rules()
    # the German, Polish and 3 ist 50 seeds are rule texts: most of their lines are rules
    for seed in ("000", "001", "003"):
        of_seed = [p for p in rule_map().paragraphs if p.seed.startswith(seed)]
        stated = [p for p in rules if p.seed.startswith(seed)]
        assert len(stated) * 2 > len(of_seed), seed


def test_the_disputes_of_the_audit_are_mapped() -> None:
    """The paragraphs the issue names: "Darf ich ausmachen?", the last card of the stock, the
    black three for one turn, the Polish red three from the pile, cutthroat, two players, and
    the deal of 3 ist 50."""
    expected = {
        ("000", 125): "ask-partner",
        ("002", 250): "ask-partner",
        ("000", 134): "last-red-three",
        ("002", 258): "end-of-stock",
        ("000", 133): "end-of-stock",
        ("003", 114): "end-of-stock",
        ("000", 97): "black-three-block",
        ("003", 104): "black-three-block",
        ("003", 80): "red-three-from-pile",
        ("002", 137): "cutthroat",
        ("002", 139): "cutthroat",
        ("002", 129): "two-player",
        ("002", 133): "two-player-red-three",
        ("001", 24): "f-redeal",
        ("001", 26): "f-redeal",
        ("001", 65): "f-redeal",
        ("001", 30): "f-turn",
    }
    for (seed, line), topic in expected.items():
        p = rule_map().find(seed, line)
        assert p is not None and topic in [t.key for t in p.topics], (seed, line)


def test_every_topic_is_used_and_summarised_in_three_languages() -> None:
    used = {t.key for p in rule_map().rules() for t in p.topics}
    assert used == set(rule_map().topics)
    for topic in rule_map().topics.values():
        assert set(topic.summary) == {"en", "de", "pl"}, topic.key
        texts = list(topic.summary.values())
        assert all(len(text) > 15 for text in texts), topic.key
        assert len(set(texts)) == 3, f"{topic.key}: a summary is not translated"


# ---- the pointers ----------------------------------------------------------------------------


def test_engine_functions_exist() -> None:
    for topic in rule_map().topics.values():
        if topic.engine is None:
            assert topic.test is None, topic.key
            continue
        module_name, _, qualname = topic.engine.partition(":")
        assert module_name.startswith("scorekeeper.rules."), topic.engine
        target: object = importlib.import_module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part, None)
            assert target is not None, f"{topic.key}: {topic.engine} does not exist"
        assert callable(target), topic.engine
        assert topic.test, f"{topic.key}: an engine function without its test"


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The test functions a file defines (module level and in classes), read without running."""
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test_"
        ):
            names.add(node.name)
    return frozenset(names)


def test_tests_exist() -> None:
    for topic in rule_map().topics.values():
        if topic.test is None:
            continue
        path, _, name = topic.test.partition("::")
        assert path.startswith("tests/") and (REPO / path).is_file(), topic.test
        assert name in defined_tests(path), f"{topic.key}: {topic.test} is not a test"


def test_referee_questions_exist_or_are_being_built(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        kinds = referee_kinds()
    assert {"meld", "initial-meld", "discard-pile", "go-out", "options", "three-is-fifty"} <= kinds
    pending = rule_map().pending_referee
    for topic in rule_map().topics.values():
        for kind in topic.referee:
            assert kind in kinds or kind in pending, f"{topic.key}: no referee question {kind}"
    for kind in kinds:
        # the registry is the app's own routes: each one answers (a problem, not a 404)
        assert client.post(f"/api/v1/referee/{kind}", json={}).status_code in (200, 400, 422)


def test_a_question_still_being_built_is_used_once_it_is_there(app: Flask) -> None:
    p = rule_map().find("000", 125)
    assert p is not None
    assert p.referee[0] == "partner-permission"
    assert live_referee(p, frozenset({"go-out"})) is None
    assert live_referee(p, frozenset({"partner-permission"})) == "partner-permission"
    black = rule_map().find("000", 97)
    assert black is not None
    assert live_referee(black, frozenset({"discard-pile"})) == "discard-pile"
    assert live_referee(black, frozenset({"discard-pile", "black-three-block"})) == (
        "black-three-block"
    )


def test_rules_page_anchors_exist(client: FlaskClient) -> None:
    missing = []
    pages: dict[str, frozenset[str]] = {}
    for p in rule_map().rules():
        if p.ruleset not in pages:
            response = client.get(f"/rules/{p.ruleset}")
            assert response.status_code == 200, p.ruleset
            pages[p.ruleset] = frozenset(re.findall(r'id="([^"]+)"', response.text))
        for topic in p.topics:
            if topic.anchor not in pages[p.ruleset]:
                missing.append(f"{p.cite} → /rules/{p.ruleset}#{topic.anchor}")
    assert not missing, missing[:10]


def test_every_paragraph_is_listed_on_its_rules_page(client: FlaskClient) -> None:
    by_ruleset: dict[str, list[Paragraph]] = {}
    for p in rule_map().paragraphs:
        by_ruleset.setdefault(p.ruleset, []).append(p)
    assert set(by_ruleset) == {"german", "polish", "classic", "american", "three-is-fifty"}
    for ruleset, paragraphs in by_ruleset.items():
        page = client.get(f"/rules/{ruleset}").text
        for p in paragraphs:
            assert f'id="{p.anchor}"' in page, f"{p.cite} not listed on /rules/{ruleset}"


def test_the_whole_map_page_lists_every_paragraph(client: FlaskClient) -> None:
    response = client.get("/rules/map?lang=pl")
    assert response.status_code == 200
    for p in rule_map().paragraphs:
        assert f'id="{p.anchor}"' in response.text
    assert "Gdzie" in response.text  # in the reader's language


def test_a_broken_map_is_refused() -> None:
    """The checks above would notice: a topic that is not defined cannot be read at all."""
    data = {
        "seeds": {"x.txt": {"ruleset": "german", "lang": "de"}},
        "topics": {},
        "paragraphs": [{"seed": "x.txt", "line": 1, "text": "t", "topic": "nowhere"}],
    }
    with pytest.raises(KeyError):
        read_map(data)
    assert isinstance(rule_map(), RuleMap)
    assert MAP_PATH.name == "rule_map.json"


def test_a_referee_link_opens_its_question(app: Flask) -> None:
    from scorekeeper.web.rulebook.rule_map import referee_url

    with app.test_request_context("/"):
        assert referee_url("discard-pile", "polish") == "/referee?ruleset=polish#q-discard-pile"
        assert referee_url("three-is-fifty", "three-is-fifty") == "/fifty/referee"
        # the deal of 3 ist 50 is a section of the referee page (no Canasta ruleset to keep)
        assert referee_url("three-is-fifty-deal", "three-is-fifty") == (
            "/referee#q-three-is-fifty-deal"
        )
