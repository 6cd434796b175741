"""House rules read from a link (``?options=<json>``) for the rules and referee pages: the
ruleset with them, the changes in words, or notes saying why the link could not be used."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from ...rules import fifty
from ...rules.problems import Problem
from ...rules.ruleset import RuleSet
from ..words.i18n import number
from ..words.messages import message
from ..words.parameters import option_changes

# Longest JSON text of house rules read from a URL.
MAX_OPTIONS_TEXT = 4000


@dataclass
class HouseRules:
    """House rules read from ``?options=``: the ruleset with them, and what they change."""

    ruleset: RuleSet
    options: dict[str, Any] | None = None
    text: str = ""
    changes: list[tuple[str, str, str]] = field(default_factory=list)  # label, preset, house
    notes: list[str] = field(default_factory=list)


def _unreadable() -> str:
    return _("The house rules in the link could not be read; the ruleset's own rules apply.")


#: What :func:`_json` answers for a text that is too long or not JSON.
UNREADABLE = object()


def _json(text: str) -> Any:
    """The JSON of a link's ``options``, or :data:`UNREADABLE`."""
    if len(text) > MAX_OPTIONS_TEXT:
        return UNREADABLE
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return UNREADABLE


def read_house_rules(base: RuleSet, text: str | None) -> HouseRules:
    """The ruleset with the house rules of a URL's ``options`` (JSON), or notes why not."""
    house = HouseRules(ruleset=base)
    if not text:
        return house
    options = _json(text)
    if options is UNREADABLE:
        house.notes.append(_unreadable())
        return house
    if options in (None, {}):
        return house
    rs, problems = base.with_options(options)
    if problems:
        house.notes.extend(message(p) for p in problems[:5])
        house.notes.append(_("The ruleset's own rules apply."))
        return house
    house.ruleset = rs
    house.options = options
    house.text = json.dumps(options, separators=(",", ":"), ensure_ascii=False)
    house.changes = option_changes(rs, base)
    return house


def read_fifty_house_rules(base: RuleSet, text: str | None) -> tuple[HouseRules, int]:
    """The house rules of a "3 ist 50" link (the joker's value) and the joker's value.

    ``base`` only fills :attr:`HouseRules.ruleset`; 3 ist 50 has no Canasta parameters.
    """
    house = HouseRules(ruleset=base)
    joker = fifty.DEFAULT_JOKER
    if not text:
        return house, joker
    raw = _json(text)
    options, problems = fifty.read_options(None if raw is UNREADABLE else raw)
    if raw is None or raw is UNREADABLE or problems:
        house.notes.extend(message(p) for p in problems[:5])
        house.notes.append(_unreadable())
    elif options.joker != joker:
        house.changes.append((_("Value of a joker"), number(joker), number(options.joker)))
        house.text = json.dumps(options.as_dict(), separators=(",", ":"))
        joker = options.joker
    return house, joker


def unknown_ruleset_note(value: str) -> str:
    """The note for a link that names no known ruleset."""
    return message(Problem("ruleset.unknown", "ruleset", {"ruleset": value[:40]}))
