"""The live preview of a Canasta hand: the hand as typed so far, scored by the rules engine
(through the store, so the preview and a save score it the same way and only once), with every
problem, warning and quiet piece of information placed next to the field it concerns.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from ... import store
from ...edge.games import read_hand
from ...rules.cards import Card
from ...rules.melds import canasta_label
from ...rules.problems import Problem
from ...rules.ruleset import RuleSet
from ...rules.scoring import held_points
from ...store import GameState
from ...store.models import Game
from ..play.entry import Words, problem_text
from ..play.notes import Note, NoteKind, Notes
from ..words import names
from ..words.i18n import number, per_language, signed
from ..words.names import canasta_kind, points_text
from ..words.names import cards_text as count_cards
from .hand_form import (
    CANASTA_FIELDS,
    PENALTY_FIELDS,
    QUICK_FIELDS,
    SPECIAL_CANASTA_FIELDS,
    Entry,
    HandForm,
    Mode,
    SideForm,
    build_entry,
)

#: The form's own problems, in words (the rules engine does not know them).
WORDS: Words = {
    "concealed.nobody_out": lambda p: _(
        "Only the player who went out can have gone out concealed: choose who went out."
    ),
}


@dataclass
class SidePreview:
    """One side of the live preview: its score for the hand, its items and the totals after it."""

    score: int | None
    items: dict[str, int]
    canastas: dict[str, int]
    player_scores: list[int] | None
    totals_after: list[int]
    after: list[str]  # each column's total after the hand, in words ("total 1,250")
    # what another way of entering the side can take over (a field name: its value)
    keep: dict[str, int] = field(default_factory=dict)


@dataclass
class Preview:
    """The hand as typed, scored: per side, the notes by field, and what a save stores."""

    sides: list[SidePreview]
    notes: Notes
    blocked: bool
    entry: Entry  # the form as the API's ``teams``
    checked: store.CheckedHand  # read, checked and scored by the store
    said: str = ""  # what a screen reader hears of it: each column's score and total after it


_SIDE_WHERE = re.compile(r"^teams\[(\d+)\](.*)$")
_INDEX = re.compile(r"^\.(melds|hands)\[(\d+)\]")


def slot_for(where: str, form: HandForm, entry: Entry) -> str:
    """The field a problem's ``where`` points at (its note slot in the form)."""
    m = _SIDE_WHERE.match(where)
    if not m:
        if where.startswith("lone_player"):
            return "lone"
        if where.startswith(("stock_out", "concealed")):
            return "out"
        return "hand"
    i, rest = int(m[1]), m[2]
    if i >= len(form.sides):
        return "hand"
    p = f"t{i}"
    index = _INDEX.match(rest)
    if index and index[1] == "melds":
        sent = entry.meld_fields[i]
        k = int(index[2])
        return f"{p}-m{sent[k]}" if k < len(sent) else p
    if index and index[1] == "hands":
        return f"{p}-h{index[2]}" if int(index[2]) < len(form.sides[i].hands) else p
    if rest.startswith(".red_threes"):
        return f"{p}-red"
    if rest.startswith(".black_threes"):
        return f"{p}-black"
    if rest.startswith(".special_hand"):
        return f"{p}-special"
    if rest.startswith(".total"):
        return f"{p}-total"
    if rest.startswith(".adjustments"):
        return f"{p}-adj"
    if rest.startswith(".quick."):
        key = rest[len(".quick.") :].split(".")[0]
        if key in CANASTA_FIELDS or key in SPECIAL_CANASTA_FIELDS:
            return f"{p}-q-canastas"
        if key in PENALTY_FIELDS:
            return f"{p}-q-penalties"
        if key in QUICK_FIELDS:
            return f"{p}-q-{key}"
    if rest.startswith((".went_out", ".concealed")):
        return "out"
    return p


def slot_ids(form: HandForm) -> list[str]:
    ids = ["hand", "out"] + (["lone"] if form.lone else [])
    for side in form.sides:
        p = side.prefix
        ids += [
            p,
            f"{p}-red",
            f"{p}-q-canastas",
            f"{p}-q-meld_points",
            f"{p}-q-hand_points",
            f"{p}-q-black_threes_in_hand",
            f"{p}-adj",
            f"{p}-total",
        ]
        ids += [f"{p}-{extra}" for extra in form.extra_slots]
        ids += [f"{p}-m{f}" for f in range(len(side.melds))]
        ids += [f"{p}-h{h}" for h in range(len(side.hands))]
    return ids


