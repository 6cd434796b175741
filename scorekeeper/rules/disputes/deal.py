"""3 ist 50: the deal and the turn."""

from __future__ import annotations

from typing import Any

from ..fifty.cards import HAND_SIZE, MIDDLE_SIZE
from ..problems import Problem
from .ruling import Ruling, _src, sources_for

# ---- 3 ist 50: the deal and the turn ---------------------------------------------------------

FIFTY_QUESTIONS = ("deal", "refill", "dealer", "turn")


def fifty_deal(
    players: int,
    question: str = "deal",
    *,
    stock: int | None = None,
    middle: int = MIDDLE_SIZE,
    round_over: bool = True,
    dealer: int | None = None,
    player: int | None = None,
    turn: int | None = None,
) -> Ruling:
    """The deal and the turn order of "3 ist 50" (seed 001:22-30, 001:65).

    ``question``:

    * ``deal`` — the next deal from a stock of ``stock`` cards with ``middle`` cards still in
      the middle: ``hand_cards`` each, ``middle_refill``, ``set_aside`` (seed 001:26), and
      ``last_deal``; ``allowed``: whether there is a deal at all (else the game is over).
    * ``refill`` — may the middle be refilled now? Only at the next deal (seed 001:65):
      ``allowed`` when ``round_over`` (every hand is empty).
    * ``dealer`` — who deals next and who plays first (seed 001:24): ``next_dealer``,
      ``first_player`` (seats counted left-wise, the left neighbour of seat i is i+1).
    * ``turn`` — may ``player`` play while it is ``turn``'s turn? (seed 001:30).

    >>> r = fifty_deal(4, stock=10, middle=1)
    >>> r.facts["hand_cards"], r.facts["middle_refill"], r.facts["set_aside"], r.facts["last_deal"]
    (2, 2, 0, True)
    >>> fifty_deal(3, "turn", player=2, turn=0).allowed
    False
    """
    sources = sources_for("three-is-fifty-deal", "three-is-fifty")
    facts: dict[str, Any] = {"question": question}
    if question == "turn":
        assert player is not None and turn is not None
        ok = player == turn
        facts.update(player=player, turn=turn)
        code = "fifty_deal.in_turn" if ok else "fifty_deal.out_of_turn"
        return Ruling(
            "three-is-fifty-deal",
            ok,
            (Problem(code, "player", {"player": player + 1, "turn": turn + 1}),),
            facts,
            _src("001:30", "001:64"),
        )
    if question == "dealer":
        assert dealer is not None
        nxt = (dealer + 1) % players
        first = (nxt + 1) % players
        facts.update(next_dealer=nxt, first_player=first)
        return Ruling(
            "three-is-fifty-deal",
            True,
            (
                Problem(
                    "fifty_deal.dealer",
                    "dealer",
                    {"dealer": dealer + 1, "next": nxt + 1, "first": first + 1},
                ),
            ),
            facts,
            _src("001:24", "001:30"),
        )
    if question == "refill":
        facts["middle_refill"] = (MIDDLE_SIZE - middle) if round_over else 0
        if not round_over:
            return Ruling(
                "three-is-fifty-deal",
                False,
                (Problem("fifty_deal.no_refill", "middle", {"middle": middle}),),
                facts,
                _src("001:65"),
            )
        return Ruling(
            "three-is-fifty-deal",
            True,
            (
                Problem(
                    "fifty_deal.refill",
                    "middle",
                    {"middle": middle, "refill": MIDDLE_SIZE - middle, "size": MIDDLE_SIZE},
                ),
            ),
            facts,
            _src("001:65", "001:24"),
        )
    assert stock is not None
    each = min(HAND_SIZE, stock // players)
    if each == 0:
        # Not one card for every player: the cards are set aside and the game is scored
        # (seed 001:26, 001:60).
        facts.update(hand_cards=0, middle_refill=0, set_aside=stock, last_deal=False)
        return Ruling(
            "three-is-fifty-deal",
            False,
            (Problem("fifty_deal.game_over", "stock", {"stock": stock, "players": players}),),
            facts,
            _src("001:26", "001:60"),
        )
    # A reading: seed 001:24 deals the hands first, then fills the middle back up to four; in
    # the last round (seed 001:26) every player gets as many cards as all can get, the middle
    # takes what it needs of the rest, and what is still left is set aside.
    rest = stock - each * players
    refill = min(MIDDLE_SIZE - middle, rest)
    rest -= refill
    last = each < HAND_SIZE or rest < players
    set_aside = rest if last else 0
    facts.update(hand_cards=each, middle_refill=refill, set_aside=set_aside, last_deal=last)
    code = "fifty_deal.last_deal" if last else "fifty_deal.deal"
    return Ruling(
        "three-is-fifty-deal",
        True,
        (
            Problem(
                code,
                "stock",
                {"each": each, "refill": refill, "set_aside": set_aside, "stock": stock},
            ),
        ),
        facts,
        sources,
    )
