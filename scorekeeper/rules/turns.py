""" "What may I do?": every legal move worth considering for one player's turn (docs/rulebook.md
§2–§5).

Given the whole situation at the table — the hand, the side's melds, whether the side has
melded, its score, the discard pile's top card and what froze it, and whether the player has
drawn — :func:`turn_options` lists the moves a player would weigh, each with the rule it rests
on: taking the pile (with which cards, and what must be laid at once), the initial meld (the
most points, and the one keeping most cards), cards for the side's melds and new melds, and
going out (concealed or not) with what it would score.

Everything is asked of the same engine the other referee questions use (:mod:`.referee`,
:mod:`.laying`, :mod:`.scoring`), and only ruleset parameters decide, so house rules and every
ruleset (also those added later) are covered.

>>> from .ruleset import get_ruleset
>>> from .cards import parse_cards
>>> hand = parse_cards("K K K 2 4 4 4 9 6")[0]
>>> answer = turn_options(get_ruleset("german"), 4, hand, cumulative_score=2000, drawn=True)
>>> [(m.kind.value, m.variant, m.points) for m in answer.moves]
[('initial_meld', 'most_points', 95), ('initial_meld', 'fewest_cards', 90)]
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from . import deck, referee
from .cards import Card
from .explain import rule_item
from .laying import MAX_HAND, Pick, best_melds, go_out_with
from .melds import check_meld, meld_rank
from .problems import Problem
from .ruleset import RuleSet
from .scoring import SideEntry, score_side

Cards = tuple[Card, ...]


class MoveKind(StrEnum):
    """What a move does (the value is the JSON API's ``kind``)."""

    TAKE_PILE = "take_pile"
    """Take the discard pile, laying the top card at once with the cards it needs."""
    INITIAL_MELD = "initial_meld"
    """The side's first melds, reaching its minimum."""
    ADD = "add"
    """Cards onto a meld the side has on the table."""
    MELD = "meld"
    """New melds of a side that has melded."""
    GO_OUT = "go_out"
    """Lay or discard the last cards (concealed or not)."""


@dataclass(frozen=True)
class Move:
    """One move a player may make.

    ``kind``: what it does (:class:`MoveKind`). ``cards``: the cards it takes
    from the hand; ``melds``: the melds it makes or grows, as they lie afterwards; ``points``:
    the card points laid (for ``go_out`` the side's score for the hand, see ``items``);
    ``rule``: the rules-page anchor and ``item`` the rule it rests on; ``reason``: what to say.
    """

    kind: MoveKind
    cards: Cards
    melds: tuple[Cards, ...]
    points: int
    rule: str
    item: str
    reason: Problem
    variant: str = ""
    discard: Card | None = None
    wilds: int = 0  # ``add``: wild cards from hand that could join the meld too
    items: dict[str, int] = field(default_factory=dict)
    canastas: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of docs/api.md §3 ``moves[i]`` (with a few additions)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "cards": [c.token for c in self.cards],
            "melds": [[c.token for c in m] for m in self.melds],
            "points": self.points,
            "rule": self.rule,
            "rule_item": self.item,
            "reason": self.reason,
        }
        if self.variant:
            out["variant"] = self.variant
        if self.discard is not None:
            out["discard"] = self.discard.token
        if self.kind == MoveKind.ADD:
            out["wilds"] = self.wilds
        if self.items:
            out["items"] = dict(self.items)
        if self.canastas is not None:
            out["canastas"] = self.canastas
        return out


@dataclass(frozen=True)
class TurnOptions:
    """The answer: the moves, and notes saying why a move one might look for is not there."""

    moves: tuple[Move, ...]
    notes: tuple[Problem, ...] = ()
    required: int | None = None
    needed: int = 1

    def kinds(self) -> list[MoveKind]:
        return [m.kind for m in self.moves]