def preview(game: Game, state: GameState, form: HandForm) -> Preview:
    """Score the hand as typed so far, and place every problem next to its field."""
    entry = build_entry(state, form)
    # The form's teams hold only text a form decoder gave (always valid UTF-8) and whole
    # numbers, four levels deep at most: storable by how they are made, so the edge does not
    # walk them again for what could keep a JSON value from being stored.
    hand = read_hand(entry.teams, entry.lone_player, entry.stock_out, stored=True)
    checked = store.checked_hand(game, hand, state.rules)
    result = checked.result
    notes = Notes()
    found = checked.problems
    if any(p.code == "hand.alone_went_out" for p in entry.problems):
        # The store reads three sides of one as a stock run out; the form has said already,
        # in the rule's words, why a player going out cannot be that.
        found = [p for p in found if p.code != "hand.stock_out_went_out"]
    problems = _unique(entry.problems + found)
    for p in problems:
        slot = slot_for(p.where, form, entry)
        text = problem_text(p, WORDS)
        named = _SIDE_WHERE.match(p.where)
        if slot == "out" and named:
            text = f"{form.sides[int(named[1])].name}: {text}"
        notes.add(slot, text)
    for w in result.warnings:
        notes.add(slot_for(w.where, form, entry), problem_text(w, WORDS), NoteKind.WARNING)

    side_previews = []
    scored_sides = (
        result.sides if len(result.sides) == len(form.sides) else [None] * len(form.sides)
    )
    for side, scored in zip(form.sides, scored_sides, strict=True):
        if scored is None:
            side_previews.append(SidePreview(None, {}, {}, None, [], []))
            continue
        per_player = scored.player_scores if len(side.columns) > 1 else None
        scores = per_player or [scored.score] * len(side.columns)
        after = [t + s for t, s in zip(side.totals_before, scores, strict=False)]
        side_previews.append(
            SidePreview(
                scored.score,
                scored.items,
                scored.canastas,
                per_player,
                after,
                [_total_text(total) for total in after],
                _keep(state.rules, side, scored),
            )
        )
        _field_info(state.rules, state.players, side, scored, entry, notes)
    return Preview(
        side_previews, notes, bool(problems), entry, checked, said_text(form, side_previews)
    )


def said_text(form: HandForm, sides: list[SidePreview]) -> str:
    """ "Anna & Ben +630 this hand, 1,260 points in total; …": told to screen readers when the
    preview changes (notices.js, part 4); a side's players each when they score their own."""
    said = []
    for side, scored in zip(form.sides, sides, strict=True):
        if scored.score is None or not scored.totals_after:
            continue
        if scored.player_scores and len(scored.totals_after) > 1:
            said += [
                names.said_hand(name, score, total)
                for name, score, total in zip(
                    side.players, scored.player_scores, scored.totals_after, strict=False
                )
            ]
        else:
            said.append(names.said_hand(side.name, scored.score, scored.totals_after[0]))
    return "; ".join(said) + ("." if said else "")


def _keep(rs: RuleSet, side: SideForm, scored: Any) -> dict[str, int]:
    """What switching this side to another way of entering it keeps: its score as the total
    (adjustments apart: they stay in their own fields), and from card by card the quick
    counts. A total cannot be split, so it gives nothing."""
    if side.mode is Mode.TOTAL or side.is_empty():
        return {}
    items = scored.items
    keep = {"total": scored.score - items.get("adjustments", 0)}
    if side.mode is Mode.DETAIL:
        threes = scored.details.get("black_threes_in_hand", 0)
        if "black_threes_in_hand" in scored.details:
            penalty = threes * rs.black_three_in_hand_penalty
            keep["hand_points"] = -items.get("in_hand", 0) - penalty
        keep.update(
            natural_canastas=scored.canastas.get("natural", 0),
            mixed_canastas=scored.canastas.get("mixed", 0),
            wild_canastas=scored.canastas.get("wild", 0),
            meld_points=abs(items.get("melded_cards", 0)),
            black_threes_in_hand=threes,
        )
    return keep


def _unique(problems: list[Problem]) -> list[Problem]:
    seen = set()
    out = []
    for p in problems:
        key = (p.code, p.where, repr(sorted(p.params.items(), key=str)))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _field_info(
    rs: RuleSet, players: int, side: SideForm, scored: Any, entry: Entry, notes: Notes
) -> None:
    """Quiet information under the fields: what each meld and hand is worth."""
    p = side.prefix
    if side.mode is Mode.TOTAL:
        return
    if side.mode is Mode.DETAIL:
        for meld, f in zip(scored.melds, entry.meld_fields[side.index], strict=False):
            slot = f"{p}-m{f}"
            if slot in notes or not meld.legal:
                continue
            kind = canasta_label(rs, meld) if meld.is_canasta else None
            notes.add(
                slot, _meld_note(len(meld.cards), kind, meld.points, meld.bonus), NoteKind.INFO
            )
        team = entry.teams[side.index]
        for h, cards in enumerate(team.get("hands") or []):
            slot = f"{p}-h{h}"
            if slot in notes or not cards:
                continue
            held = held_points(rs, [Card(r) for r in cards])  # as the hand alone would score
            notes.add(slot, _hand_note(len(cards), held), NoteKind.INFO)
    else:
        total = sum(scored.canastas.values())
        if total and f"{p}-q-canastas" not in notes:
            notes.add(f"{p}-q-canastas", canastas_text(total), NoteKind.INFO)
        for kind, total in entry.sums[side.index].items():
            slot = f"{p}-q-{kind}"
            if slot not in notes:
                notes.add(slot, _counted(total), NoteKind.INFO)
        # say what is subtracted for the cards left in hand, black threes apart.
        quick = entry.teams[side.index].get("quick") or {}
        threes, points = quick.get("black_threes_in_hand"), quick.get("hand_points")
        slot = f"{p}-q-black_threes_in_hand"
        if isinstance(threes, int) and threes > 0 and slot not in notes:
            notes.add(
                slot,
                _(
                    "Subtracted: %(points)s + %(count)s × %(each)s = %(total)s",
                    points=number(points if isinstance(points, int) else 0),
                    count=number(threes),
                    each=number(rs.black_three_in_hand_penalty),
                    total=number(scored.items.get("in_hand", 0)),
                ),
                NoteKind.INFO,
            )


