"""The table disputes (scorekeeper.rules.disputes) against tests/data/dispute_cases.json, each
case citing the seed line it rests on; and the seed lines the rulings cite exist and say it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.edge import stateless as edge_stateless
from scorekeeper.rules import disputes
from scorekeeper.rules.scoring import Rejected
from scorekeeper.rules.turns import TurnOptions

from .casefiles import answered, ids, load

CASES = load("dispute_cases.json")
# The seeds lie in ``shared/seeds`` beside the repository (or beside the folder holding it).
SEEDS = next(
    (
        p / "shared" / "seeds"
        for p in Path(__file__).resolve().parents[2:5]
        if (p / "shared" / "seeds").is_dir()
    ),
    Path("../shared/seeds"),
)

ASK = {
    "partner-permission": edge_stateless.referee_partner_permission,
    "end-of-stock": edge_stateless.referee_end_of_stock,
    "black-three-block": edge_stateless.referee_black_three_block,
    "red-three-from-pile": edge_stateless.referee_red_three_from_pile,
    "three-is-fifty-deal": edge_stateless.referee_three_is_fifty_deal,
    "two-player-draw": edge_stateless.referee_two_player_draw,
}


def check_ruling(case: dict[str, Any], status: int, body: dict[str, Any]) -> None:
    """One case held against an answer as the API sends it (status, JSON body)."""
    assert status == case.get("status", 200), body
    if status != 200:
        assert body["problems"], body
        return
    assert body["allowed"] is case["allowed"], body
    for key, value in case.get("facts", {}).items():
        assert body.get(key) == value, (key, body)
    found = [r["code"] for r in body["reasons"]]
    for code in case.get("reasons_include", []):
        assert code in found, (code, found)
    cited = {f"{s['seed'][:3]}:{s['line']}" for s in body["sources"]}
    for ref in case.get("sources_include", []):
        assert ref in cited, (ref, cited)


def check_options(case: dict[str, Any], body: dict[str, Any]) -> None:
    kinds = [m["kind"] for m in body["moves"]]
    assert kinds == case["move_kinds"], body
    notes = [n["code"] for n in body["notes"]]
    for code in case["notes_include"]:
        assert code in notes, (code, notes)
    for code in case.get("notes_exclude", []):
        assert code not in notes, (code, notes)


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_dispute_cases(case: dict[str, Any]) -> None:
    if case["endpoint"] == "options":
        answer = edge_stateless.referee_options(case["request"])
        assert isinstance(answer, TurnOptions), answer
        body = {
            "moves": [{"kind": str(m.kind)} for m in answer.moves],
            "notes": [{"code": n.code} for n in answer.notes],
        }
        check_options(case, body)
        return
    answer = ASK[case["endpoint"]](case["request"])
    if isinstance(answer, Rejected):
        status, body = answered(answer)
    else:
        status, body = 200, _plain(answer)
    check_ruling(case, status, body)


def _plain(ruling: disputes.Ruling) -> dict[str, Any]:
    from .casefiles import as_json

    body: dict[str, Any] = as_json(ruling.body())
    return body


def test_every_kind_has_cases() -> None:
    """Each referee kind of the module is exercised by the case file."""
    assert {c["endpoint"] for c in CASES} >= set(disputes.KINDS)


def test_cited_seed_lines_exist() -> None:
    """Every seed line a ruling cites is a paragraph of that seed (no blank line)."""
    assert SEEDS.is_dir(), "the shared seeds (../shared/seeds) are not beside the repository"
    for kind, by_ruleset in disputes.SOURCES.items():
        for ruleset_id, sources in by_ruleset.items():
            for source in sources:
                lines = (SEEDS / source.file).read_text("utf-8").splitlines()
                assert 1 <= source.line <= len(lines), (kind, ruleset_id, source)
                assert lines[source.line - 1].strip(), (kind, ruleset_id, str(source))


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("000:125", "Darf ich ausmachen?"),
        ("000:134", "rote Drei"),
        ("000:97", "schwarze Drei"),
        ("002:250", "binding"),
        ("002:133", "two red threes"),
        ("002:256", "must take the discard"),
        ("003:80", "nie jest w jej miejsce ciągnięta inna karta"),
        ("003:114", "skończą się karty"),
        ("001:65", "nicht ersetzt"),
        ("001:30", "Zwischenwerfen ist nicht erlaubt"),
    ],
)
def test_cited_lines_say_the_rule(ref: str, words: str) -> None:
    """The lines the rulings rest on hold the rule's words (a seed edited under us fails)."""
    assert SEEDS.is_dir(), "the shared seeds (../shared/seeds) are not beside the repository"
    seed, line = ref.split(":")
    text = (SEEDS / disputes.SEED_FILES[seed]).read_text("utf-8").splitlines()[int(line) - 1]
    assert words in text