def _used_from_hand(
    melds: Sequence[Sequence[Card]], hand: Sequence[Card], exclude: Sequence[Card] = ()
) -> Cards:
    """The cards of ``melds`` that come from ``hand`` (not the top card, not the table)."""
    left = Counter(c.rank for c in hand)
    taken = Counter(c.rank for c in exclude)
    out: list[Card] = []
    for meld in melds:
        for card in meld:
            if taken[card.rank]:
                taken[card.rank] -= 1
            elif left[card.rank]:
                left[card.rank] -= 1
                out.append(card)
    return tuple(out)


def turn_options(
    rs: RuleSet,
    players: int,
    hand: Sequence[Card],
    *,
    side_melds: Sequence[Sequence[Card]] = (),
    side_has_melded: bool | None = None,
    cumulative_score: int = 0,
    top_card: Card | None = None,
    pile_has_wild: bool = False,
    red_three_upcard: bool = False,
    drawn: bool = False,
    player_melded_before: bool = False,
    stock: int | None = None,
) -> TurnOptions:
    """Every legal move worth considering for this turn (see the module docstring).

    Before the draw (``drawn`` false) the pile may be taken, and melds are those the hand can
    lay after drawing (the drawn card is then the discard). After the draw a card must stay for
    the discard unless the player goes out.

    ``stock``: the cards left in the stock (None: not told). With the stock empty before the
    draw there is nothing to draw: the only way on is the discard pile, where the ruleset lets
    play go on (seed 000:133, 002:254-256); otherwise, or when the pile cannot be taken, the
    hand ends (seed 003:114), and no move is offered.
    """
    empty = stock == 0 and not drawn
    if empty and not rs.stock_out_pile:
        return TurnOptions(
            (),
            (Problem("stock.empty_ends", "stock", {}),),
            None,
            rs.canastas_needed(players),
        )
    notes: list[Problem] = []
    hand = list(hand)
    # seed 000:15: two decks of 52 and 4 jokers; a table showing more cannot be played
    impossible = deck.too_many(rs, players, [hand, *side_melds, top_card])
    if impossible:
        return TurnOptions((), tuple(impossible))
    if any(c.is_red_three for c in hand):
        # docs/rulebook.md §4: red threes are laid out at once and replaced; they never stay in
        # hand.
        notes.append(Problem("hand.red_three", "hand", {}))
        hand = [c for c in hand if not c.is_red_three]
    if len(hand) > MAX_HAND:
        return TurnOptions(
            (), (Problem("hand.too_many", "hand", {"maximum": MAX_HAND, "count": len(hand)}),)
        )
    melded = bool(side_melds) if side_has_melded is None else side_has_melded or bool(side_melds)
    table = [list(m) for m in side_melds] if melded else []
    needed = rs.canastas_needed(players)
    required = None if melded else rs.initial_meld_minimum(cumulative_score, players)
    # docs/rulebook.md §5 (seeds 000 and 002): a move that does not go out leaves at least two cards
    # after the draw, one to discard and one to keep. Before the draw, one card of this hand
    # stays (the drawn card is the other).
    keep = 2 if drawn else 1
    moves: list[Move] = []

    # 1. The discard pile (docs/rulebook.md §5), before drawing only.
    if top_card is not None and not drawn:
        verdict = referee.discard_pile(
            rs,
            players,
            top_card,
            pile_has_wild=pile_has_wild,
            red_three_upcard=red_three_upcard,
            side_has_melded=melded,
            side_melds=table,
            hand=hand,
            cumulative_score=cumulative_score,
            going_out=top_card.is_black_three,
        )
        frozen = pile_has_wild or red_three_upcard or (not melded and rs.pile_frozen_until_melded)
        if verdict.allowed:
            shown = [tuple(Card(r) for r in m) for m in verdict.melds or ()]
            on_table = [c for m in table for c in m]
            cards = _used_from_hand(shown, hand, [top_card, *on_table])
            reason = verdict.reasons[0]
            item = referee_item(reason, frozen)
            points = (
                verdict.counted
                if verdict.counted is not None
                else sum(rs.card_value(c) for c in [top_card, *cards])
            )
            moves.append(
                Move(
                    MoveKind.TAKE_PILE,
                    cards,
                    tuple(shown),
                    points,
                    "discard-pile",
                    item,
                    reason,
                    variant=str(reason.params.get("how", "")),
                    canastas=verdict.canastas,
                )
            )
        else:
            notes.extend(verdict.reasons[:1])

    # 2. Melds from hand: the initial meld, or cards for the side's melds and new melds.
    if not melded:
        assert required is not None
        plan = best_melds(rs, hand, required=required, keep=keep, initial=True)
        # Leaving a single card is allowed only when the side may go out with it (§5).
        wide = best_melds(rs, hand, required=required, keep=keep - 1, initial=True)
        most = _better(plan.most_points, _if_out(rs, wide.most_points, [], needed), True)
        fewest = _better(plan.fewest_cards, _if_out(rs, wide.fewest_cards, [], needed), False)
        picks = [("most_points", most), ("fewest_cards", fewest)]
        seen: list[list[list[str]]] = []
        for variant, pick in picks:
            if pick is None:
                continue
            shape = sorted(sorted(c.rank for c in m) for m in pick.melds)
            if shape in seen:
                continue
            seen.append(shape)
            moves.append(
                Move(
                    MoveKind.INITIAL_MELD,
                    tuple(c for m in pick.melds for c in m),
                    pick.melds,
                    pick.points,
                    "initial-meld",
                    "initial-meld.minimum",
                    Problem(
                        "initial_meld.possible",
                        "",
                        {
                            "required": required,
                            "counted": pick.points,
                            "cards": pick.cards,
                            "variant": variant,
                        },
                    ),
                    variant=variant,
                )
            )
        if most is None:
            best = best_melds(rs, hand, keep=keep, initial=True).most_points
            notes.append(
                Problem(
                    "initial_meld.below_minimum",
                    "hand",
                    {"required": required, "counted": best.points if best else 0},
                )
            )
            if wide.most_points is not None:
                notes.append(_one_card_left(drawn))
    else:
        moves.extend(_lay_offs(rs, hand, table, keep, notes, drawn, needed))

    if empty:
        took = next((m for m in moves if m.kind == MoveKind.TAKE_PILE), None)
        if took is None or top_card is None:
            # Nothing to draw and no pile to take: the hand ends (seed 000:133 "Sobald ein
            # Spieler den Abwurfstapel nicht aufnehmen kann …, endet das Spiel"; 002:258).
            rank = top_card.rank if top_card is not None else ""
            return TurnOptions(
                (),
                (*notes, Problem("stock.empty_cannot_take", "top_card", {"rank": rank})),
                required,
                needed,
            )
        forced = (
            rs.stock_out_pile_forced
            and not (pile_has_wild or red_three_upcard)
            and any(meld_rank(m) == top_card.rank for m in table)
        )
        # seed 002:256: the pile must be taken when unfrozen and matching a meld of the side.
        code = "stock.empty_must_take" if forced else "stock.empty_may_take"
        notes.insert(0, Problem(code, "top_card", {"rank": top_card.rank}))
        # Nothing is drawn: the turn goes on only through the pile, so the moves from hand
        # come after taking it (and where it must be taken, no other first move is legal).
        moves = [took]

    # 3. Going out (docs/rulebook.md §4), judged after the draw.
    if drawn:
        moves.extend(
            _going_out(rs, players, hand, table, melded, player_melded_before, required, notes)
        )
    elif hand and not empty:
        notes.append(Problem("going_out.draw_first", "drawn", {}))
    return TurnOptions(tuple(moves), tuple(notes), required, needed)


