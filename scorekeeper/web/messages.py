"""Problem codes and referee reasons as sentences in the reader's language.

The rules layer returns ``Problem(code, where, params)``; this module is the one place that
turns a code into words (pages, API ``message`` fields and PDF labels all call it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from ..rules.cards import RANKS, Card
from ..rules.problems import Problem
from ..rules.referee import rule_anchor
from ..rules.scoring import ITEM_KEYS
from .i18n import current_language, number


def rank_name(rank: Any, plural: bool = True) -> str:
    """A rank as the reader says it in a sentence (kings / Könige / króle)."""
    names_plural = {
        "A": _("aces"),
        "K": _("kings"),
        "Q": _("queens"),
        "J": _("jacks"),
        "10": _("tens"),
        "9": _("nines"),
        "8": _("eights"),
        "7": _("sevens"),
        "6": _("sixes"),
        "5": _("fives"),
        "4": _("fours"),
        "2": _("twos"),
        "X": _("jokers"),
        "3r": _("red threes"),
        "3b": _("black threes"),
        "wild": _("wild cards"),
    }
    return names_plural.get(str(rank), str(rank))


def card_label(rank: str) -> str:
    """The letter(s) shown on a card button in the reader's language (German B D, Polish W D)."""
    if rank not in RANKS:
        return rank
    return Card(rank).label(current_language())


def ruleset_title(rs: Any, short: bool = False) -> str:
    """The name of a ruleset (a RuleSet or its id) in the reader's language: the one place for
    it (pages, PDF, API). ``short``: the name alone, for segmented controls and comparisons."""
    ruleset_id = rs if isinstance(rs, str) else rs.id
    if short:
        names = {
            "german": _("German"),
            "polish": _("Polish"),
            "classic": _("Classic"),
            "american": _("American"),
            "three-is-fifty": _("3 is 50"),
        }
    else:
        names = {
            "german": _("Canasta (German rules)"),
            "polish": _("Canasta (Polish rules)"),
            "classic": _("Classic Canasta (international)"),
            "american": _("Modern American Canasta"),
            "three-is-fifty": _("3 is 50"),
        }
    return names.get(ruleset_id, ruleset_id if isinstance(rs, str) else rs.name)


def item_labels(short: bool = False, keys: Sequence[str] = ITEM_KEYS) -> dict[str, str]:
    """The label of each item of a hand's score breakdown, keyed and ordered as ``keys``
    (``rules.scoring.ITEM_KEYS``, or ``item_keys(ruleset)`` for a ruleset with more items);
    ``short``: the headings of the PDF's narrow columns."""
    labels = {
        "melded_cards": _("Melded cards"),
        "canasta_bonus": _("Canastas"),
        "red_threes": _("Red threes"),
        "black_threes": _("Black threes"),
        "going_out": _("Going out"),
        "penalties": _("Penalties"),
        "in_hand": _("In hand") if short else _("Left in hand"),
        "special_hand": _("Special hand"),
        "adjustments": _("Adjustment"),  # issue 15
    }
    return {key: labels[key] for key in keys}


def canasta_kind(kind: str) -> str:
    return {"natural": _("natural"), "mixed": _("mixed"), "wild": _("wild")}.get(kind, kind)


def _n(params: dict[str, Any], key: str) -> str:
    value = params.get(key)
    return number(value) if isinstance(value, int) else str(value if value is not None else "")


def _too_few_natural(p: dict[str, Any]) -> str:
    rule = p.get("rule")
    if rule == "wild_incomplete":
        return _(
            "Wild cards alone make a meld only as a complete wild canasta of "
            "%(size)s cards, laid in one turn.",
            size=_n(p, "wild_canasta"),
        )
    if rule == "no_wild_canasta":
        return _("A meld needs natural cards: wild cards alone are no meld in these rules.")
    if rule == "min_natural":
        return ngettext(
            "A meld needs at least %(num)s natural card (this one has %(have)s).",
            "A meld needs at least %(num)s natural cards (this one has %(have)s).",
            int(p.get("minimum", 2)),
            have=_n(p, "naturals"),
        )
    return _(
        "A meld needs at least as many natural cards as wild cards "
        "(%(naturals)s natural, %(wilds)s wild).",
        naturals=_n(p, "naturals"),
        wilds=_n(p, "wilds"),
    )


