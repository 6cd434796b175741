"""The table disputes on the referee page: one tap on the situation ("my partner said no", "the
last card was a red three") asks the engine's ruling (:mod:`scorekeeper.rules.disputes`, the
same functions as ``POST /api/v1/referee/<kind>``); the answer names what it binds, quotes the
rule from the ruleset's page and says how the other rulesets rule.

Each dispute's form sends ``case``: the situation tapped. Optional fields refine it (the top
card and hand with an empty stock, whether the player melded since drawing …).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ...edge.reading import Reader
from ...rules import disputes
from ...rules.cards import Card
from ...rules.disputes import Ruling
from ...rules.problems import Problem
from ...rules.ruleset import PRESETS, RULESET_IDS, RuleSet
from ..words.i18n import number
from ..words.messages import message
from ..words.names import ruleset_title
from .forms import MAX_PROBLEMS, Settings, melds_typed, text_of
from .quotes import RuleQuote, quotes_for

#: The disputes on the page, in the order of its sections.
DISPUTE_QUESTIONS: tuple[str, ...] = disputes.KINDS

#: The situations each dispute offers (the ``case`` its buttons send).
CASES: dict[str, tuple[str, ...]] = {
    "partner-permission": ("yes", "no", "ask"),
    "end-of-stock": ("red_three_last", "red_threes_last", "empty"),
    "black-three-block": ("on_top", "covered"),
    "red-three-from-pile": ("taken",),
    "two-player-draw": ("draw", "one_left", "red_three_of_two", "two_red_threes"),
    "three-is-fifty-deal": ("refill", "last_deal", "dealer", "turn"),
}

#: The short answer heading a ruling, by its first reason code.
HEADLINES: dict[str, Any] = {
    "permission.no_rule": _l("No such rule here"),
    "permission.no_partner": _l("No partner to ask"),
    "permission.may_ask": _l("Yes, you may ask"),
    "permission.draw_first": _l("Not yet"),
    "permission.after_melds": _l("Too late to ask"),
    "permission.asked_before": _l("Not again"),
    "permission.not_able": _l("Not now"),
    "permission.yes": _l("You must go out"),
    "permission.no": _l("You may not go out this turn"),
    "permission.yes_not_able": _l("You cannot go out"),
    "stock.empty_ends": _l("The hand ends"),
    "stock.empty_pile": _l("Take the pile, or the hand ends"),
    "stock.empty_must_take": _l("You must take the pile"),
    "stock.empty_may_take": _l("You may take the pile"),
    "stock.empty_cannot_take": _l("The hand ends"),
    "stock.red_three_last": _l("The hand ends at once"),
    "stock.red_threes_last": _l("The hand ends at once"),
    "stock.last_cards": _l("Draw the last cards"),
    "stock.play_on": _l("Play on"),
    "draw.one_card": _l("A complete draw"),
    "draw.stock": _l("Draw as usual"),
    "draw.count": _l("Draw and discard"),
    "draw.no_two_players": _l("No two-player game"),
    "pile_block.black_three": _l("Stopped for this turn"),
    "pile_block.covered": _l("No longer stopped"),
    "pile_block.none": _l("Not stopped"),
    "pile_block.exception_used": _l("You may take it"),
    "discard_pile.blocked": _l("Blocked"),
    "pile_red_three.no_replacement": _l("No replacement card"),
    "pile_red_three.reading": _l("No replacement card"),
    "pile_red_three.never": _l("This cannot happen here"),
    "fifty_deal.deal": _l("The next deal"),
    "fifty_deal.last_deal": _l("The last deal"),
    "fifty_deal.last_deal_rule": _l("The last deal"),
    "fifty_deal.game_over": _l("No more deals"),
    "fifty_deal.refill": _l("Fill the middle up"),
    "fifty_deal.no_refill": _l("Not during the round"),
    "fifty_deal.dealer": _l("The next dealer"),
    "fifty_deal.in_turn": _l("Yes, your turn"),
    "fifty_deal.out_of_turn": _l("No, not your turn"),
}


@dataclass
class DisputeAnswer:
    """What the page shows for one dispute."""

    state: str = "empty"  # empty, problems, yes, no
    headline: str = ""
    reasons: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    quotes: list[RuleQuote] = field(default_factory=list)
    facts: list[tuple[str, str]] = field(default_factory=list)
    melds: list[list[str]] = field(default_factory=list)
    others: list[tuple[str, str, str, bool]] = field(
        default_factory=list
    )  # id, label, answer, differs


#: Asks a dispute under one ruleset and player count.
AskDispute = Callable[[RuleSet, int], Ruling]


def _flag(values: Mapping[str, str], key: str) -> bool:
    return values.get(key) in ("1", "on", "true", "yes")


def _cards_read(
    values: Mapping[str, str], reader: Reader
) -> tuple[Card | None, list[Card] | None, list[list[Card]]]:
    top = reader.card(text_of(values, "top_card") or None, "top_card")
    hand_text = text_of(values, "hand")
    hand = reader.cards(hand_text, "hand") if hand_text else None
    side_melds = reader.card_lists(melds_typed(text_of(values, "side_melds")), "side_melds")
    return top, hand, side_melds


def _ask_of(question: str, case: str, values: Mapping[str, str], reader: Reader) -> AskDispute:
    """The engine call for a tapped situation (cards read through ``reader``)."""
    if question == "partner-permission":
        answer = {"yes": "yes", "no": "no"}.get(case)
        top, hand, side_melds = _cards_read(values, reader)
        melded = _flag(values, "melded_since_draw")
        asked = _flag(values, "asked_before")
        return lambda rs, n: disputes.partner_permission(
            rs,
            n,
            answer=answer,
            melded_since_draw=melded,
            asked_before=asked,
            hand=hand,
            side_melds=side_melds,
        )
    if question in ("end-of-stock", "two-player-draw"):
        if case == "empty":
            top, hand, side_melds = _cards_read(values, reader)
            frozen = _flag(values, "pile_frozen")
            return lambda rs, n: disputes.end_of_stock(
                rs,
                n,
                stock=0,
                top_card=top,
                pile_frozen=frozen,
                side_melds=side_melds,
                side_has_melded=True,
                hand=hand,
            )
        situations: dict[str, tuple[int | None, list[Card]]] = {
            "red_three_last": (1, [Card("3r")]),
            "red_threes_last": (2, [Card("3r"), Card("3r")]),
            "one_left": (1, [Card("9")]),
            "red_three_of_two": (2, [Card("3r"), Card("9")]),
            "two_red_threes": (2, [Card("3r"), Card("3r")]),
            "draw": (None, []),
        }
        stock, drawn = situations.get(case, (None, []))
        if question == "two-player-draw":
            return lambda rs, n: disputes.two_player_draw(rs, stock=stock, drawn=drawn or None)
        return lambda rs, n: disputes.end_of_stock(rs, n, stock=stock or 0, drawn=drawn)
    if question == "black-three-block":
        pile = [Card("K"), Card("3b")] + ([Card("9")] if case == "covered" else [])
        going_out = _flag(values, "going_out")
        return lambda rs, n: disputes.black_three_block(rs, n, pile, going_out=going_out)
    return lambda rs, n: disputes.red_three_from_pile(rs, n)


def _whole(values: Mapping[str, str], key: str, low: int, high: int, default: int) -> int | None:
    raw = (values.get(key) or "").strip()
    if not raw:
        return default
    if not re.fullmatch(r"[0-9]{1,3}", raw) or not low <= int(raw) <= high:
        return None
    return int(raw)


def _fact_lines(ruling: Ruling) -> list[tuple[str, str]]:
    f = ruling.facts
    yes, no = _("yes"), _("no")
    out: list[tuple[str, str]] = []
    if f.get("hand_ends") is True:
        out.append((_("The hand ends"), yes))
    if "may_meld" in f and f.get("hand_ends") is True:
        out.append((_("May meld"), yes if f["may_meld"] else no))
        out.append((_("May discard"), yes if f["may_discard"] else no))
    if ruling.kind == "partner-permission" and f.get("rule_exists") and f.get("answer"):
        out.append((_("Must go out"), yes if f.get("must_go_out") else no))
        out.append((_("May go out this turn"), yes if f.get("may_go_out") else no))
    if ruling.kind == "two-player-draw" and f.get("draw"):
        out.append((_("Cards drawn from the stock"), number(f["draw"])))
        out.append((_("Cards discarded"), number(f.get("discard") or 1)))
    if ruling.kind == "three-is-fifty-deal":
        if "hand_cards" in f:
            out.append((_("Cards for every player"), number(f["hand_cards"])))
            out.append((_("Cards for the middle"), number(f["middle_refill"])))
            out.append((_("Set aside unplayed"), number(f["set_aside"])))
        if "next_dealer" in f:
            out.append((_("Deals next"), _("player %(n)s", n=number(f["next_dealer"] + 1))))
            out.append((_("Plays first"), _("player %(n)s", n=number(f["first_player"] + 1))))
    return out


def _headline(ruling: Ruling) -> str:
    first = ruling.reasons[0].code if ruling.reasons else ""
    if first == "draw.count":
        return ngettext(
            "Draw %(num)s card, discard one",
            "Draw %(num)s cards, discard one",
            ruling.facts["draw"],
        )
    text = HEADLINES.get(first)
    return str(text) if text is not None else (_("Yes") if ruling.allowed else _("No"))


def _compare(ruling: Ruling) -> tuple[Any, ...]:
    return (ruling.allowed, ruling.reasons[0].code if ruling.reasons else "")


def ask_dispute(question: str, settings: Settings, values: Mapping[str, str]) -> DisputeAnswer:
    """The answer to one dispute's form (empty until a situation is tapped)."""
    answer = DisputeAnswer()
    case = values.get("case", "")
    if case not in CASES.get(question, ()):
        return answer
    if question == "three-is-fifty-deal":
        return _ask_fifty(case, values)
    reader = Reader()
    ask = _ask_of(question, case, values, reader)
    if reader.problems:
        answer.state = "problems"
        answer.problems = [message(p) for p in reader.problems][:MAX_PROBLEMS]
        return answer
    players = 2 if question == "two-player-draw" else settings.players
    if question != "two-player-draw":
        refused = settings.players_refused()
        if refused:
            answer.state = "problems"
            answer.problems = refused
            return answer
    ruling = ask(settings.ruleset, players)
    _fill(answer, ruling, settings.ruleset, players, settings)
    key = _compare(ruling)
    for rid in RULESET_IDS:
        if rid == settings.base.id:
            continue
        preset = PRESETS[rid]
        n = players if players in preset.players_allowed else preset.default_players
        if question == "two-player-draw":
            n = 2
        other = ask(preset, n)
        answer.others.append(
            (rid, ruleset_title(rid, short=True), _headline(other), _compare(other) != key)
        )
    return answer


