""" "What may I do?" on the referee page: the whole situation in one form, every legal move as
the answer (the engine's :func:`scorekeeper.rules.turns.turn_options`, the same function as
``POST /api/v1/referee/options``).

The form is read here into typed cards and flags; each move becomes a :class:`MoveView`:
a title, the melds as card chips, a sentence and the rule it rests on, quoted from the
ruleset's rules page.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Mapping
from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import ngettext

from ...edge.reading import Reader
from ...rules.cards import RANKS
from ...rules.turns import Move, MoveKind, TurnOptions, turn_options
from ..rulebook.book import rule_items, section_titles
from ..words.i18n import current_language
from ..words.messages import message
from ..words.names import card_label, rank_name
from .forms import MAX_PROBLEMS, Settings, melds_typed, parse_score, text_of


@dataclass
class MoveView:
    """One move as the page shows it."""

    kind: str
    title: str
    text: str
    melds: list[list[str]]
    rule_text: str
    rule_title: str
    rule_url: str
    points: int
    discard: str | None = None


@dataclass
class OptionsAnswer:
    """The answer of the options form: moves, notes (why a move is missing), or problems."""

    moves: list[MoveView] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    required: int | None = None
    asked: bool = False
    stock_empty: bool = False  # asked before the draw with the stock used up


def _title(move: Move) -> str:
    if move.kind == MoveKind.TAKE_PILE:
        return _("Take the discard pile")
    if move.kind == MoveKind.INITIAL_MELD:
        if move.variant == "fewest_cards":
            return _("Initial meld keeping the most cards")
        return _("Initial meld with the most points")
    if move.kind == MoveKind.ADD:
        return _("Add to your meld of %(rank)s", rank=rank_name(move.reason.params.get("rank")))
    if move.kind == MoveKind.MELD:
        return _("New melds")
    if move.variant == "concealed":
        return _("Go out concealed")
    return _("Go out")


def _flag(values: Mapping[str, str], key: str) -> bool:
    return values.get(key) in ("1", "on", "true", "yes")


def ask_options(settings: Settings, values: Mapping[str, str]) -> OptionsAnswer:
    """Read the options form and ask the engine; an empty hand asks nothing."""
    answer = OptionsAnswer()
    hand_text = text_of(values, "hand")
    if not hand_text:
        return answer
    score = parse_score(values.get("score"))
    if score is None:
        answer.problems = [_("Enter your side's score as a whole number, such as 1500.")]
        return answer
    reader = Reader()
    hand = reader.cards(hand_text, "hand")
    side_melds = reader.card_lists(melds_typed(text_of(values, "side_melds")), "side_melds")
    top = reader.card(text_of(values, "top_card") or None, "top_card")
    if len(hand) > 30:
        reader.fail("hand.too_many", "hand", maximum=30, count=len(hand))
    if reader.problems:
        answer.problems = [message(p) for p in reader.problems][:MAX_PROBLEMS]
        return answer
    refused = settings.players_refused()
    if refused:
        answer.problems = refused
        return answer
    melded = values.get("side_has_melded", "yes") != "no"
    frozen = _flag(values, "frozen")
    result: TurnOptions = turn_options(
        settings.ruleset,
        settings.players,
        hand,
        side_melds=side_melds if melded else (),
        side_has_melded=melded,
        cumulative_score=score,
        top_card=top,
        pile_has_wild=frozen,
        drawn=_flag(values, "drawn"),
        player_melded_before=_flag(values, "melded_before"),
        # seed 000:133, 002:254, 003:114: with the stock used up there is nothing to draw.
        stock=0 if _flag(values, "stock_empty") else None,
    )
    impossible = [p for p in result.notes if p.code == "card.too_many"]
    if impossible:  # a table the decks cannot make: said as a problem, no moves
        answer.problems = [message(p) for p in impossible][:MAX_PROBLEMS]
        return answer
    answer.stock_empty = _flag(values, "stock_empty") and not _flag(values, "drawn")
    answer.asked = True
    answer.required = result.required
    items = rule_items(
        settings.ruleset, settings.players, set(settings.ruleset.options_against(settings.base))
    )
    titles = section_titles()
    for move in result.moves:
        item = items.get(move.item)
        answer.moves.append(
            MoveView(
                move.kind,
                _title(move),
                message(move.reason),
                [[c.rank for c in m] for m in move.melds],
                item.text if item else "",
                titles.get(move.rule, move.rule),
                settings.rules_url(move.rule),
                move.points,
                move.discard.rank if move.discard else None,
            )
        )
    answer.notes = [message(p) for p in result.notes]
    return answer


#: The most moves the page words "N moves to consider" for ahead (the phone's answer).
MAX_WORDED_MOVES = 60


def options_words(settings: Settings) -> dict[str, object]:
    """The words the phone needs to draw this form's answer as :func:`ask_options` and
    ``referee/_options_answer.html`` draw it, from the engine's JSON answer (static/referee.js):
    the moves' titles, the rule items and section titles of these settings, the card labels."""
    items = rule_items(
        settings.ruleset, settings.players, set(settings.ruleset.options_against(settings.base))
    )
    return {
        "lang": current_language(),
        "titles": {
            "take_pile": _("Take the discard pile"),
            "initial_meld:fewest_cards": _("Initial meld keeping the most cards"),
            "initial_meld": _("Initial meld with the most points"),
            "meld": _("New melds"),
            "go_out:concealed": _("Go out concealed"),
            "go_out": _("Go out"),
        },
        "add": {rank: _("Add to your meld of %(rank)s", rank=rank_name(rank)) for rank in RANKS},
        "labels": {rank: card_label(rank) for rank in RANKS},
        "items": {key: item.text for key, item in items.items()},
        "sections": section_titles(),
        "rules_url": settings.rules_url(),
        "count": [
            ngettext("%(num)s move to consider", "%(num)s moves to consider", n)
            for n in range(MAX_WORDED_MOVES + 1)
        ],
        "required": _(
            "Your side has not melded: its initial meld needs %(minimum)s.", minimum="{}"
        ),
        "stock_empty": _("Nothing to draw: without the discard pile the hand ends."),
        "nothing": _("Nothing to lay down now: draw from the stock and discard."),
        "score": _("Enter your side's score as a whole number, such as 1500."),
        "joker": _("Joker"),
        "red_three": _("Red three"),
        "black_three": _("Black three"),
        "rule": _("Rule: %(section)s", section="{}"),
    }
