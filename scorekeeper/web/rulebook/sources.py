"""The rule map in the reader's words: what the rules pages list under "Where each rule of the
source lives", the whole map's page, and the answers to a question typed in words."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _

from ..words.names import ruleset_title
from .rule_map import Paragraph, Where, referee_kinds, referee_url, rule_map, where


def referee_labels() -> dict[str, str]:
    """Each referee question by its name on the referee page."""
    return {
        "options": _("What may I do?"),
        "meld": _("Meld check"),
        "initial-meld": _("Initial meld"),
        "discard-pile": _("Discard pile"),
        "go-out": _("Going out"),
        "three-is-fifty": _("What may I play?"),
        "partner-permission": _("Asking the partner “May I go out?”"),
        "end-of-stock": _("The end of the stock"),
        "black-three-block": _("A black three on the pile"),
        "red-three-from-pile": _("A red three from the pile"),
        "three-is-fifty-deal": _("Dealing in 3 is 50"),
        "two-player-draw": _("Drawing with two players"),
    }


def none_label(reason: str) -> str:
    """Why a paragraph states no rule, by the kind named before the reason's colon."""
    kind = reason.split(":", 1)[0].strip()
    labels = {
        "title": _("A heading"),
        "prose": _("An introduction or explanation"),
        "advice": _("Playing advice"),
        "history": _("Background"),
        "garbled": _("Scraped text without a readable rule"),
        "garbled variant": _("A contradicting variant, not followed"),
        "site": _("Part of the website the text comes from"),
        "table head": _("The head of a table"),
        "notation": _("How the examples are written"),
        "other game": _("Another game"),
        "table procedure": _("A table procedure with nothing to check"),
    }
    return labels.get(kind, _("States no rule"))


@dataclass(frozen=True)
class Shown:
    """A rule paragraph as a page shows it."""

    where: Where
    referee_label: str | None
    ruleset_label: str
    #: other paragraphs found for the same rule (a question's answers name the rule once)
    more: tuple[Paragraph, ...] = ()

    @property
    def paragraph(self) -> Paragraph:
        return self.where.paragraph


@dataclass(frozen=True)
class SeedGroup:
    """The paragraphs of one seed as a page shows them: its rules, and the others with why."""

    seed: str
    ruleset_label: str
    rules: list[Shown]
    others: list[tuple[Paragraph, str]]

    @property
    def short(self) -> str:
        return self.seed[:3]


def shown(
    paragraph: Paragraph, lang: str, kinds: frozenset[str], ruleset: str | None = None
) -> Shown:
    """``paragraph`` with its links; ``ruleset``: the game's rules the referee link keeps (a
    rule of another ruleset's source is asked under the rules being played)."""
    place = where(paragraph, lang, kinds)
    if ruleset and place.referee and paragraph.ruleset != "three-is-fifty":
        place = Where(
            place.paragraph,
            place.summary,
            place.referee,
            referee_url(place.referee, ruleset),
            place.page_url,
            place.engine,
            place.test,
        )
    labels = referee_labels()
    return Shown(
        place,
        labels.get(place.referee, place.referee) if place.referee else None,
        ruleset_title(paragraph.ruleset, short=True),
    )


#: rules a page names for one question
MAX_ANSWERS = 6


def answers(
    found: list[Paragraph], lang: str, kinds: frozenset[str], ruleset: str | None = None
) -> list[Shown]:
    """The answers to a question as a page shows them: one per rule, in the order its best
    paragraph was found, the other paragraphs of that rule kept beside it."""
    best: dict[str, Paragraph] = {}
    more: dict[str, list[Paragraph]] = {}
    for p in found:
        assert p.topic is not None
        key = p.topic.key
        if key in best:
            more[key].append(p)
        else:
            best[key] = p
            more[key] = []
    out = []
    for key, p in list(best.items())[:MAX_ANSWERS]:
        item = shown(p, lang, kinds, ruleset)
        out.append(Shown(item.where, item.referee_label, item.ruleset_label, tuple(more[key][:3])))
    return out


def source_groups(ruleset_id: str | None, lang: str) -> list[SeedGroup]:
    """The paragraphs of the sources, seed by seed (``ruleset_id``: only those its rules page
    explains; None: the whole map)."""
    kinds = referee_kinds()
    rules = rule_map()
    groups: dict[str, SeedGroup] = {}
    for p in rules.paragraphs:
        if ruleset_id is not None and p.ruleset != ruleset_id:
            continue
        group = groups.get(p.seed)
        if group is None:
            group = SeedGroup(p.seed, ruleset_title(rules.seeds[p.seed]["ruleset"], True), [], [])
            groups[p.seed] = group
        if p.topic is not None:
            group.rules.append(shown(p, lang, kinds))
        else:
            group.others.append((p, none_label(p.none or "")))
    return list(groups.values())