def referee_item(reason: Problem, frozen: bool) -> str:
    """The rules-page item a pile verdict rests on (as :mod:`.explain` names them)."""
    return rule_item(reason.code, reason.params, frozen=frozen)


def _goes_out(rs: RuleSet, melds: Sequence[Sequence[Card]], needed: int) -> bool:
    """Whether a side with these melds has the canastas to go out (docs/rulebook.md §4)."""
    canastas = sum(1 for m in melds if check_meld(m, rs, initial_meld=True).is_canasta)
    return canastas >= needed


def _out_with(
    rs: RuleSet, left: int, drawn: bool, melds: Sequence[Sequence[Card]], needed: int
) -> bool:
    """Whether leaving ``left`` cards of this hand (fewer than a move that does not go out
    keeps) is going out: the side has its canastas with ``melds``, and a final discard is
    left where the ruleset needs one (before the draw the drawn card is it)."""
    if rs.going_out_needs_discard and left + (0 if drawn else 1) < 1:
        return False
    return _goes_out(rs, melds, needed)


def _if_out(
    rs: RuleSet, pick: Pick | None, table: Sequence[Sequence[Card]], needed: int
) -> Pick | None:
    """``pick`` if the side may go out after laying it (so a single card left is its final
    discard, docs/rulebook.md §5), else None."""
    if pick is None or not _goes_out(rs, [*table, *pick.melds], needed):
        return None
    return pick