# The notes a preview repeats on every keystroke, worded once per language.


@per_language
def _meld_note(cards: int, kind: str | None, points: int, bonus: int) -> str:
    """A legal meld: "7 cards · natural canasta: 350 + 500", or "3 cards · 30 points"."""
    if kind is None:
        return f"{count_cards(cards)} · {points_text(points)}"
    return _(
        "%(cards)s · %(kind)s canasta: %(points)s + %(bonus)s",
        cards=count_cards(cards),
        kind=canasta_kind(kind),
        points=number(points),
        bonus=number(bonus),
    )


@per_language
def _hand_note(cards: int, points: int) -> str:
    """Cards left in one hand: "2 cards · −10"."""
    return f"{count_cards(cards)} · {number(points)}"


def _total_text(total: int) -> str:
    """ "total 1,250": every keystroke brings new totals, so the words are kept, not the text."""
    return _total_words() % {"total": number(total)}


@per_language
def _total_words() -> str:
    return _("total %(total)s")


@dataclass(frozen=True)
class ShownSide:
    """One side of the preview fragment as games/_preview.html writes it, worded in Python:
    a preview is sent on every keystroke, and each lookup, filter and loop variable of a
    template costs it more than the same step in Python."""

    prefix: str
    name: str
    score: str | None  # the hand's score, signed (None: nothing to score yet)
    after: str | None  # the side's total after the hand, when the side has one column
    # each player's own score and total after it, when partners score apart (cutthroat), and
    # what follows the player in the side's line (" · ", after the last nothing: the template
    # then needs no loop state)
    players: list[tuple[str, str, str | None, str]]
    items: list[tuple[str, str]]  # the breakdown's label and signed value, zeros left out
    # the data-keep-… attributes, sorted, written here: names of the form's fields (dashed)
    # and whole numbers, nothing a reader typed; one value for the template instead of a loop
    keep: Markup


def shown_sides(
    form: HandForm, view: Preview, labels: Mapping[str, str], order: tuple[str, ...]
) -> list[ShownSide]:
    """The sides of the fragment: the same HTML as the hand form's ``summary`` and
    ``side_score`` macros write (tests/web/games/test_preview_speed.py holds them equal)."""
    shown = []
    for side, scored in zip(form.sides, view.sides, strict=True):
        after = scored.after
        named = (
            list(zip(side.players, scored.player_scores, strict=False))
            if scored.player_scores
            else []
        )
        players = [
            (
                name,
                signed(score),
                after[i] if i < len(after) else None,
                " · " if i < len(named) - 1 else "",
            )
            for i, (name, score) in enumerate(named)
        ]
        items = scored.items
        shown.append(
            ShownSide(
                side.prefix,
                side.name,
                None if scored.score is None else signed(scored.score),
                after[0] if len(after) == 1 else None,
                players,
                [(labels[key], signed(items[key])) for key in order if items.get(key)],
                _keep_attributes(scored.keep),
            )
        )
    return shown


def _keep_attributes(keep: dict[str, int]) -> Markup:
    """`` data-keep-meld-points="160" …``: what a switch of the side's way of entering keeps."""
    return Markup(
        "".join(
            f' data-keep-{key.replace("_", "-")}="{int(value)}"'
            for key, value in sorted(keep.items())
        )
    )


def noted_slots(slots: list[str], notes: Notes) -> list[tuple[str, list[Note]]]:
    """The slots that have notes, in the form's order, with their notes: only they travel."""
    return [(slot, notes[slot]) for slot in slots if slot in notes and notes[slot]]


@per_language
def preview_words() -> dict[str, str]:
    """The fixed words of the preview fragment (games/_preview.html)."""
    return {"check": _("Check the red notes"), "this_hand": _("This hand")}


@per_language
def _counted(points: int) -> str:
    return _("Counted: %(points)s", points=number(points))


canastas_text = per_language(names.canastas_text)