def _fill(
    answer: DisputeAnswer,
    ruling: Ruling,
    rs: RuleSet | None,
    players: int,
    settings: Settings | None = None,
) -> None:
    answer.state = "yes" if ruling.allowed else "no"
    answer.headline = _headline(ruling)
    answer.reasons = [message(p) for p in ruling.reasons]
    changed = set(settings.ruleset.options_against(settings.base)) if settings else set()
    house = settings.house.text or None if settings else None
    answer.quotes = quotes_for(ruling.reasons, rs, players, changed=changed, house=house)
    answer.facts = _fact_lines(ruling)
    melds = ruling.facts.get("melds")
    if isinstance(melds, list):
        answer.melds = [list(m) for m in melds]


def _ask_fifty(case: str, values: Mapping[str, str]) -> DisputeAnswer:
    answer = DisputeAnswer()
    players = _whole(values, "fifty_players", 2, 6, 4)
    if players is None:
        answer.state = "problems"
        answer.problems = [_("Choose 2 to 6 players.")]
        return answer
    if case == "refill":
        ruling = disputes.fifty_deal(players, "refill", middle=0, round_over=False)
    elif case == "dealer":
        dealer = _whole(values, "dealer", 1, players, 1)
        if dealer is None:
            answer.state = "problems"
            answer.problems = [_("Choose the seat of the last dealer.")]
            return answer
        ruling = disputes.fifty_deal(players, "dealer", dealer=dealer - 1)
    elif case == "turn":
        ruling = disputes.fifty_deal(players, "turn", player=1 % players, turn=0)
    else:
        stock = _whole(values, "stock", 0, 162, -1)
        middle = _whole(values, "middle", 0, 4, 4)
        if stock is None or middle is None:
            answer.state = "problems"
            answer.problems = [
                _("Enter the cards left in the stock (0 to 162) and in the middle (0 to 4).")
            ]
            return answer
        if stock < 0:
            # No count given: the rule itself answers (the last round is dealt evenly).
            ruling = Ruling(
                "three-is-fifty-deal",
                True,
                (Problem("fifty_deal.last_deal_rule", "stock", {}),),
                {},
                disputes.sources_for("three-is-fifty-deal", "three-is-fifty"),
            )
        else:
            ruling = disputes.fifty_deal(players, "deal", stock=stock, middle=middle)
    _fill(answer, ruling, None, players)
    return answer