def _black_threes(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "wild":
        return _("A meld of black threes may not contain wild cards.")
    if reason == "too_many":
        return _("At most %(maximum)s black threes go into one meld.", maximum=_n(p, "maximum"))
    if reason == "laid_out":
        return _(
            "Black threes are never melded here: they are laid out and scored like red threes."
        )
    return _(
        "Black threes may be melded only when going out, %(low)s to %(high)s of them.",
        low=_n(p, "minimum"),
        high=_n(p, "maximum"),
    )


def _concealed(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "melded_before":
        return _(
            "Going out concealed is only for a player who has not melded anything "
            "earlier in this hand."
        )
    if reason == "no_canasta":
        return _(
            "Going out concealed needs at least one complete canasta of the player's own "
            "in that turn."
        )
    if reason == "joined":
        return _(
            "Going out concealed adds nothing to the partner's melds: every card goes "
            "into a new meld of the player's own."
        )
    return _("Only the side that went out can have gone out concealed.")


def _blocked(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    if reason == "black_three":
        return _("A black three on top stops the pile: nobody may take it this turn.")
    if reason == "red_three":
        return _("A red three is never a discard: it is laid out as a bonus card.")
    return _("A wild card on top blocks the pile: nobody may take it until another card covers it.")


def _frozen(p: dict[str, Any]) -> str:
    reason = p.get("reason")
    rank = rank_name(p.get("rank"))
    if reason == "wild":
        why = _("it holds a wild card")
    elif reason == "red_three":
        why = _("a red three was turned up as its first card")
    elif reason == "always":
        return _(
            "In these rules the pile is taken only by melding its top card with two "
            "natural %(rank)s from your hand.",
            rank=rank,
        )
    else:
        why = _("your side has not melded yet")
    return _(
        "The pile is frozen (%(why)s): take it only by melding the top card with two "
        "natural %(rank)s from your hand.",
        why=why,
        rank=rank,
    )


def _allowed_pile(p: dict[str, Any]) -> str:
    how = p.get("how")
    rank = rank_name(p.get("rank"))
    if how == "existing_meld":
        return _("Lay the top card on your side's meld of %(rank)s, then take the pile.", rank=rank)
    if how == "with_wild":
        return _(
            "Meld the top card with one of your %(rank)s and a wild card, then take the pile.",
            rank=rank,
        )
    if how == "black_threes_going_out":
        return _("Meld the black three with your own black threes as you go out.")
    return _(
        "Meld the top card with two natural %(rank)s from your hand, then take the pile.", rank=rank
    )


def _going_out_allowed(p: dict[str, Any]) -> str:
    if p.get("concealed"):
        return _("Going out concealed scores %(bonus)s.", bonus=_n(p, "bonus"))
    text = ngettext(
        "The side has the %(num)s canasta needed; going out scores %(bonus)s.",
        "The side has the %(num)s canastas needed; going out scores %(bonus)s.",
        int(p.get("needed", 1)),
        bonus=_n(p, "bonus"),
    )
    if p.get("discard"):
        text += " " + _("Keep one card for the final discard.")
    return text


def _going_out_possible(p: dict[str, Any]) -> str:
    discard = p.get("discard")
    shown = {"3b": "3\u2660", "3r": "3\u2665"}.get(str(discard), card_label(str(discard)))
    thrown = " " + _("Discard %(card)s last.", card=shown) if discard else ""
    if p.get("concealed"):
        return (
            _(
                "You may go out concealed now: your side scores %(score)s for the hand, before "
                "red threes and your partner's cards.",
                score=_n(p, "score"),
            )
            + thrown
        )
    return (
        _(
            "You may go out now: your side scores %(score)s for the hand, before red threes "
            "and your partner's cards.",
            score=_n(p, "score"),
        )
        + thrown
    )


MESSAGES: dict[str, Callable[[dict[str, Any]], str]] = {
    "card.unknown": lambda p: (
        _("A three needs its colour: 3h or 3d for a red three, 3s or 3c for a black three.")
        if p.get("reason") == "three_colour"
        else _("Unknown card \u201c%(token)s\u201d.", token=p.get("token", ""))
    ),
    "card.too_many": lambda p: _(
        "%(count)s cards of %(rank)s entered, but the decks hold only %(maximum)s.",
        count=_n(p, "count"),
        rank=rank_name(p.get("rank")),
        maximum=_n(p, "maximum"),
    ),
    "meld.too_small": lambda p: ngettext(
        "A meld needs at least %(num)s card (this one has %(size)s).",
        "A meld needs at least %(num)s cards (this one has %(size)s).",
        int(p.get("minimum", 3)),
        size=_n(p, "size"),
    ),
    "meld.too_large": lambda p: _(
        "A meld holds at most %(maximum)s cards (this one has %(size)s).",
        maximum=_n(p, "maximum"),
        size=_n(p, "size"),
    ),
    "meld.mixed_ranks": lambda p: _("A meld holds natural cards of one rank only."),
    "meld.too_many_wild": lambda p: _(
        "A meld may hold at most %(maximum)s wild cards (this one has %(wilds)s).",
        maximum=_n(p, "maximum"),
        wilds=_n(p, "wilds"),
    ),
    "meld.too_few_natural": _too_few_natural,
    "meld.red_three": lambda p: _(
        "Red threes are never melded: they are laid out and score as bonus cards."
    ),
    "meld.black_threes": _black_threes,
    "meld.same_rank_twice": lambda p: _(
        "A side has only one meld of each rank: melds %(first)s "
        "and %(second)s are both %(rank)s and belong together.",
        first=_n(p, "first"),
        second=_n(p, "second"),
        rank=rank_name(p.get("rank")),
    ),
    "meld.legal": lambda p: _(
        "Legal meld of %(rank)s: %(naturals)s natural, %(wilds)s wild, worth %(points)s.",
        rank=rank_name(p.get("rank")),
        naturals=_n(p, "naturals"),
        wilds=_n(p, "wilds"),
        points=_n(p, "points"),
    ),
    "meld.black_threes_going_out": lambda p: _(
        "Legal only as the last meld when going out: %(size)s black threes, worth %(points)s. "
        "Black threes are no canasta.",
        size=_n(p, "size"),
        points=_n(p, "points"),
    ),
    "initial_meld.possible": lambda p: (
        _(
            "Fewest cards: these melds count %(counted)s of the %(required)s needed and keep the "
            "most cards in hand.",
            counted=_n(p, "counted"),
            required=_n(p, "required"),
        )
        if p.get("variant") == "fewest_cards"
        else _(
            "Most points: these melds count %(counted)s of the %(required)s needed.",
            counted=_n(p, "counted"),
            required=_n(p, "required"),
        )
    ),
    "meld.add": lambda p: (
        (
            _(
                "Your %(rank)s from hand (%(cards)s) join your side's meld of that rank; up to "
                "%(wilds)s of your wild cards could join it too.",
                cards=_n(p, "cards"),
                rank=rank_name(p.get("rank")),
                wilds=_n(p, "wilds"),
            )
            if p.get("wilds")
            else _(
                "Your %(rank)s from hand (%(cards)s) join your side's meld of that rank.",
                cards=_n(p, "cards"),
                rank=rank_name(p.get("rank")),
            )
        )
        if p.get("cards")
        else _(
            "Up to %(wilds)s of your wild cards could join your side's meld of %(rank)s.",
            wilds=_n(p, "wilds"),
            rank=rank_name(p.get("rank")),
        )
    ),
    "meld.new": lambda p: ngettext(
        "A new meld from your hand, worth %(points)s.",
        "New melds from your hand, worth %(points)s.",
        int(p.get("melds", 1)),
        points=_n(p, "points"),
    ),
    "going_out.possible": _going_out_possible,
    "going_out.cards_left": lambda p: _(
        "Not every card of this hand can be laid out now, so you cannot go out yet."
    ),
    "going_out.draw_first": lambda p: _(
        "Going out is judged after the draw: tick “I have "
        "drawn already” with the drawn card in your hand."
    ),
    "initial_meld.not_needed": lambda p: _(
        "Your side has melded already: there is no minimum, and the cards join your side's melds."
    ),
    "discard_pile.black_three_exit": lambda p: _(
        "Taking a pile stopped by a black three means "
        "going out at once, but not every card of this "
        "hand can be laid out."
    ),
    "meld.canasta": lambda p: _(
        "Legal %(kind)s canasta: %(points)s for the cards plus a bonus of %(bonus)s.",
        kind=canasta_kind(str(p.get("kind"))),
        points=_n(p, "points"),
        bonus=_n(p, "bonus"),
    ),
    "going_out.not_enough_canastas": lambda p: ngettext(
        "Going out needs %(num)s canasta; the side has %(have)s.",
        "Going out needs %(num)s canastas; the side has %(have)s.",
        int(p.get("needed", 1)),
        have=_n(p, "have"),
    ),
    "going_out.two_sides": lambda p: _("Only one side can go out in a hand."),
    "going_out.concealed": _concealed,
    "going_out.cards_in_hand": lambda p: _(
        "The side went out, yet every player of it still has cards in hand."
    ),
    "going_out.allowed": _going_out_allowed,
    "red_threes.too_many": lambda p: _(
        "%(count)s red threes entered, but the decks hold only %(maximum)s.",
        count=_n(p, "count"),
        maximum=_n(p, "maximum"),
    ),
    "initial_meld.below_minimum": lambda p: _(
        "The initial meld counts %(counted)s, but the side needs %(required)s.",
        counted=_n(p, "counted"),
        required=_n(p, "required"),
    ),
    "initial_meld.reached": lambda p: _(
        "The initial meld counts %(counted)s and reaches the %(required)s needed.",
        counted=_n(p, "counted"),
        required=_n(p, "required"),
    ),
    "discard_pile.blocked": _blocked,
    "discard_pile.frozen": _frozen,
    "discard_pile.no_meld": lambda p: _(
        "No meld for the top card: you need two %(rank)s from "
        "your hand, one and a wild card, or your side's meld of "
        "%(rank)s.",
        rank=rank_name(p.get("rank")),
    ),
    "discard_pile.allowed": _allowed_pile,
    "three_is_fifty.match": lambda p: _(
        "Cards that match: %(ranks)s. Play one of them: it and "
        "the matching cards go onto a minus pile.",
        ranks=", ".join(card_label(str(r)) for r in p.get("ranks", [])),
    ),
    "three_is_fifty.discard_forbidden": lambda p: _(
        "No discarding while a hand card matches: %(ranks)s may not go to the discard pile now.",
        ranks=", ".join(card_label(str(r)) for r in p.get("ranks", [])),
    ),
    "three_is_fifty.no_match": lambda p: _(
        "No hand card matches a middle card, the discard "
        "pile or the top of a minus pile: discard one card."
    ),
    "three_is_fifty.hand_empty": lambda p: _("There is no card in this hand to play."),
    "three_is_fifty.illegal_move": lambda p: _("This move is not allowed."),
    "hand.too_many": lambda p: _(
        "A hand holds at most %(maximum)s cards here (%(count)s entered).",
        maximum=_n(p, "maximum"),
        count=_n(p, "count"),
    ),
    "middle.too_many": lambda p: _(
        "At most %(maximum)s cards lie in the middle (%(count)s entered).",
        maximum=_n(p, "maximum"),
        count=_n(p, "count"),
    ),
    "piles.count": lambda p: _(
        "%(piles)s minus piles for %(players)s players: give one pile per player.",
        piles=_n(p, "piles"),
        players=_n(p, "players"),
    ),
    "name.invalid": lambda p: _(
        "A name has 1 to %(maximum)s characters.", maximum=_n(p, "maximum")
    ),
    "sides.count": lambda p: _(
        "With %(players)s players the game has %(allowed)s sides, not %(sides)s.",
        players=_n(p, "players"),
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        sides=_n(p, "sides"),
    ),
    "sides.size": lambda p: _(
        "Side %(side)s needs %(size)s players, not %(have)s.",
        side=_n(p, "side"),
        size=_n(p, "size"),
        have=_n(p, "have"),
    ),
    "hand.lone_player": lambda p: _("Name the player who played alone in this hand."),
    "red_threes.per_partner": lambda p: _(
        "Enter the red threes of each partner separately: one number per partner."
    ),
    "hand.stock_out_went_out": lambda p: _("The stock ran out, so nobody went out in this hand."),
    "hand.not_last": lambda p: _(
        "Only the last hand (%(last)s) can be deleted.", last=_n(p, "last")
    ),
    "game.finished": lambda p: _("This game is over: correct a hand or start a new game."),
    "hand.undo_expired": lambda p: _("The deleted hand can no longer be brought back."),
    "hand.red_three": lambda p: _(
        "A red three in a hand: red threes are laid out at once; count "
        "it among the side's red threes."
    ),
    "hands.too_many_players": lambda p: _(
        "More hands than players on this side (%(hands)s, at most %(maximum)s).",
        hands=_n(p, "hands"),
        maximum=_n(p, "maximum"),
    ),
    "teams.count": lambda p: _(
        "With %(players)s players a hand has %(allowed)s sides, not %(teams)s.",
        players=_n(p, "players"),
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        teams=_n(p, "teams"),
    ),
    "players.not_allowed": lambda p: _(
        "This ruleset is played by %(allowed)s players, not %(players)s.",
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        players=_n(p, "players"),
    ),
    "ruleset.unknown": lambda p: _(
        "Unknown ruleset \u201c%(ruleset)s\u201d.", ruleset=p.get("ruleset", "")
    ),
    "options.unknown": lambda p: _("Unknown house rule \u201c%(key)s\u201d.", key=p.get("key", "")),
    "options.invalid": lambda p: _(
        "Impossible value for the house rule \u201c%(key)s\u201d.", key=p.get("key", "")
    ),
    "quick.wild_canasta": lambda p: _("These rules have no wild canastas."),
    "quick.points_step": lambda p: _(
        "Card points come in steps of %(step)s; %(value)s cannot be right.",
        step=_n(p, "step"),
        value=_n(p, "value"),
    ),
    "quick.meld_points_low": lambda p: _(
        "The canastas alone hold at least %(minimum)s points of "
        "cards, more than the %(value)s entered.",
        minimum=_n(p, "minimum"),
        value=_n(p, "value"),
    ),
    "quick.melded": lambda p: _("A side with melded cards or canastas has melded."),
    "request.invalid_json": lambda p: _("The request is not readable JSON."),
    "request.type": lambda p: _("Wrong type of value here."),
    "request.missing": lambda p: _("A value is missing here."),
    "request.value": lambda p: _("This value is out of range."),
    "request.too_large": lambda p: _(
        "Too much input: at most %(limit)s entries.", limit=_n(p, "limit")
    ),
    "request.not_found": lambda p: _("There is nothing at this address."),
    "request.method": lambda p: _("This address does not answer to that method."),
    "request.invalid": lambda p: _("The request could not be handled."),
    "request.text_too_long": lambda p: _(
        "Too long: at most %(maximum)s characters.", maximum=_n(p, "maximum")
    ),
    "request.detail_and_quick": lambda p: _("Enter a side either in detail or quickly, not both."),
    # issue 12: what the server refuses, and why
    "request.unknown_key": lambda p: _(
        "Unknown field “%(key)s”: nothing was stored.", key=p.get("key", "")
    ),
    "request.untrusted_host": lambda p: _(
        "This server does not answer to that address. Open it by the address it was started with."
    ),
    "request.cross_site": lambda p: _("Changes from another website are refused."),
    "request.content_type": lambda p: _(
        "Send the changes as JSON (Content-Type: application/json)."
    ),
    "request.rate_limited": lambda p: _(
        "Too many requests from this device. Wait a minute and try again."
    ),
    "hand.too_large": lambda p: _(
        "This hand is too large to store (at most %(limit)s bytes).", limit=_n(p, "limit")
    ),
    "request.busy": lambda p: _(
        "The score sheet is busy. Nothing was saved yet: try again in a moment."
    ),
    "game.not_found": lambda p: _("There is no such game."),
    "game.version_conflict": lambda p: _(
        "Someone else changed this game in the meantime. Reload to see both changes."
    ),
    "hand.not_found": lambda p: _("There is no such hand in this game."),
}


def message(problem: Problem) -> str:
    """The sentence for a problem, in the current locale."""
    render = MESSAGES.get(problem.code)
    if render is None:
        return problem.code
    try:
        return render(problem.params)
    except (KeyError, ValueError, TypeError):
        return problem.code


def problem_json(problem: Problem, with_rule: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": problem.code,
        "message": message(problem),
        "where": problem.where,
    }
    if problem.params:
        out["params"] = dict(problem.params)
    if with_rule:
        out["rule"] = rule_anchor(problem.code)
    return out


def jsonable(value: Any, with_rule: bool = False) -> Any:
    """A rules-layer answer with every Problem turned into ``{code, message, where}``."""
    if isinstance(value, Problem):
        return problem_json(value, with_rule)
    if isinstance(value, dict):
        return {k: jsonable(v, with_rule) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v, with_rule) for v in value]
    return value


def canastas_text(count: int) -> str:
    """ "1 canasta", "3 canastas" — with the reader's plural forms (Polish has three)."""
    return ngettext("%(num)s canasta", "%(num)s canastas", count)


def cards_text(count: int) -> str:
    """ "1 card", "5 cards" in the reader's plural forms."""
    return ngettext("%(num)s card", "%(num)s cards", count)


def points_text(count: int) -> str:
    """ "1 point", "5 points" in the reader's plural forms, number in the reader's format."""
    return ngettext("%(points)s point", "%(points)s points", count, points=number(count))


def special_hand_name(name: str) -> str:
    """A special hand of RULES.md §6 in the reader's language."""
    names = {"straight": _("Straight"), "pairs": _("Pairs"), "garbage": _("Garbage")}
    return names.get(name, name)


# RULES.md §6 (Modern American Canasta): its own problems.
MESSAGES.update(
    {
        "meld.too_many_cards": lambda p: _(
            "A meld holds at most %(maximum)s cards (this one has %(size)s).",
            maximum=_n(p, "maximum"),
            size=_n(p, "size"),
        ),
        "meld.sevens_wild": lambda p: _(
            "Sevens are never mixed: a meld of sevens takes no wild card."
        ),
        "meld.aces_wild": lambda p: _("Aces take wild cards only in the side's initial meld."),
        "special_hand.unknown": lambda p: (
            _(
                "Special hands here: %(hands)s.",
                hands=", ".join(special_hand_name(str(h)) for h in p.get("allowed", [])),
            )
            if p.get("allowed")
            else _("These rules have no special hands.")
        ),
        "special_hand.melded": lambda p: _(
            "A special hand is laid by a side that has melded nothing: leave its melds empty."
        ),
        "black_threes.not_laid_out": lambda p: _("In these rules black threes are not laid out."),
        "quick.not_in_rules": lambda p: _("These rules do not score this."),
    }
)