def _better(kept: Pick | None, other: Pick | None, most: bool) -> Pick | None:
    """The better of two picks: the most points, or the fewest cards."""
    if kept is None or other is None:
        return kept or other
    if most:
        return other if (other.points, -other.cards) > (kept.points, -kept.cards) else kept
    return other if (-other.cards, other.points) > (-kept.cards, kept.points) else kept


def _one_card_left(drawn: bool) -> Problem:
    """docs/rulebook.md §5: why a move one might look for is missing: it would leave a single
    card."""
    return Problem("meld.one_card_left", "hand", {"drawn": drawn})


def _lay_offs(
    rs: RuleSet,
    hand: list[Card],
    table: list[list[Card]],
    keep: int,
    notes: list[Problem],
    drawn: bool,
    needed: int,
) -> list[Move]:
    """Cards for the side's melds, and new melds (docs/rulebook.md §2, §5: one meld per rank), each
    leaving ``keep`` cards in hand (docs/rulebook.md §5: never a single card unless going out)."""
    moves: list[Move] = []
    wilds = [c for c in hand if c.is_wild]
    ranks_on_table: set[str] = set()
    spare = len(hand) - keep  # cards a move may take from the hand
    cut = False
    for meld in table:
        rank = meld_rank(meld)
        if rank is None:
            continue
        ranks_on_table.add(rank)
        # A meld of aces with wild cards was laid in the initial meld (docs/rulebook.md §6).
        mixed = any(c.is_wild for c in meld)
        naturals = [c for c in hand if c.rank == rank and rank not in ("wild", "3b")]
        if len(naturals) > spare:
            # Fewer cards than ``keep`` stay only when the side then goes out (docs/rulebook.md §5).
            after = [m if m is not meld else [*meld, *naturals] for m in table]
            if not _out_with(rs, len(hand) - len(naturals), drawn, after, needed):
                cut = True
                naturals = naturals[: max(spare, 0)]
        grown = [*meld, *naturals]
        if naturals and not check_meld(grown, rs, initial_meld=mixed).legal:
            continue
        room = 0
        while (
            room < len(wilds)
            and check_meld([*grown, *wilds[: room + 1]], rs, initial_meld=mixed).legal
        ):
            room += 1
        if len(naturals) + room > spare:
            # As above: one card left only when the side may then go out.
            after = [m if m is not meld else [*grown, *wilds[:room]] for m in table]
            if not _out_with(rs, len(hand) - len(naturals) - room, drawn, after, needed):
                cut = True
                room = max(spare - len(naturals), 0)
        if not naturals and not room:
            continue
        # Cards added: the natural cards, or (with none) the wild cards that fit.
        added = naturals if naturals else wilds[:room]
        grown = [*meld, *added]
        size = len(grown)
        moves.append(
            Move(
                MoveKind.ADD,
                tuple(added),
                (tuple(grown),),
                sum(rs.card_value(c) for c in added),
                "melds",
                "melds.one_per_rank",
                Problem(
                    "meld.add",
                    "",
                    {"rank": rank, "cards": len(naturals), "wilds": room, "size": size},
                ),
                wilds=room,
            )
        )
    rest = [c for c in hand if c.rank not in ranks_on_table or c.is_wild]
    # The cards of ranks on the table stay in hand too: they count toward what is kept.
    rest_keep = max(keep - (len(hand) - len(rest)), 0)
    pick = best_melds(rs, rest, keep=rest_keep, new=True).most_points
    if rest_keep:
        wider = best_melds(rs, rest, keep=rest_keep - 1, new=True).most_points
        if wider is not None and (pick is None or wider.points > pick.points):
            if _if_out(rs, wider, table, needed) is not None:
                pick = wider
            else:
                cut = True
    if cut:
        notes.append(_one_card_left(drawn))
    if pick is not None and pick.melds:
        moves.append(
            Move(
                MoveKind.MELD,
                tuple(c for m in pick.melds for c in m),
                pick.melds,
                pick.points,
                "melds",
                "melds.size",
                Problem("meld.new", "", {"melds": len(pick.melds), "points": pick.points}),
            )
        )
    return moves


