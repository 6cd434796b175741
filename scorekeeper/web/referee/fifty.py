"""The referee of "3 ist 50" (docs/rulebook.md §7, seed 001): "What may I play?" at ``GET
/fifty/referee``.

The question sits in the query string (shareable, works without JavaScript); htmx answers it
live with the ``fifty/_referee_answer.html`` fragment. The routes live on the ``referee``
blueprint (endpoint ``referee.fifty``) beside the Canasta referee.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from dataclasses import dataclass, field

from flask import Response, make_response, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ...rules import fifty as rules
from ...rules.problems import Problem
from ..app import htmx
from ..fifty.forms import DEFAULT_PLAYERS, MAX_TEXT, PAD, PLAYER_SEATS, cards_text, describe
from ..play import pages
from ..play.notes import Notes
from ..words.messages import message
from ..words.names import card_label
from .routes import bp

# ---- the referee: "What may I play?" ---------------------------------------------------------
CASES = ("middle", "own_pile", "any_pile", "discard")


def case_titles() -> dict[str, str]:
    """The four cases of seed 001 "Ausspielen von Karten", in its order."""
    return {
        "middle": _("Case 1: middle or discard pile"),
        "own_pile": _("Case 2: your own minus pile"),
        "any_pile": _("Case 3: any minus pile"),
        "discard": _("Case 4: onto the discard pile"),
    }


def case_rules() -> dict[str, str]:
    """The short rules section of the referee page; answers quote it."""
    return {
        "middle": _(
            "A hand card of the same rank as one or more of the middle cards or the "
            "top card of the discard pile: it and all those cards go onto the minus "
            "pile of your left neighbour. Suits never matter."
        ),
        "own_pile": _(
            "A hand card of the same rank as the top card of your own minus pile: "
            "it and the cards of that rank lying on top of your pile without a "
            "break go onto the minus pile of your left neighbour. Covered cards "
            "stay."
        ),
        "any_pile": _(
            "A hand card of the same rank as the top card of any minus pile (your "
            "own and your neighbour's too) may go onto that pile."
        ),
        "discard": _(
            "Only when no hand card matches a middle card, the discard pile's top "
            "card or the top of a minus pile, one card goes onto the discard pile."
        ),
    }


@dataclass
class MoveText:
    """3 ist 50: one legal move of a card, in words."""

    kind: str
    text: str


@dataclass
class CardAnswer:
    """3 ist 50: what the referee says of one card in hand: its moves, or why none."""

    rank: str
    label: str
    allowed: bool
    moves: list[MoveText]
    why_not: str = ""


@dataclass
class RefereeForm:
    """The 3 ist 50 referee's form, as typed: the players, the middle, the piles and the hand."""

    players: int = DEFAULT_PLAYERS
    player: int = 0
    names: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    middle: str = ""
    top: str = ""
    piles: list[str] = field(default_factory=lambda: [""] * rules.MAX_PLAYERS)
    hand: str = ""

    def name(self, i: int) -> str:
        return (
            self.names[i]
            if i < len(self.names) and self.names[i]
            else _("Player %(num)s", num=i + 1)
        )

    @property
    def empty(self) -> bool:
        return not (
            self.hand.strip()
            or self.middle.strip()
            or self.top.strip()
            or any(p.strip() for p in self.piles)
        )


@dataclass
class RefereeAnswer:
    """The 3 ist 50 referee's answer: each card's moves, or the problems of the form."""

    state: str  # "empty", "problems", "moves"
    cards: list[CardAnswer] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # the cases that occur, in seed order
    notes: Notes = field(default_factory=Notes)


def read_referee(args: MultiDict[str, str]) -> RefereeForm:
    players = pages.read_int(args.get("players"))
    if players not in rules.PLAYERS_ALLOWED:
        players = DEFAULT_PLAYERS
    names = [n[:40].strip() for n in args.getlist("name")[: rules.MAX_PLAYERS]]
    names += [""] * (rules.MAX_PLAYERS - len(names))
    player = pages.read_int(args.get("player")) or 0
    return RefereeForm(
        players=players,
        player=player if 0 <= player < players else 0,
        names=names,
        middle=args.get("middle", "")[:MAX_TEXT],
        top=args.get("top", "")[:MAX_TEXT],
        piles=[args.get(f"pile-{i}", "")[:MAX_TEXT] for i in PLAYER_SEATS],
        hand=args.get("hand", "")[:MAX_TEXT],
    )


def _referee_slot(where: str) -> str:
    m = re.match(r"piles\[(\d+)\]", where)
    if m:
        return f"pile-{m[1]}"
    key = where.split("[")[0].split(".")[0]
    return {"middle": "middle", "discard_top": "top", "hand": "hand"}.get(key, "answer")


def _move_text(move: rules.Move, rf: RefereeForm) -> str:
    card = card_label(move.card)
    left = rules.left_neighbour(rf.player, rf.players)
    if move.kind == "middle":
        return _(
            "Play %(card)s: it and %(taken)s from the middle go onto the minus pile of "
            "%(name)s, your left neighbour.",
            card=card,
            taken=cards_text(move.cards[1:]),
            name=rf.name(left),
        )
    if move.kind == "own_pile":
        return ngettext(
            "Play %(card)s: it and the %(card)s on top of your own minus pile go "
            "onto the minus pile of %(name)s, your left neighbour.",
            "Play %(card)s: it and the %(num)s × %(card)s on top of your own "
            "minus pile go onto the minus pile of %(name)s, your left neighbour.",
            len(move.cards) - 1,
            card=card,
            name=rf.name(left),
        )
    if move.kind == "any_pile":
        if move.to_pile == rf.player:
            return _("Play %(card)s onto your own minus pile.", card=card)
        return _(
            "Play %(card)s onto the minus pile of %(name)s.",
            card=card,
            name=rf.name(move.to_pile if move.to_pile is not None else left),
        )
    return _("Put %(card)s onto the discard pile.", card=card)


