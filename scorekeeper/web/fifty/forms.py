"""The forms of "3 ist 50" (docs/rulebook.md §7, seed 001): a new evening, and entering one game (a
deck
played through: each player's minus pile, card by card or as a counted total) with its live
preview. One score computation: the preview and the store both count minus piles with
``rules.fifty.pile_points`` (through ``store.fifty``).
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ...rules import fifty as rules
from ...rules.problems import Problem
from ...store import fifty as store
from ...store.models import Game
from ..play.entry import FieldGroup, Words, problem_text
from ..play.notes import Notes
from ..play.pages import read_int
from ..words.i18n import number
from ..words.names import card_label

#: The card pad, in the order players sort a minus pile (seed 001: a three is just "3").
PAD = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "X")
DEFAULT_PLAYERS = 4
PLAYER_SEATS = range(rules.MAX_PLAYERS)
MAX_TEXT = 600  # characters kept of one typed field

#: 3 ist 50's own words: a deck played through is a "game", the whole sitting an "evening".
WORDS: Words = {
    "three_is_fifty.points_over_deck": lambda p: _(
        "Together %(points)s minus points: more than the whole deck holds (%(maximum)s).",
        points=number(p.get("points")),
        maximum=number(p.get("maximum")),
    ),
    "game.finished": lambda p: _("This evening is over: correct a game or start a new evening."),
    "hand.not_last": lambda p: _(
        "Only the last game (%(last)s) can be deleted.", last=number(p.get("last"))
    ),
    "hand.undo_expired": lambda p: _("The deleted game can no longer be brought back."),
}


def describe(problem: Problem) -> str:
    return problem_text(problem, WORDS)


def cards_text(cards: Any) -> str:
    """Game ranks as the reader writes them (B D for jack and queen in German)."""
    return " ".join(card_label(str(c)) for c in cards)


def joker_text(joker: int) -> str:
    # flask-babel passes ``num`` itself: a formatted number needs another placeholder name.
    return ngettext(
        "Joker: %(points)s point", "Joker: %(points)s points", joker, points=number(joker)
    )


def end_text(state: store.FiftyState) -> str:
    """How the evening ends, as chosen."""
    parts = []
    if state.stop_after:
        parts.append(
            ngettext(
                "after %(count)s game",
                "after %(count)s games",
                state.stop_after,
                count=number(state.stop_after),
            )
        )
    if state.target:
        parts.append(_("when someone reaches %(points)s", points=number(state.target)))
    if not parts:
        return _("No set end: stop when you like.")
    return _("The evening ends %(when)s; the lowest total wins.", when=_(" or ").join(parts))


# ---- a new evening ---------------------------------------------------------------------------
@dataclass
class NewForm:
    """The form of a new 3 ist 50 evening, as typed."""

    players: int = DEFAULT_PLAYERS
    names: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    joker: str = str(rules.DEFAULT_JOKER)
    stop_after: str = ""
    target: str = ""


def read_new(form: MultiDict[str, str]) -> tuple[NewForm, dict[str, Any], Notes]:
    notes = Notes()
    players = read_int(form.get("players"))
    if players not in rules.PLAYERS_ALLOWED:
        players = DEFAULT_PLAYERS
    nf = NewForm(
        players=players,
        names=[form.get(f"name-{i}", "")[:MAX_TEXT].strip() for i in PLAYER_SEATS],
        joker=form.get("joker", "")[:MAX_TEXT].strip(),
        stop_after=form.get("stop_after", "")[:MAX_TEXT].strip(),
        target=form.get("target", "")[:MAX_TEXT].strip(),
    )
    values: dict[str, int | None] = {}
    for key in ("joker", "stop_after", "target"):
        text = getattr(nf, key)
        value = read_int(text) if text else None
        if text and value is None:
            notes.add(key, describe(Problem("request.type", key, {"expected": "integer"})))
        values[key] = value
    args = {
        "players": [nf.names[i] or _("Player %(num)s", num=i + 1) for i in range(players)],
        "joker": rules.DEFAULT_JOKER if values["joker"] is None else values["joker"],
        "stop_after": values["stop_after"],
        "target": values["target"],
    }
    return nf, args, notes


def slot_new(where: str) -> str:
    m = re.match(r"players\[(\d+)\]", where)
    if m:
        return f"name-{m[1]}"
    if where.startswith("options.joker"):
        return "joker"
    return where if where in ("stop_after", "target") else "form"


# ---- entering a game -------------------------------------------------------------------------
@dataclass
class PlayerField(FieldGroup):
    """One player's field of the entry form: minus points as cards or as a number."""

    letter: ClassVar[str] = "p"
    name: str
    mode: str = "cards"  # or "points"
    cards: str = ""
    points: str = ""


