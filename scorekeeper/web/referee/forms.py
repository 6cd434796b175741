"""Reading the referee page's forms: the settings (ruleset, house rules, players, score) and
each question's fields, turned into typed cards and flags for the rules engine.

A question read without problems becomes an :class:`Asked`: a function that asks the engine
(:mod:`scorekeeper.rules.referee`) under any ruleset, so the page can compare the answer of
every other ruleset with the same cards.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from flask import url_for
from flask_babel import gettext as _

from ...edge.reading import MAX_SCORE, Reader
from ...rules import referee
from ...rules.cards import Card, parse_cards
from ...rules.problems import Problem
from ...rules.referee import Verdict
from ...rules.ruleset import PRESETS, RuleSet
from ..rulebook.house_rules import HouseRules, read_house_rules, unknown_ruleset_note
from ..words.i18n import home_ruleset
from ..words.messages import message

MAX_FIELD = 600  # characters kept of any one text field
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
MELD_SEPARATOR = re.compile(r"[/|\n]")
CANASTA_KINDS = ("natural", "mixed", "wild")
MAX_PROBLEMS = 6  # problems shown under one question


# ---- settings -------------------------------------------------------------------------------


@dataclass
class Settings:
    """What the questions are asked against: ruleset (with house rules), players, score."""

    base: RuleSet
    ruleset: RuleSet
    players: int
    house: HouseRules
    score: int = 0
    game: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def options(self) -> dict[str, Any] | None:
        return self.house.options

    def players_refused(self) -> list[str]:
        """The problem, as a message, when house rules leave fewer player counts than the
        ruleset they change and the chosen count is not among them; empty when it is."""
        if self.players in self.ruleset.players_allowed:
            return []
        allowed = list(self.ruleset.players_allowed)
        problem = Problem(
            "players.not_allowed", "players", {"players": self.players, "allowed": allowed}
        )
        return [message(problem)]

    def link(self, **changes: Any) -> str:
        """This page with other settings (``None`` drops a parameter)."""
        args: dict[str, Any] = {
            "ruleset": self.base.id,
            "players": self.players,
            "options": self.house.text or None,
            "score": self.score or None,
            "game": self.game,
        }
        args.update(changes)
        return url_for("referee.page", **{k: v for k, v in args.items() if v is not None})

    def rules_url(self, anchor: str | None = None) -> str:
        return url_for(
            "rulebook.show",
            ruleset_id=self.base.id,
            options=self.house.text or None,
            _anchor=anchor,
        )

    @property
    def game_url(self) -> str | None:
        return f"/games/{quote(self.game)}" if self.game else None


def parse_score(text: Any) -> int | None:
    """A score as typed: ``1500``, ``1.500``, ``1 500``, ``−100``; None when unreadable."""
    if text is None:
        return 0
    value = str(text).strip()
    if not value:
        return 0
    value = value.replace("\u2212", "-").replace("\u2013", "-")
    value = re.sub(r"[\s\u00a0\u202f.,'’]", "", value)
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", value):
        return None
    number_ = int(value)
    return number_ if abs(number_) <= MAX_SCORE else None


def read_settings(values: Mapping[str, str]) -> Settings:
    """Settings from query or form values; anything unusable is noted and replaced."""
    notes: list[str] = []
    ruleset_id = values.get("ruleset") or home_ruleset()
    if ruleset_id not in PRESETS:
        notes.append(unknown_ruleset_note(ruleset_id))
        ruleset_id = home_ruleset()
    base = PRESETS[ruleset_id]
    house = read_house_rules(base, values.get("options"))
    notes.extend(house.notes)
    players = base.default_players
    raw_players = values.get("players")
    if raw_players:
        asked = int(raw_players) if re.fullmatch(r"[0-9]{1,2}", raw_players) else None
        if asked in base.players_allowed:
            players = asked
        else:
            notes.append(
                message(
                    Problem(
                        "players.not_allowed",
                        "players",
                        {"players": raw_players[:10], "allowed": list(base.players_allowed)},
                    )
                )
            )
    score = parse_score(values.get("score"))
    game = values.get("game") or None
    if game is not None and not GAME_ID.match(game):
        game = None
    return Settings(base, house.ruleset, players, house, score or 0, game, notes)


# ---- questions ------------------------------------------------------------------------------

#: Asks the engine one question under a ruleset and player count.
Ask = Callable[[RuleSet, int], Verdict]


@dataclass
class Asked:
    """One question as read from its form.

    ``ask`` is ``None`` while there is nothing to answer (an empty form) or when ``problems``
    (sentences in the reader's language) say what to correct. ``read``: the cards read from
    the meld field (shown as chips, so a typo is seen at once). ``frozen`` and ``concealed``
    pick the rule quoted with the answer.
    """

    ask: Ask | None = None
    problems: list[str] = field(default_factory=list)
    read: list[list[str]] = field(default_factory=list)
    frozen: bool = False
    concealed: bool = False


def _text(values: Mapping[str, str], key: str) -> str:
    return (values.get(key) or "").strip()[:MAX_FIELD]


def _flag(values: Mapping[str, str], key: str) -> bool:
    return values.get(key) in ("1", "on", "true", "yes")


def _melds(text: str) -> list[str]:
    """Melds typed in one field, separated by ``/``: ``K K K 2 / 4 4 4``."""
    return [part.strip() for part in MELD_SEPARATOR.split(text) if part.strip()]


#: Public names of the two field readers, for the options form (:mod:`.referee_options`).
def text_of(values: Mapping[str, str], key: str) -> str:
    """A text field's value, trimmed and cut to :data:`MAX_FIELD` characters."""
    return _text(values, key)


def melds_typed(text: str) -> list[str]:
    """Melds typed in one field, separated by ``/`` (or "Next meld" on the pad)."""
    return _melds(text)


def _score(values: Mapping[str, str], asked: Asked) -> int:
    score = parse_score(values.get("score"))
    if score is None:
        asked.problems.append(_("Enter your side's score as a whole number, such as 1500."))
        return 0
    return score


def _read(text: str) -> list[str]:
    return [c.rank for c in parse_cards(text)[0]][:60]


def _checked(asked: Asked, reader: Reader, ask: Ask) -> Asked:
    """``ask`` when the cards were read without problems, else their sentences."""
    if reader.problems:
        asked.problems = [message(p) for p in reader.problems][:MAX_PROBLEMS]
    else:
        asked.ask = ask
    return asked


def _meld(values: Mapping[str, str]) -> Asked:
    text = _text(values, "cards")
    if not text:
        return Asked()
    asked = Asked(read=[_read(text)])
    reader = Reader()
    cards = reader.cards(text, "cards")
    going_out = _flag(values, "going_out")
    return _checked(
        asked, reader, lambda rs, players: referee.meld(rs, cards, going_out, players=players)
    )


def _initial_meld(values: Mapping[str, str]) -> Asked:
    melds_text = _melds(_text(values, "melds"))
    asked = Asked()
    score = _score(values, asked)
    if not melds_text or asked.problems:
        return asked
    reader = Reader()
    melds = reader.card_lists(melds_text, "melds")
    top = reader.card(_text(values, "top_card") or None, "top_card")
    return _checked(
        asked, reader, lambda rs, players: referee.initial_meld(rs, players, score, melds, top)
    )


def _discard_pile(values: Mapping[str, str]) -> Asked:
    top_text = _text(values, "top_card")
    asked = Asked()
    score = _score(values, asked)
    if not top_text or asked.problems:
        return asked
    pile_has_wild = _flag(values, "pile_has_wild")
    red_three_upcard = _flag(values, "red_three_upcard")
    side_has_melded = values.get("side_has_melded", "yes") != "no"
    going_out = _flag(values, "going_out")
    asked.frozen = pile_has_wild or red_three_upcard or not side_has_melded
    reader = Reader()
    top = reader.card(top_text, "top_card")
    side_melds = reader.card_lists(_melds(_text(values, "side_melds")), "side_melds")
    hand = reader.cards(_text(values, "hand"), "hand")

    def ask(rs: RuleSet, players: int) -> Verdict:
        assert top is not None  # reading it found no problem
        return referee.discard_pile(
            rs,
            players,
            top,
            pile_has_wild=pile_has_wild,
            red_three_upcard=red_three_upcard,
            side_has_melded=side_has_melded,
            side_melds=side_melds,
            hand=hand,
            cumulative_score=score,
            going_out=going_out,
        )

    return _checked(asked, reader, ask)


def _go_out(values: Mapping[str, str]) -> Asked:
    canastas: dict[str, int] = {}
    for kind in CANASTA_KINDS:
        raw = _text(values, kind) or "0"
        if not re.fullmatch(r"[0-9]{1,2}", raw) or int(raw) > 30:
            return Asked(problems=[_("Enter the number of canastas as a whole number.")])
        canastas[kind] = int(raw)
    concealed = _flag(values, "concealed")
    melded_before = _flag(values, "melded_before")
    reader = Reader()
    melds: list[list[Card]] = reader.card_lists(_melds(_text(values, "melds")), "melds")
    side_text = _melds(_text(values, "side_melds"))
    # docs/rulebook.md §5: with the side's melds on the table the canastas are counted from them.
    side_melds = reader.card_lists(side_text, "side_melds") if side_text else None
    return _checked(
        Asked(concealed=concealed),
        reader,
        lambda rs, players: referee.go_out(
            rs,
            players,
            canastas,
            concealed=concealed,
            player_melded_before=melded_before,
            melds=melds,
            side_melds=side_melds,
        ),
    )


#: Each question's form reader.
READERS: dict[str, Callable[[Mapping[str, str]], Asked]] = {
    "meld": _meld,
    "initial-meld": _initial_meld,
    "discard-pile": _discard_pile,
    "go-out": _go_out,
}


def read_question(question: str, values: Mapping[str, str]) -> Asked:
    """One question (``meld``, ``initial-meld``, ``discard-pile``, ``go-out``) from its form."""
    return READERS[question](values)


def score_or_problem(values: Mapping[str, str]) -> tuple[int, list[str]]:
    """The score of the minimum question: the number, or the sentence saying what to type."""
    asked = Asked()
    score = _score(values, asked)
    return score, asked.problems
