"""URL rules that compile their builders on first use (scorekeeper/web/app/routing.py) build
exactly the URLs Werkzeug's own rules build, for every endpoint of the app."""

from __future__ import annotations

from typing import Any

from flask import Flask, url_for
from werkzeug.routing import IntegerConverter, Map, PathConverter
from werkzeug.routing import Rule as WerkzeugRule

from scorekeeper.web.app.routing import Rule


def _values(rule: WerkzeugRule) -> dict[str, Any]:
    """A value each of the rule's converters takes."""
    values: dict[str, Any] = {}
    for name, converter in rule._converters.items():
        if isinstance(converter, IntegerConverter):
            values[name] = 7
        elif isinstance(converter, PathConverter):
            values[name] = "a/b"
        else:
            values[name] = "abc-1"
    return values


def test_every_rule_of_the_app_is_one_whose_builders_wait(app: Flask) -> None:
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    assert all(isinstance(rule, Rule) for rule in rules)


def test_a_builder_is_compiled_on_the_first_url_for_and_kept(app: Flask) -> None:
    rule = next(r for r in app.url_map.iter_rules() if r.endpoint == "home.index")
    assert isinstance(rule, Rule)
    fresh = Rule(rule.rule, endpoint="fresh")
    Map([fresh])
    # A Werkzeug release that compiled builders some other way would leave both compiled here
    # (the start would be slower again, and this test says so).
    assert fresh.builders_compiled == 0
    assert fresh.build({}, append_unknown=True) == ("", "/")
    assert fresh.builders_compiled == 1
    assert fresh.build({"x": "1"}, append_unknown=True) == ("", "/?x=1")
    assert fresh.build({}, append_unknown=False) == ("", "/")
    assert fresh.builders_compiled == 2


def test_every_endpoint_builds_the_url_werkzeug_builds(app: Flask) -> None:
    checked = 0
    for rule in app.url_map.iter_rules():
        eager = WerkzeugRule(
            rule.rule, endpoint=rule.endpoint, methods=rule.methods, defaults=rule.defaults
        )
        Map([eager], converters=app.url_map.converters)
        values = _values(eager)
        for append_unknown in (False, True):
            extra = {"page": "2", "q": "ä ö"} if append_unknown else {}
            assert rule.build({**values, **extra}, append_unknown) == eager.build(
                {**values, **extra}, append_unknown
            ), rule.rule
        checked += 1
    assert checked == len(list(app.url_map.iter_rules()))


def test_url_for_in_a_request_gives_the_app_s_addresses(app: Flask) -> None:
    with app.test_request_context("/"):
        assert url_for("home.index") == "/"
        assert url_for("home.index", page=2) == "/?page=2"
        assert url_for("static", filename="app.css").startswith("/static/app.css")