def _going_out(
    rs: RuleSet,
    players: int,
    hand: list[Card],
    table: list[list[Card]],
    melded: bool,
    player_melded_before: bool,
    required: int | None,
    notes: list[Problem],
) -> list[Move]:
    """Going out now, openly and concealed, with what each would score."""
    needed = rs.canastas_needed(players)
    discard = True if rs.going_out_needs_discard else None
    moves: list[Move] = []
    have = 0
    tried = False
    ways: list[tuple[bool, int]] = []
    if melded:
        ways.append((False, needed))
    if not player_melded_before and rs.concealed_going_out:
        # docs/rulebook.md §6: where going out concealed is no way of its own, it is not offered.
        ways.append((True, needed if rs.concealed_needs_all_canastas else 1))
    for concealed, need in ways:
        way = go_out_with(
            rs,
            hand,
            table,
            needed=need,
            may_join=not concealed,
            discard=discard,
            melded=melded,
        )
        if way is None:
            continue
        tried = True
        laid, thrown = way
        have = max(have, laid.canastas)
        if laid.canastas < need or (concealed and laid.own_canastas < 1):
            continue
        new_points = sum(rs.card_value(c) for cards in laid.laid for c in cards)
        if (
            concealed
            and not melded
            and rs.concealed_needs_minimum
            and required is not None
            and new_points < required
        ):
            continue
        side = score_side(
            rs,
            players,
            SideEntry(
                melds=[list(m) for m in laid.melds], hands=[[]], went_out=True, concealed=concealed
            ),
        )
        grown = tuple(m for m, cards in zip(laid.melds, laid.laid, strict=True) if cards)
        cards = tuple(c for cards in laid.laid for c in cards)
        moves.append(
            Move(
                MoveKind.GO_OUT,
                cards,
                grown,
                side.score,
                "going-out",
                "going-out.concealed" if concealed else "going-out.canastas",
                Problem(
                    "going_out.possible",
                    "",
                    {
                        "score": side.score,
                        "concealed": concealed,
                        "canastas": laid.canastas,
                        "needed": need,
                        "discard": thrown.rank if thrown else None,
                    },
                ),
                variant="concealed" if concealed else "",
                discard=thrown,
                items=dict(side.items),
                canastas=laid.canastas,
            )
        )
    if not moves and hand:
        if tried:
            notes.append(
                Problem(
                    "going_out.not_enough_canastas", "side_melds", {"needed": needed, "have": have}
                )
            )
        else:
            notes.append(Problem("going_out.cards_left", "hand", {}))
    return moves