@dataclass
class EntryForm:
    """The entry form of a 3 ist 50 game, as typed: each player's field and the dealer."""

    players: list[PlayerField]
    version: int
    number: int | None = None  # the game being corrected; None: a new game
    dealer: str = ""


@dataclass
class Preview:
    """The entry form read: each player's points, the totals, the notes, and what a save stores."""

    points: list[int | None]  # per player; None where the field cannot be read
    totals: list[int]
    notes: Notes
    blocked: bool
    entries: list[dict[str, Any]]  # what a save stores


def blank_entry(state: store.FiftyState) -> EntryForm:
    return EntryForm(
        [PlayerField(i, name) for i, name in enumerate(state.players)],
        state.version,
        None,
        state.players[state.next_dealer],
    )


def stored_entry(state: store.FiftyState, number: int) -> EntryForm:
    row = state.rows[number - 1]
    fields = []
    for i, (name, score) in enumerate(zip(state.players, row.scores, strict=False)):
        if score.cards is None:
            fields.append(PlayerField(i, name, "points", "", str(score.points)))
        else:
            fields.append(PlayerField(i, name, "cards", cards_text(score.cards), ""))
    return EntryForm(fields, state.version, number, state.players[row.dealer])


def read_entry_form(
    state: store.FiftyState, form: MultiDict[str, str], number: int | None
) -> EntryForm:
    fields = []
    for i, name in enumerate(state.players):
        mode = form.get(f"p{i}-mode", "cards")
        fields.append(
            PlayerField(
                i,
                name,
                mode if mode in ("cards", "points") else "cards",
                form.get(f"p{i}-cards", "")[:MAX_TEXT],
                form.get(f"p{i}-points", "")[:MAX_TEXT].strip(),
            )
        )
    version = read_int(form.get("version")) or 0
    dealer = state.next_dealer if number is None else state.rows[number - 1].dealer
    return EntryForm(fields, version, number, state.players[dealer])


def entries_of(ef: EntryForm) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The store's entry from the form, and the problems of reading the typed numbers."""
    entries: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for f in ef.players:
        if f.mode == "cards":
            entries.append({"cards": f.cards})
            continue
        value = read_int(f.points) if f.points else 0
        if value is None:
            problems.append(
                Problem("request.type", f"players[{f.index}].points", {"expected": "integer"})
            )
            value = 0
        entries.append({"points": value})
    return entries, problems


def slot_for(where: str) -> str:
    m = re.match(r"players\[(\d+)\]", where)
    return f"p{m[1]}" if m else "entry"


def preview(game: Game, state: store.FiftyState, ef: EntryForm) -> Preview:
    """Count each pile as typed so far, and place every problem next to its player."""
    entries, problems = entries_of(ef)
    points, store_problems = store.check_entry(game, entries)
    problems += store_problems
    notes = Notes()
    unreadable = set()
    for p in problems:
        slot = slot_for(p.where)
        notes.add(slot, describe(p))
        if slot != "entry":
            unreadable.add(int(slot[1:]))
    shown: list[int | None] = [None if i in unreadable else pts for i, pts in enumerate(points)]
    totals = store.totals_after(state, points, ef.number)
    return Preview(shown, totals, notes, bool(problems), entries)


def slot_ids(ef: EntryForm) -> list[str]:
    return ["entry"] + [f.prefix for f in ef.players]
