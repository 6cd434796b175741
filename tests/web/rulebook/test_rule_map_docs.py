"""docs/rules.md is made from the rule map: it must be current (run
``python scripts/rule_map_docs.py`` after changing rule_map.json or the settled readings)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from scorekeeper.web.rulebook.map_docs import render
from scorekeeper.web.rulebook.rule_map import rule_map

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def test_docs_rules_md_is_current(app: Flask) -> None:
    assert DOCS.read_text(encoding="utf-8") == render(app), (
        "docs/rules.md is stale: run python scripts/rule_map_docs.py"
    )


def test_docs_name_every_rule_paragraph(app: Flask) -> None:
    text = render(app)
    for name in rule_map().seeds:
        assert f"### {name}" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "|---" not in line]
    assert len(rows) - len(rule_map().seeds) == len(rule_map().rules())
    assert "settled-end-of-stock" in text and "/api/v1/rules/search" in text
