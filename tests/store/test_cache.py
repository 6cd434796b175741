"""Everything kept for speed (``store.cache``): bounds, keys, and what makes a kept value stale."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from flask import Flask

from scorekeeper.store import cache

RULES = Path(cache.__file__).resolve().parent.parent / "rules"
READER = Path(cache.__file__).resolve().parent / "entries.py"


def test_kept_values_are_bounded_by_count_and_weight() -> None:
    """The store behind the kept sheets and the games live previews loaded."""
    kept: cache.Bounded[str, object] = cache.Bounded(2, 10)
    loaded = [object() for _ in range(4)]
    kept.put("g0", (1, "t"), loaded[0], 4)
    kept.put("g1", (1, "t"), loaded[1], 4)
    assert kept.get("g0", (1, "t")) is loaded[0]  # g0 is now the most recent
    assert kept.get("g0", (2, "t")) is None  # another stamp: never the kept one
    kept.put("g2", (1, "t"), loaded[2], 4)  # three games: g1 goes
    assert kept.get("g1", (1, "t")) is None
    assert kept.get("g0", (1, "t")) is loaded[0]
    kept.put("g3", (1, "t"), loaded[3], 9)  # 13 hands > 10: the older ones go
    assert kept.get("g0", (1, "t")) is None and kept.get("g2", (1, "t")) is None
    assert kept.get("g3", (1, "t")) is loaded[3]
    kept.put("g3", (2, "t"), loaded[0], 1)  # the same game again replaces it
    assert kept.get("g3", (1, "t")) is None and kept.get("g3", (2, "t")) is loaded[0]


def test_the_engine_fingerprint_covers_every_file_under_rules_at_any_depth(
    tmp_path: Path,
) -> None:
    """A stored score is stale once any file of the rules engine changes, also one in a
    sub-package that does not exist yet."""
    copy = tmp_path / "scorekeeper" / "rules"
    shutil.copytree(RULES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    reader = tmp_path / "entries.py"
    shutil.copy(READER, reader)
    before = cache.engine_fingerprint(copy, reader)
    assert before == cache.ENGINE  # the copy is the engine this process runs
    (copy / "variants").mkdir()
    (copy / "variants" / "__init__.py").write_text("")
    added = cache.engine_fingerprint(copy, reader)
    assert added != before
    (copy / "variants" / "__init__.py").write_text("TWO = 2\n")
    assert cache.engine_fingerprint(copy, reader) not in (before, added)
    reader.write_text(reader.read_text() + "\n# changed\n")
    assert cache.engine_fingerprint(copy, reader) != cache.engine_fingerprint(copy, READER)


def _fingerprint_by_pathlib(rules: Path, reader: Path) -> str:
    """The fingerprint as it was first written (``Path.rglob``, the paths sorted): the stored
    scores' ``engine`` keeps its meaning only while :func:`cache.engine_fingerprint` hashes
    the same bytes in the same order."""
    digest = hashlib.sha256()
    named = [(p.relative_to(rules).as_posix(), p) for p in sorted(rules.rglob("*.py"))]
    for name, path in [*named, (reader.name, reader)]:
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def test_the_engine_fingerprint_is_the_one_stored_scores_carry(tmp_path: Path) -> None:
    """The same digest as before it was walked with ``os.walk``: for the engine itself, and
    for a tree whose order differs between a path's text and its parts (``fifty.py`` sorts
    after ``fifty/cards.py``, ``fifty-two.py`` before both)."""
    assert _fingerprint_by_pathlib(RULES, READER) == cache.ENGINE
    tree = tmp_path / "rules"
    for name in ("fifty.py", "fifty/cards.py", "fifty/deep/x.py", "fifty-two.py", "a.py"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(f"NAME = {name!r}\n")
    (tree / "notes.txt").write_text("not Python")
    assert cache.engine_fingerprint(tree, READER) == _fingerprint_by_pathlib(tree, READER)


def test_a_second_app_shares_nothing_kept_with_the_first(app: Flask, other_process: Flask) -> None:
    """Two apps in one process (a test's second "server") share the database only: what one
    keeps, the other derives for itself."""
    game = app.test_client().post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "players": 4,
            "sides": [
                {"name": "Us", "players": ["A", "B"]},
                {"name": "Them", "players": ["C", "D"]},
            ],
        },
    )
    key = game.get_json()["id"]
    assert app.test_client().get(f"/games/{key}").status_code == 200
    assert key in cache.kept(app).states.weights()
    assert key not in cache.kept(other_process).states.weights()
    assert cache.kept(other_process).pages.size() == (0, 0)
    assert other_process.test_client().get(f"/games/{key}").status_code == 200
    assert key in cache.kept(other_process).states.weights()