@dataclass
class Table:
    """The table of a question, read: game ranks per zone, or the problems found."""

    middle: list[str]
    top: str | None
    piles: list[list[str]]
    hand: list[str]
    problems: list[Problem]


def read_table(rf: RefereeForm) -> Table:
    """The typed fields read as cards (seed 001 notation), checked against what is dealt."""
    problems: list[Problem] = []

    def cards(text: str, where: str) -> list[str]:
        read, found = rules.read_cards(text, where)
        problems.extend(found)
        return read

    middle = cards(rf.middle, "middle")
    piles = [cards(text, f"piles[{i}]") for i, text in enumerate(rf.piles[: rf.players])]
    hand = cards(rf.hand, "hand")
    problems.extend(rules.dealt_problems(middle, hand))
    top = None
    if rf.top.strip():
        top, found = rules.read_card(rf.top.strip(), "discard_top")
        problems.extend(found)
    if not problems:
        # Only a table read without problems is counted against the deck.
        everything = [*piles, middle, hand, [] if top is None else [top]]
        problems.extend(rules.card_count_problems(everything, rf.players))
    return Table(middle, top, piles, hand, problems)


def referee_answer(rf: RefereeForm) -> RefereeAnswer:
    """Every legal move, per hand card, with the case of the seed it falls under."""
    if rf.empty:
        return RefereeAnswer("empty")
    table = read_table(rf)
    if table.problems:
        notes = Notes()
        for p in table.problems:
            notes.add(_referee_slot(p.where), describe(p))
        return RefereeAnswer("problems", notes=notes)
    answer = rules.moves_answer(table.middle, table.top, table.piles, rf.player, table.hand)
    moves = answer.moves
    hand = list(dict.fromkeys(table.hand))
    cards = []
    for rank in hand:
        mine = [MoveText(m.kind, _move_text(m, rf)) for m in moves if m.card == rank]
        why = (
            ""
            if mine
            else _(
                "Not now: another hand card matches, and a card goes to the "
                "discard pile only when none does."
            )
        )
        cards.append(CardAnswer(rank, card_label(rank), bool(mine), mine, why))
    kinds = [k for k in CASES if any(m.kind == k for m in moves)]
    return RefereeAnswer("moves", cards, [message(p) for p in answer.reasons], kinds)


#: The most cards of one run on a minus pile the phone words ahead (``own_pile`` moves).
MAX_RUN = 12


def offline_words(rf: RefereeForm) -> dict[str, object]:
    """The words the phone needs to draw :func:`referee_answer` as
    ``fifty/_referee_answer.html`` draws it, from the engine's JSON answer
    (static/fifty-referee.js): placeholders ``{card}``, ``{taken}``, ``{name}`` filled there."""
    seats = range(rules.MAX_PLAYERS)
    return {
        "question": [_("What may %(name)s play?", name=rf.name(i)) for i in seats],
        "names": [rf.name(i) for i in seats],
        "labels": {r: card_label(r) for r in (*PAD, "3")},
        "hint": _("Enter the cards on the table and your hand; the answer appears here."),
        "joker": _("Joker"),
        "yes": _("Yes"),
        "no": _("No"),
        "check": _("Please check the input"),
        "see_notes": _("See the notes next to the fields."),
        "why_not": _(
            "Not now: another hand card matches, and a card goes to the "
            "discard pile only when none does."
        ),
        "titles": case_titles(),
        "rules": case_rules(),
        "rule": _("Rule: %(section)s", section="{}"),
        "middle": _(
            "Play %(card)s: it and %(taken)s from the middle go onto the minus pile of "
            "%(name)s, your left neighbour.",
            card="{card}",
            taken="{taken}",
            name="{name}",
        ),
        "own_pile": [
            ngettext(
                "Play %(card)s: it and the %(card)s on top of your own minus pile go "
                "onto the minus pile of %(name)s, your left neighbour.",
                "Play %(card)s: it and the %(num)s × %(card)s on top of your own "
                "minus pile go onto the minus pile of %(name)s, your left neighbour.",
                n,
                card="{card}",
                name="{name}",
            )
            for n in range(MAX_RUN + 1)
        ],
        "own": _("Play %(card)s onto your own minus pile.", card="{card}"),
        "any_pile": _(
            "Play %(card)s onto the minus pile of %(name)s.", card="{card}", name="{name}"
        ),
        "discard": _("Put %(card)s onto the discard pile.", card="{card}"),
    }


@bp.get("/fifty/referee")
def fifty() -> Response:
    rf = read_referee(request.args)
    answer = referee_answer(rf)
    fragment = htmx.wants_fragment()
    context = {
        "rf": rf,
        "answer": answer,
        "titles": case_titles(),
        "rules": case_rules(),
        "pad": [(r, card_label(r)) for r in PAD],
        "seats": PLAYER_SEATS,
        "allowed": rules.PLAYERS_ALLOWED,
        "joker": rules.DEFAULT_JOKER,
        "slots": ["middle", "top", "hand"] + [f"pile-{i}" for i in PLAYER_SEATS],
        "offline_words": offline_words(rf),
    }
    template = "fifty/_referee_answer.html" if fragment else "fifty/referee.html"
    response = make_response(render_template(template, **context))
    response.vary.add("HX-Request")
    return response
