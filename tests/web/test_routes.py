"""Every URL of the app is written out where its blueprint declares it, so ``grep`` finds the
code of a page from its address, and no rule is registered twice."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from flask import Flask

WEB = Path(__file__).resolve().parents[2] / "scorekeeper" / "web"


def test_every_rule_stands_literally_in_its_area(app: Flask) -> None:
    sources = {path: path.read_text("utf-8") for path in WEB.rglob("*.py")}
    missing = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        blueprint = app.blueprints[rule.endpoint.split(".")[0]]
        prefix = blueprint.url_prefix or ""
        path = rule.rule.removeprefix(prefix) or "/"
        written = [p for p, text in sources.items() if f'"{path}"' in text]
        if not written:
            missing.append(rule.rule)
    assert missing == []


def test_no_rule_is_registered_twice(app: Flask) -> None:
    rules = Counter(
        (rule.endpoint, rule.rule, tuple(sorted(rule.methods or ())))
        for rule in app.url_map.iter_rules()
    )
    assert [rule for rule, count in rules.items() if count > 1] == []
