"""The rule map: where each paragraph of the source rules lives in this scorekeeper.

The data is ``rule_map.json`` beside this module (it ships in the wheel). Every paragraph of
the seeds (a seed file, one line one paragraph, lines counted from 1) has an entry: either a
``topic`` (the rule it states) or ``none`` (why it states no rule: a heading, prose, scraped
noise). A topic says where the rule lives, as one or more of:

- ``engine`` and ``test``: the engine function (``module:qualname``) and the test that checks
  it (``tests/…py::test_name``);
- ``referee``: the referee questions that decide it (the path after ``/api/v1/referee/``),
  best first; the first one this app answers is used (:func:`live_referee`), so a question
  still being built (``pending_referee``) is picked up once it is there;
- ``anchor``: where the rules page of the paragraph's ruleset explains it (the only place for
  a table procedure the app does not compute, such as dealing or who sits where).

Each topic has a short summary in English, German and Polish (shown beside the paragraph and
searched by :mod:`.search`). ``tests/web/rulebook/test_rule_map.py`` holds the map complete
and every pointer real.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app, url_for

from ...rules.ruleset import RULESET_IDS

MAP_PATH = Path(__file__).with_name("rule_map.json")
#: where a referee question's path starts in the JSON API
REFEREE_PREFIX = "/api/v1/referee/"
#: the referee question of 3 ist 50 asked on its own referee page (``/fifty/referee``); every
#: other question is a section ``#q-<kind>`` of the referee page
FIFTY_PAGE_KINDS = frozenset({"three-is-fifty"})


@dataclass(frozen=True)
class Topic:
    """One rule as this scorekeeper keeps it, with where it lives."""

    key: str
    anchor: str
    summary: dict[str, str]
    engine: str | None = None
    test: str | None = None
    referee: tuple[str, ...] = ()

    def summary_in(self, lang: str) -> str:
        return self.summary.get(lang) or self.summary["en"]


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of a seed: the rule it states (``topic``) or why it states none."""

    seed: str
    line: int
    text: str
    ruleset: str  # the ruleset whose rules page explains it
    lang: str  # the language the paragraph is written in
    topics: tuple[Topic, ...] = ()
    none: str | None = None

    @property
    def topic(self) -> Topic | None:
        """The rule the paragraph states first (None: it states no rule)."""
        return self.topics[0] if self.topics else None

    @property
    def referee(self) -> tuple[str, ...]:
        """The referee questions of all its rules, best first."""
        kinds: list[str] = []
        for topic in self.topics:
            kinds.extend(k for k in topic.referee if k not in kinds)
        return tuple(kinds)

    @property
    def cite(self) -> str:
        """The short citation used in tests and pages: ``seed 000:37``."""
        return f"seed {self.seed[:3]}:{self.line}"

    @property
    def anchor(self) -> str:
        return f"seed-{self.seed[:3]}-{self.line}"


@dataclass(frozen=True)
class RuleMap:
    """The seeds' paragraphs with the rule topics they state, as the rules pages link them."""

    seeds: dict[str, dict[str, str]]
    pending_referee: frozenset[str]
    topics: dict[str, Topic]
    paragraphs: tuple[Paragraph, ...]

    def rules(self) -> list[Paragraph]:
        """The paragraphs that state a rule, in the seeds' order."""
        return [p for p in self.paragraphs if p.topic is not None]

    def for_ruleset(self, ruleset_id: str) -> list[Paragraph]:
        """The paragraphs a ruleset's rules page lists (every paragraph of its seeds)."""
        seeds = {name for name, seed in self.seeds.items() if seed["ruleset"] == ruleset_id}
        return [p for p in self.paragraphs if p.ruleset == ruleset_id or p.seed in seeds]

    def find(self, seed: str, line: int) -> Paragraph | None:
        for p in self.paragraphs:
            if p.line == line and (p.seed == seed or p.seed[:3] == seed):
                return p
        return None


def read_map(data: dict[str, Any]) -> RuleMap:
    """The map from its JSON (a bad file raises KeyError or TypeError: the tests read it)."""
    topics = {
        key: Topic(
            key,
            entry["anchor"],
            dict(entry["summary"]),
            entry.get("engine"),
            entry.get("test"),
            tuple(entry.get("referee", ())),
        )
        for key, entry in data["topics"].items()
    }
    seeds = {name: dict(seed) for name, seed in data["seeds"].items()}
    paragraphs = tuple(
        Paragraph(
            entry["seed"],
            int(entry["line"]),
            entry["text"],
            entry.get("ruleset") or seeds[entry["seed"]]["ruleset"],
            seeds[entry["seed"]]["lang"],
            _topics(topics, entry.get("topic")),
            entry.get("none"),
        )
        for entry in data["paragraphs"]
    )
    return RuleMap(seeds, frozenset(data.get("pending_referee", ())), topics, paragraphs)


def _topics(topics: dict[str, Topic], named: str | list[str] | None) -> tuple[Topic, ...]:
    if named is None:
        return ()
    return tuple(topics[key] for key in ([named] if isinstance(named, str) else named))


@cache
def rule_map() -> RuleMap:
    """The shipped rule map, read once."""
    with MAP_PATH.open(encoding="utf-8") as file:
        return read_map(json.load(file))


# ---- where a paragraph leads ----------------------------------------------------------------


def referee_kinds() -> frozenset[str]:
    """The referee questions this app answers: every ``POST /api/v1/referee/<kind>`` route
    (read from the app's URL map, so a question added in code is found without a list here)."""
    kinds = current_app.extensions.get("scorekeeper.referee_kinds")
    if kinds is None:
        kinds = frozenset(
            rule.rule[len(REFEREE_PREFIX) :]
            for rule in current_app.url_map.iter_rules()
            if rule.rule.startswith(REFEREE_PREFIX)
            and "<" not in rule.rule
            and "POST" in (rule.methods or ())
        )
        current_app.extensions["scorekeeper.referee_kinds"] = kinds
    return frozenset(kinds)


def live_referee(paragraph: Paragraph, kinds: frozenset[str] | None = None) -> str | None:
    """The first referee question of ``paragraph`` that this app answers (None: none does)."""
    kinds = referee_kinds() if kinds is None else kinds
    return next((kind for kind in paragraph.referee if kind in kinds), None)


def referee_url(kind: str, ruleset_id: str) -> str:
    """The referee page with the question ``kind`` opened, for the rules of ``ruleset_id``."""
    if kind in FIFTY_PAGE_KINDS:
        return url_for("referee.fifty")
    ruleset = ruleset_id if ruleset_id in RULESET_IDS else None
    return url_for("referee.page", ruleset=ruleset, _anchor=f"q-{kind}")


def page_url(paragraph: Paragraph) -> str:
    """The rules page (and place in it) that explains ``paragraph``."""
    anchor = paragraph.topic.anchor if paragraph.topic else paragraph.anchor
    return url_for("rulebook.show", ruleset_id=paragraph.ruleset, _anchor=anchor)


@dataclass(frozen=True)
class Where:
    """A paragraph with the links a page shows for it."""

    paragraph: Paragraph
    summary: str
    referee: str | None
    referee_url: str | None
    page_url: str
    engine: str | None
    test: str | None


def where(paragraph: Paragraph, lang: str, kinds: frozenset[str] | None = None) -> Where:
    topic = paragraph.topic
    kind = live_referee(paragraph, kinds)
    return Where(
        paragraph,
        " ".join(t.summary_in(lang) for t in paragraph.topics),
        kind,
        referee_url(kind, paragraph.ruleset) if kind else None,
        page_url(paragraph),
        topic.engine if topic else None,
        topic.test if topic else None,
    )
