"""Problem codes and referee reasons as sentences in the reader's language.

The rules layer returns ``Problem(code, where, params)``; this module is the one place that
turns a code into words (pages, API ``message`` fields and PDF labels all call it, and the
phone's engine: it is pure Python, see :mod:`.words`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules.explain import rule_item
from ..rules.problems import Problem
from ..rules.referee import rule_anchor
from . import reasons
from .disputes import DISPUTE_MESSAGES
from .names import (
    canasta_kind,
    card_label,
    rank_name,
    special_hand_name,
)
from .words import gettext as _
from .words import ngettext

MESSAGES: dict[str, Callable[[dict[str, Any]], str]] = {
    "card.unknown": lambda p: (
        _(
            "A three needs its colour: 3h or 3d (\u2665 \u2666) for a red three, 3s or 3c "
            "(\u2660 \u2663) for a black three."
        )
        if p.get("reason") == "three_colour"
        else _("Unknown card \u201c%(token)s\u201d.", token=p.get("token", ""))
    ),
    "card.too_many": lambda p: _(
        "%(count)s cards of %(rank)s entered, but the decks hold only %(maximum)s.",
        count=reasons.number_param(p, "count"),
        rank=rank_name(p.get("rank")),
        maximum=reasons.number_param(p, "maximum"),
    ),
    "meld.too_small": lambda p: ngettext(
        "A meld needs at least %(num)s card (this one has %(size)s).",
        "A meld needs at least %(num)s cards (this one has %(size)s).",
        int(p.get("minimum", 3)),
        size=reasons.number_param(p, "size"),
    ),
    "meld.too_large": lambda p: _(
        "A meld holds at most %(maximum)s cards (this one has %(size)s).",
        maximum=reasons.number_param(p, "maximum"),
        size=reasons.number_param(p, "size"),
    ),
    "meld.mixed_ranks": lambda p: _("A meld holds natural cards of one rank only."),
    "meld.too_many_wild": lambda p: _(
        "A meld may hold at most %(maximum)s wild cards (this one has %(wilds)s).",
        maximum=reasons.number_param(p, "maximum"),
        wilds=reasons.number_param(p, "wilds"),
    ),
    "meld.too_few_natural": reasons.too_few_natural,
    "meld.red_three": lambda p: _(
        "Red threes are never melded: they are laid out and score as bonus cards."
    ),
    "meld.black_threes": reasons.black_threes,
    "meld.same_rank_twice": lambda p: _(
        "A side has only one meld of each rank: melds %(first)s "
        "and %(second)s are both %(rank)s and belong together.",
        first=reasons.number_param(p, "first"),
        second=reasons.number_param(p, "second"),
        rank=rank_name(p.get("rank")),
    ),
    "meld.legal": lambda p: _(
        "Legal meld of %(rank)s: %(naturals)s natural, %(wilds)s wild, worth %(points)s.",
        rank=rank_name(p.get("rank")),
        naturals=reasons.number_param(p, "naturals"),
        wilds=reasons.number_param(p, "wilds"),
        points=reasons.number_param(p, "points"),
    ),
    "meld.black_threes_going_out": lambda p: _(
        "Legal only as the last meld when going out: %(size)s black threes, worth %(points)s. "
        "Black threes are no canasta.",
        size=reasons.number_param(p, "size"),
        points=reasons.number_param(p, "points"),
    ),
    "initial_meld.possible": lambda p: (
        _(
            "Fewest cards: these melds count %(counted)s of the %(required)s needed and keep the "
            "most cards in hand.",
            counted=reasons.number_param(p, "counted"),
            required=reasons.number_param(p, "required"),
        )
        if p.get("variant") == "fewest_cards"
        else _(
            "Most points: these melds count %(counted)s of the %(required)s needed.",
            counted=reasons.number_param(p, "counted"),
            required=reasons.number_param(p, "required"),
        )
    ),
    "meld.add": lambda p: (
        (
            _(
                "Your %(rank)s from hand (%(cards)s) join your side's meld of that rank; up to "
                "%(wilds)s of your wild cards could join it too.",
                cards=reasons.number_param(p, "cards"),
                rank=rank_name(p.get("rank")),
                wilds=reasons.number_param(p, "wilds"),
            )
            if p.get("wilds")
            else _(
                "Your %(rank)s from hand (%(cards)s) join your side's meld of that rank.",
                cards=reasons.number_param(p, "cards"),
                rank=rank_name(p.get("rank")),
            )
        )
        if p.get("cards")
        else _(
            "Up to %(wilds)s of your wild cards could join your side's meld of %(rank)s.",
            wilds=reasons.number_param(p, "wilds"),
            rank=rank_name(p.get("rank")),
        )
    ),
    "meld.new": lambda p: ngettext(
        "A new meld from your hand, worth %(points)s.",
        "New melds from your hand, worth %(points)s.",
        int(p.get("melds", 1)),
        points=reasons.number_param(p, "points"),
    ),
    "going_out.possible": reasons.going_out_possible,
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
        points=reasons.number_param(p, "points"),
        bonus=reasons.number_param(p, "bonus"),
    ),
    "going_out.not_enough_canastas": lambda p: ngettext(
        "Going out needs %(num)s canasta; the side has %(have)s.",
        "Going out needs %(num)s canastas; the side has %(have)s.",
        int(p.get("needed", 1)),
        have=reasons.number_param(p, "have"),
    ),
    "going_out.two_sides": lambda p: _("Only one side can go out in a hand."),
    "going_out.concealed": reasons.concealed,
    "going_out.cards_in_hand": lambda p: _(
        "The side went out, yet every player of it still has cards in hand."
    ),
    "going_out.allowed": reasons.going_out_allowed,
    "red_threes.too_many": lambda p: _(
        "%(count)s red threes entered, but the decks hold only %(maximum)s.",
        count=reasons.number_param(p, "count"),
        maximum=reasons.number_param(p, "maximum"),
    ),
    "initial_meld.below_minimum": lambda p: _(
        "The initial meld counts %(counted)s, but the side needs %(required)s.",
        counted=reasons.number_param(p, "counted"),
        required=reasons.number_param(p, "required"),
    ),
    "initial_meld.reached": lambda p: _(
        "The initial meld counts %(counted)s and reaches the %(required)s needed.",
        counted=reasons.number_param(p, "counted"),
        required=reasons.number_param(p, "required"),
    ),
    "discard_pile.blocked": reasons.blocked,
    "discard_pile.frozen": reasons.frozen,
    "discard_pile.frozen_by": lambda p: _("Only a wild card or a red three freezes the pile."),
    "discard_pile.no_meld": lambda p: _(
        "No meld for the top card: you need two %(rank)s from "
        "your hand, one and a wild card, or your side's meld of "
        "%(rank)s.",
        rank=rank_name(p.get("rank")),
    ),
    "discard_pile.allowed": reasons.allowed_pile,
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
        maximum=reasons.number_param(p, "maximum"),
        count=reasons.number_param(p, "count"),
    ),
    "middle.too_many": lambda p: _(
        "At most %(maximum)s cards lie in the middle (%(count)s entered).",
        maximum=reasons.number_param(p, "maximum"),
        count=reasons.number_param(p, "count"),
    ),
    "piles.count": lambda p: _(
        "%(piles)s minus piles for %(players)s players: give one pile per player.",
        piles=reasons.number_param(p, "piles"),
        players=reasons.number_param(p, "players"),
    ),
    "name.invalid": lambda p: _(
        "A name has 1 to %(maximum)s characters.", maximum=reasons.number_param(p, "maximum")
    ),
    "name.not_visible": lambda p: _("A name needs at least one letter or digit that shows."),
    "sides.count": lambda p: _(
        "With %(players)s players the game has %(allowed)s sides, not %(sides)s.",
        players=reasons.number_param(p, "players"),
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        sides=reasons.number_param(p, "sides"),
    ),
    "sides.size": lambda p: _(
        "Side %(side)s needs %(size)s players, not %(have)s.",
        side=reasons.number_param(p, "side"),
        size=reasons.number_param(p, "size"),
        have=reasons.number_param(p, "have"),
    ),
    "hand.lone_player": lambda p: _("Name the player who played alone in this hand."),
    "hand.alone_went_out": lambda p: _(
        "Everyone plays alone only when the stock runs out before anyone took the pile. "
        "%(name)s went out before the pile was taken, so %(name)s played alone: choose "
        "%(name)s as the player who took the pile first.",
        name=p.get("name", ""),
    ),
    "red_threes.per_partner": lambda p: _(
        "Enter the red threes of each partner separately: one number per partner."
    ),
    "hand.stock_out_went_out": lambda p: _("The stock ran out, so nobody went out in this hand."),
    "hand.not_last": lambda p: _(
        "Only the last hand (%(last)s) can be deleted.", last=reasons.number_param(p, "last")
    ),
    "game.finished": lambda p: _("This game is over: correct a hand or start a new game."),
    "hand.undo_expired": lambda p: _("The deleted hand can no longer be brought back."),
    "hand.red_three": lambda p: _(
        "A red three in a hand: red threes are laid out at once; count "
        "it among the side's red threes."
    ),
    "hands.too_many_players": lambda p: _(
        "More hands than players on this side (%(hands)s, at most %(maximum)s).",
        hands=reasons.number_param(p, "hands"),
        maximum=reasons.number_param(p, "maximum"),
    ),
    "teams.count": lambda p: _(
        "With %(players)s players a hand has %(allowed)s sides, not %(teams)s.",
        players=reasons.number_param(p, "players"),
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        teams=reasons.number_param(p, "teams"),
    ),
    "players.no_such_player": lambda p: _(
        "Player %(player)s is not at this table: its players are numbered 0 to %(maximum)s.",
        player=reasons.number_param(p, "player"),
        maximum=reasons.number_param(p, "maximum"),
    ),
    "players.not_allowed": lambda p: _(
        "This ruleset is played by %(allowed)s players, not %(players)s.",
        allowed=" / ".join(str(a) for a in p.get("allowed", [])),
        players=reasons.number_param(p, "players"),
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
        step=reasons.number_param(p, "step"),
        value=reasons.number_param(p, "value"),
    ),
    "quick.meld_points_low": lambda p: _(
        "The canastas alone hold at least %(minimum)s points of "
        "cards, more than the %(value)s entered.",
        minimum=reasons.number_param(p, "minimum"),
        value=reasons.number_param(p, "value"),
    ),
    "quick.melded": lambda p: _("A side with melded cards or canastas has melded."),
    "total.not_multiple_of_5": lambda p: _(
        "Every Canasta score is a multiple of 5; %(value)s cannot be right.",
        value=reasons.number_param(p, "value"),
    ),
    "total.below_going_out": lambda p: _(
        "Going out alone brings at least %(minimum)s (the bonus and the canastas it needs); "
        "is %(value)s right?",
        minimum=reasons.number_param(p, "minimum"),
        value=reasons.number_param(p, "value"),
    ),
    "request.total_and_detail": lambda p: _(
        "A side entered as its total has nothing else but who went out and adjustments."
    ),
    "request.invalid_json": lambda p: _("The request is not readable JSON."),
    "request.type": lambda p: (
        _("\u201c%(field)s\u201d has the wrong type of value.", field=p["field"])
        if p.get("field")
        else _("Wrong type of value here.")
    ),
    "request.missing": lambda p: (
        _("\u201c%(field)s\u201d is missing.", field=p["field"])
        if p.get("field")
        else _("A value is missing here.")
    ),
    "request.value": lambda p: _("This value is out of range."),
    "entry.reused": lambda p: _(
        "This entry was saved before with other content; nothing was changed. Look at the "
        "game: what it saved first is there."
    ),
    "entry.deleted": lambda p: _(
        "What this entry saved (number %(number)s) has been deleted since, so it was not saved "
        "again. To enter it anew, save it as a new entry.",
        number=reasons.number_param(p, "number"),
    ),
    "request.entry_id": lambda p: _(
        "An entry id is %(minimum)s to %(maximum)s letters, digits, “_” or “-”.",
        minimum=reasons.number_param(p, "minimum"),
        maximum=reasons.number_param(p, "maximum"),
    ),
    "request.too_large": lambda p: _(
        "Too much input: at most %(limit)s entries.", limit=reasons.number_param(p, "limit")
    ),
    "request.not_found": lambda p: _("There is nothing at this address."),
    "request.method": lambda p: _("This address does not answer to that method."),
    "request.invalid": lambda p: _("The request could not be handled."),
    "request.text_too_long": lambda p: _(
        "Too long: at most %(maximum)s characters.", maximum=reasons.number_param(p, "maximum")
    ),
    "request.detail_and_quick": lambda p: _("Enter a side either in detail or quickly, not both."),
    # what the server refuses, and why
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
        "This hand is too large to store (at most %(limit)s bytes).",
        limit=reasons.number_param(p, "limit"),
    ),
    "request.conflict": lambda p: _(
        "Someone changed the same thing at the same moment, so nothing was saved. Look at it "
        "again and try once more."
    ),
    "service.unavailable": lambda p: _(
        "The scorekeeper cannot reach its database just now; nothing was saved. A hand being "
        "saved stays on this phone and is sent by itself once the database is back."
    ),
    "request.busy": lambda p: _(
        "The score sheet is busy. Nothing was saved yet: try again in a moment."
    ),
    "game.not_found": lambda p: _("There is no such game."),
    "game.version_conflict": lambda p: _(
        "Someone else changed this game in the meantime. Reload to see both changes."
    ),
    "hand.not_found": lambda p: _("There is no such hand in this game."),
    # live updates (web/live): a client over its share of open streams, or the server full
    "stream.too_many": lambda p: _(
        "This device already follows too many pages live. Close a few tabs; "
        "until then this page refreshes every few seconds."
    ),
    "stream.busy": lambda p: _(
        "The server follows as many pages live as it can. This page refreshes every few "
        "seconds meanwhile."
    ),
    "side.read_only": lambda p: _(
        "This is a side's link: it enters that side's part of the hand being played. "
        "Saved hands are changed on the scorekeeper's phone."
    ),
    "side.other": lambda p: _(
        "This link belongs to another side: each side enters only its own part."
    ),
    "view.read_only": lambda p: _("This link only shows the game: it changes nothing."),
    "side.not_found": lambda p: _("This game has no such side."),
    "part.no_sides": lambda p: _(
        "In this game the sides change every hand, so the hand is entered whole."
    ),
    "part.hand_saved": lambda p: _(
        "Hand %(hand)s was saved in the meantime. Your part was not stored: "
        "check the saved hand, then enter the next one.",
        hand=reasons.number_param(p, "hand"),
    ),
    "part.changed": lambda p: _(
        "Another phone of your side (%(name)s) changed your part in the meantime: it is in "
        "the list of parts below. What you typed is still here; Save again to replace it.",
        name=str(p.get("name", "")),
    ),
    "part.hand_unknown": lambda p: _(
        "Hand %(hand)s is not being played yet: hand %(open)s is.",
        hand=reasons.number_param(p, "hand"),
        open=reasons.number_param(p, "open"),
    ),
}


def message(problem: Problem, name_field: bool = False) -> str:
    """The sentence for a problem, in the current locale (``name_field``: a request problem
    names the field it is about, as the JSON API's reader wrote it)."""
    render = MESSAGES.get(problem.code)
    if render is None:
        return problem.code
    params = problem.params
    if name_field and problem.code in ("request.missing", "request.type") and problem.where:
        # Name the field the reader sent (or left out), in the request's own terms.
        params = {"field": problem.where, **params}
    try:
        return render(params)
    except (KeyError, ValueError, TypeError):
        return problem.code


def problem_json(problem: Problem, with_rule: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": problem.code,
        "message": message(problem, name_field=True),
        "where": problem.where,
    }
    if problem.params:
        out["params"] = dict(problem.params)
    if with_rule:
        out["rule"] = rule_anchor(problem.code)
        # The rules-page item the reason rests on, read from the reason itself.
        out["rule_item"] = rule_item(problem.code, problem.params)
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


# docs/rulebook.md §6 (Modern American Canasta): its own problems.
MESSAGES.update(
    {
        "meld.too_many_cards": lambda p: _(
            "A meld holds at most %(maximum)s cards (this one has %(size)s).",
            maximum=reasons.number_param(p, "maximum"),
            size=reasons.number_param(p, "size"),
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
        "discard_pile.meld_too_large": lambda p: ngettext(
            "The top card joins your side's meld of %(rank)s only while it holds at most "
            "%(num)s card; it holds %(size)s.",
            "The top card joins your side's meld of %(rank)s only while it holds at most "
            "%(num)s cards; it holds %(size)s.",
            int(p.get("maximum", 4)),
            rank=rank_name(p.get("rank")),
            size=reasons.number_param(p, "size"),
        ),
        "red_threes.players": lambda p: ngettext(
            "Red threes are given for %(num)s player, but the number of hands listed is "
            "%(hands)s: give one number per player's hand.",
            "Red threes are given for %(num)s players, but the number of hands listed is "
            "%(hands)s: give one number per player's hand.",
            int(p.get("red_threes", 2)),
            hands=reasons.number_param(p, "hands"),
        ),
        "meld.new_not_clean": lambda p: ngettext(
            "After the side's initial meld, a new meld takes no wild card until it holds "
            "%(num)s natural card.",
            "After the side's initial meld, a new meld takes no wild card until it holds "
            "%(num)s natural cards.",
            int(p.get("minimum", 5)),
        ),
        # docs/rulebook.md §5: never a single card left unless going out.
        "meld.one_card_left": lambda p: _(
            "A move that would leave you a single card is not offered: unless your side can go "
            "out, keep at least two cards after melding, one to discard and one to play on."
        ),
        "quick.not_in_rules": lambda p: _("These rules do not score this."),
    }
)


# docs/rulebook.md §7 (3 ist 50): a stored game's entry, through the games API.
MESSAGES["three_is_fifty.points_over_deck"] = lambda p: _(
    "Together %(points)s minus points: more than the whole deck holds (%(maximum)s).",
    points=reasons.number_param(p, "points"),
    maximum=reasons.number_param(p, "maximum"),
)


# Tables of regular players (store.tables).
MESSAGES.update(
    {
        "table.not_found": lambda p: _("There is no such table."),
        "table.players": lambda p: _(
            "A table has %(minimum)s to %(maximum)s players.",
            minimum=reasons.number_param(p, "minimum"),
            maximum=reasons.number_param(p, "maximum"),
        ),
        "table.player_twice": lambda p: _(
            "%(name)s is named twice: each player once.", name=str(p.get("name", ""))[:40]
        ),
        "table.player_unknown": lambda p: _("There is no such player at this table."),
        "table.merge_same": lambda p: _("Pick two different players to merge."),
        "table.delete_unconfirmed": lambda p: _(
            "Tick the box to delete the table: its games go with it."
        ),
        "table.merge_together": lambda p: _(
            "These two played in the same game, so they are two people: not merged."
        ),
        "table.player_merged": lambda p: _(
            "%(name)s was merged into %(keep)s meanwhile (on another phone). Nothing was "
            "changed: look at the table again and choose once more.",
            name=str(p.get("name", ""))[:40],
            keep=str(p.get("keep", ""))[:40],
        ),
        "table.merge_stale": lambda p: _(
            "The merge of %(name)s can no longer be undone: the table's people have changed since.",
            name=str(p.get("name", ""))[:40],
        ),
        "table.merge_unknown": lambda p: _("There is no such merge at this table."),
    }
)


def _seat_number(p: dict[str, Any]) -> str:
    """A participant as the director sees it: numbered from 1 (the engine counts from 0)."""
    value = p.get("participant")
    return (
        str(value + 1) if isinstance(value, int) else str(value if value is not None else "")[:12]
    )


# Club tournaments (store.tournaments) and their seatings (tournament.seating).
MESSAGES.update(
    {
        "tournament.not_found": lambda p: _("There is no such tournament."),
        "tournament.participants": lambda p: _(
            "A tournament has %(minimum)s to %(maximum)s participants.",
            minimum=reasons.number_param(p, "minimum"),
            maximum=reasons.number_param(p, "maximum"),
        ),
        "tournament.player_twice": lambda p: _(
            "%(name)s is named twice: each player once.", name=str(p.get("name", ""))[:40]
        ),
        "tournament.pair": lambda p: _(
            "Participant %(number)s is not a pair: a pair has two names.",
            number=_seat_number(p),
        ),
        "tournament.pairs_table": lambda p: _(
            "Fixed pairs play at tables of %(allowed)s players, not %(players)s.",
            allowed=" / ".join(str(a) for a in p.get("allowed", [])) or "4",
            players=reasons.number_param(p, "players"),
        ),
        "tournament.round_end": lambda p: _(
            "Say when a round ends: after a number of hands, at a target or after minutes."
        ),
        "tournament.round_end_value": lambda p: _(
            "The round's end is a whole number from %(minimum)s to %(maximum)s.",
            minimum=reasons.number_param(p, "minimum"),
            maximum=reasons.number_param(p, "maximum"),
        ),
        "tournament.points": lambda p: _(
            "Match points are whole numbers from %(minimum)s to %(maximum)s.",
            minimum=reasons.number_param(p, "minimum"),
            maximum=reasons.number_param(p, "maximum"),
        ),
        "tournament.points_order": lambda p: _(
            "A win gives at least as many match points as a draw, a draw at least as many as a "
            "loss."
        ),
        "tournament.round_open": lambda p: _(
            "Round %(round)s is still being played: close it, or wait until every table has "
            "reported.",
            round=reasons.number_param(p, "round"),
        ),
        "tournament.round_closed": lambda p: _(
            "Round %(round)s of the tournament is closed: its tables take no new hand. A hand "
            "entered wrongly can still be corrected.",
            round=reasons.number_param(p, "round"),
        ),
        "tournament.round_state": lambda p: _(
            "Round %(round)s cannot be changed like this any more.",
            round=reasons.number_param(p, "round"),
        ),
        "tournament.round_unknown": lambda p: _("There is no such round."),
        "tournament.participant_unknown": lambda p: _("There is no such participant."),
        "tournament.rounds": lambda p: _(
            "A tournament has at most %(maximum)s rounds.",
            maximum=reasons.number_param(p, "maximum"),
        ),
        "tournament.no_time": lambda p: _(
            "Time is called only in rounds that end after a number of minutes."
        ),
        "tournament.nobody": lambda p: _("Too few participants are present to seat a table."),
        "tournament.changed": lambda p: _(
            "The tournament was changed at the same moment. Reload to see the change."
        ),
        "seating.missing": lambda p: _(
            "Participant %(number)s has no seat and no bye.", number=_seat_number(p)
        ),
        "seating.twice": lambda p: _(
            "Participant %(number)s is seated twice.", number=_seat_number(p)
        ),
        "seating.absent": lambda p: _(
            "Participant %(number)s is absent and cannot be seated.", number=_seat_number(p)
        ),
        "seating.unknown": lambda p: _(
            "Participant %(number)s is not in this tournament.", number=_seat_number(p)
        ),
        "seating.table_size": lambda p: _(
            "Table %(table)s has %(size)s players: the ruleset does not allow that.",
            table=reasons.number_param(p, "table"),
            size=reasons.number_param(p, "size"),
        ),
        "seating.side_size": lambda p: _(
            "The sides of table %(table)s are not of equal size.",
            table=reasons.number_param(p, "table"),
        ),
        "seating.numbering": lambda p: _(
            "Tables are numbered 1, 2, 3 … without gaps (table %(table)s).",
            table=reasons.number_param(p, "table"),
        ),
    }
)

# scorekeeper.rules.disputes: the table disputes the referee settles.
MESSAGES.update(DISPUTE_MESSAGES)
