"""The stateless questions of docs/api.md §3 (``POST /api/v1/score``, ``POST
/api/v1/referee/…``), read from loose JSON values with the edge's reader (:mod:`.reading`).

Functions here take whatever ``json.loads`` produced and return a typed answer: a
:class:`~.scoring.ScoreAnswer`, a referee :class:`~.referee.Verdict` (or the 3 ist 50 answers
of :mod:`..rules.fifty`), or a :class:`~.scoring.Rejected` with the problems (its
``unreadable`` tells a request that cannot be read from one that breaks rules). Statuses and
JSON shapes are the web layer's business. Nothing here raises on any JSON value.

>>> score({"ruleset": "german", "teams": []})
Rejected(problems=(Problem('request.value', 'teams', {'minimum': 2, 'maximum': 6}),), scored=None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from ..rules import disputes, fifty, laying, referee
from ..rules.cards import Card
from ..rules.referee import Verdict
from ..rules.ruleset import PRESETS, RuleSet, resolve_ruleset
from ..rules.scoring import (
    Rejected,
    ScoreAnswer,
    score_hand,
)
from ..rules.turns import TurnOptions, turn_options
from . import fifty as fifty_reading
from . import requests as rq
from .reading import (
    MAX_SCORE,
    Reader,
    read_into,
    read_sides,
)
from .requests import InitialMeldQuestion, MeldQuestion, RedThreeQuestion


def _ruleset(reader: Reader, data: dict[str, Any]) -> tuple[RuleSet | None, int]:
    ruleset_id = data.get("ruleset")
    # A missing ruleset is a missing field like any other (400), a ruleset that is no text a
    # wrong type (400); only a text naming no ruleset is ``ruleset.unknown``.
    if ruleset_id is None:
        reader.fail("request.missing", "ruleset")
        return None, 0
    if not isinstance(ruleset_id, str):
        reader.fail("request.type", "ruleset", expected="string")
        return None, 0
    rs, players, problems = resolve_ruleset(ruleset_id, data.get("players"), data.get("options"))
    reader.problems.extend(problems)
    return rs, players


# ---- score one hand -------------------------------------------------------------------------


def score(data: Any) -> ScoreAnswer | fifty.FiftyScore | Rejected:
    """``POST /api/v1/score``: score one hand for every side (3 ist 50: every minus pile).

    A hand that breaks rules is refused with its problems, scored as far as it goes."""
    reader = Reader()
    obj = reader.obj(data, "")
    if obj is None:
        return reader.rejected()
    if obj.get("ruleset") == fifty.RULESET_ID:
        return fifty_reading.score_request(obj)
    rs, players = _ruleset(reader, obj)
    sides = read_sides(reader, obj)
    if reader.problems or rs is None:
        return reader.rejected()
    result = score_hand(rs, players, sides)
    answer = ScoreAnswer(tuple(result.sides), tuple(result.warnings))
    if result.problems:
        return Rejected(tuple(result.problems), answer)
    return answer


# ---- referee questions ---------------------------------------------------------------------


#: what a question's ``ask`` answers with
Asked = TypeVar("Asked")


def _question(data: Any) -> tuple[Reader, dict[str, Any], RuleSet, int] | Rejected:
    """A question's body: an object naming its ruleset (and players, house rules), with the
    reader that read them; else the problems."""
    reader = Reader()
    obj = reader.obj(data, "")
    if obj is None:
        return reader.rejected()
    rs, players = _ruleset(reader, obj)
    if rs is None:
        return reader.rejected()
    return reader, obj, rs, players


def _asked(
    data: Any, ask: Callable[[Reader, dict[str, Any], RuleSet, int], Asked | None]
) -> Asked | Rejected:
    """A question's body read (an object naming its ruleset), then answered by ``ask``; any
    problem of the reading refuses it. The referee's verdicts and the disputes' rulings alike."""
    asked = _question(data)
    if isinstance(asked, Rejected):
        return asked
    reader, obj, rs, players = asked
    answer = ask(reader, obj, rs, players)
    if reader.problems or answer is None:
        return reader.rejected()
    return answer


def _referee(
    data: Any, ask: Callable[[Reader, dict[str, Any], RuleSet, int], Verdict | None]
) -> Verdict | Rejected:
    verdict = _asked(data, ask)
    return verdict if isinstance(verdict, Rejected) else _possible(verdict)


def _possible(verdict: Verdict) -> Verdict | Rejected:
    """A question about cards the decks do not hold is refused (422 ``card.too_many``, as
    scoring refuses them), not answered "no"."""
    impossible = tuple(p for p in verdict.reasons if p.code == "card.too_many")
    return Rejected(impossible) if impossible else verdict


#: the fields every question shares, read with the ruleset (:func:`_ruleset`)
ASKED = frozenset(f.name for f in fields(rq.Asked))


def referee_meld(data: Any) -> Verdict | Rejected:
    """``POST /api/v1/referee/meld``: read into :class:`.requests.MeldQuestion`."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> Verdict:
        q = read_into(MeldQuestion, d, r, ASKED)
        return referee.meld(
            rs, q.cards, q.going_out, q.initial_meld, players if "players" in d else None
        )

    return _referee(data, ask)


def referee_initial_meld(data: Any) -> Verdict | Rejected:
    """``POST /api/v1/referee/initial-meld``: read into
    :class:`.requests.InitialMeldQuestion`."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> Verdict:
        q = read_into(InitialMeldQuestion, d, r, ASKED)
        return referee.initial_meld(
            rs, players, q.cumulative_score, q.melds, q.top_card, q.side_melds
        )

    return _referee(data, ask)


def referee_discard_pile(data: Any) -> Verdict | Rejected:
    """``POST /api/v1/referee/discard-pile``."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> Verdict | None:
        top = r.card(d.get("top_card"), "top_card")
        if top is None and not r.problems:
            r.fail("request.missing", "top_card")
        verdict_args = dict(
            pile_has_wild=r.boolean(d, "pile_has_wild", "pile_has_wild"),
            red_three_upcard=r.boolean(d, "red_three_upcard", "red_three_upcard"),
            side_has_melded=r.boolean(d, "side_has_melded", "side_has_melded", True),
            side_melds=r.card_lists(d.get("side_melds"), "side_melds"),
            hand=r.cards(d.get("hand"), "hand"),
            cumulative_score=r.integer(
                d, "cumulative_score", "cumulative_score", 0, -MAX_SCORE, MAX_SCORE
            ),
            going_out=r.boolean(d, "going_out", "going_out"),
        )
        if top is None or r.problems:
            return None
        return referee.discard_pile(rs, players, top, **verdict_args)  # type: ignore[arg-type]

    return _referee(data, ask)


def referee_go_out(data: Any) -> Verdict | Rejected:
    """``POST /api/v1/referee/go-out``."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> Verdict:
        canastas: dict[str, int] = {"natural": 0, "mixed": 0, "wild": 0}
        raw = d.get("side_canastas")
        if raw is not None:
            obj = r.obj(raw, "side_canastas")
            if obj is not None:
                for key in obj:
                    if key not in canastas:
                        r.fail("request.value", f"side_canastas.{str(key)[:20]}")
                for key in canastas:
                    canastas[key] = r.integer(obj, key, f"side_canastas.{key}", 0, 0, 30)
        return referee.go_out(
            rs,
            players,
            canastas,
            concealed=r.boolean(d, "concealed", "concealed"),
            player_melded_before=r.boolean(d, "player_melded_before", "player_melded_before"),
            melds=r.card_lists(d["melds"], "melds") if d.get("melds") is not None else None,
            side_melds=(
                r.card_lists(d["side_melds"], "side_melds")
                if d.get("side_melds") is not None
                else None
            ),
        )

    return _referee(data, ask)


def referee_options(data: Any) -> TurnOptions | Rejected:
    """``POST /api/v1/referee/options``: every legal move worth considering this turn.

    The pile is frozen by ``pile_frozen`` (true: frozen for everyone, as by a wild card),
    ``pile_has_wild``, ``red_three_upcard``, or ``frozen_by`` (the cards that froze it: a wild
    card or a red three). ``side_has_melded`` defaults to whether ``side_melds`` are given.
    """
    asked = _question(data)
    if isinstance(asked, Rejected):
        return asked
    reader, obj, rs, players = asked
    if "hand" not in obj:
        reader.fail("request.missing", "hand")
    hand = reader.cards(obj.get("hand"), "hand")
    side_melds = reader.card_lists(obj.get("side_melds"), "side_melds")
    melded_raw = obj.get("side_has_melded")
    side_has_melded = (
        reader.boolean(obj, "side_has_melded", "side_has_melded")
        if melded_raw is not None
        else None
    )
    score_ = reader.integer(obj, "cumulative_score", "cumulative_score", 0, -MAX_SCORE, MAX_SCORE)
    top = reader.card(obj.get("top_card"), "top_card")
    pile_has_wild = reader.boolean(obj, "pile_has_wild", "pile_has_wild") or reader.boolean(
        obj, "pile_frozen", "pile_frozen"
    )
    red_three_upcard = reader.boolean(obj, "red_three_upcard", "red_three_upcard")
    for card in reader.cards(obj.get("frozen_by"), "frozen_by"):
        if card.is_wild:
            pile_has_wild = True
        elif card.is_red_three:
            red_three_upcard = True
        else:  # a rule of the game, not a misread request: 422 (docs/rulebook.md §5)
            reader.fail("discard_pile.frozen_by", "frozen_by")
            break  # said once for the field
    drawn = reader.boolean(obj, "drawn", "drawn")
    melded_before = reader.boolean(obj, "player_melded_before", "player_melded_before")
    stock = _stock(reader, obj)
    if len(hand) > laying.MAX_HAND:
        reader.fail("request.too_large", "hand", limit=laying.MAX_HAND)
    if reader.problems:
        return reader.rejected()
    answer = turn_options(
        rs,
        players,
        hand,
        side_melds=side_melds,
        side_has_melded=side_has_melded,
        cumulative_score=score_,
        top_card=top,
        pile_has_wild=pile_has_wild,
        red_three_upcard=red_three_upcard,
        drawn=drawn,
        player_melded_before=melded_before,
        stock=stock,
    )
    impossible = tuple(p for p in answer.notes if p.code == "card.too_many")
    return Rejected(impossible) if impossible else answer


MAX_STOCK = 162  # the largest deck (docs/rulebook.md §1: three packs and six jokers)


def _stock(reader: Reader, obj: dict[str, Any], required: bool = False) -> int | None:
    """The cards left in the stock: ``stock`` (0 to 162), or ``stock_empty: true`` for 0."""
    empty = reader.boolean(obj, "stock_empty", "stock_empty")
    if "stock" in obj and obj["stock"] is not None:
        stock = reader.integer(obj, "stock", "stock", 0, 0, MAX_STOCK)
        if empty and stock:
            reader.fail("request.value", "stock_empty")
        return stock
    if empty:
        return 0
    if required:
        reader.fail("request.missing", "stock")
    return None


def _answer_text(reader: Reader, obj: dict[str, Any]) -> str | None:
    value = obj.get("answer")
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value in ("yes", "no"):
        return str(value)
    reader.fail("request.value", "answer", allowed=["yes", "no"])
    return None


def _dispute(
    data: Any, ask: Callable[[Reader, dict[str, Any], RuleSet, int], disputes.Ruling | None]
) -> disputes.Ruling | Rejected:
    return _asked(data, ask)


def _deck_check(reader: Reader, rs: RuleSet, players: int, *groups: Sequence[Card] | None) -> None:
    """``card.too_many`` when the cards a dispute shows (hand, melds, pile, drawn cards) hold
    more of a rank than the decks do (CONTRACT §6: counted over all the cards shown)."""
    counts: Counter[str] = Counter(c.rank for g in groups if g for c in g)
    limits = {"X": rs.jokers(players), "3b": 2 * rs.packs(players), "3r": 2 * rs.packs(players)}
    for rank, count in sorted(counts.items()):
        limit = limits.get(rank, rs.copies_per_rank(players))
        if count > limit:
            reader.fail("card.too_many", "", rank=rank, count=count, maximum=limit)


def _hand_or_none(reader: Reader, obj: dict[str, Any]) -> list[Card] | None:
    if obj.get("hand") is None:
        return None
    hand = reader.cards(obj.get("hand"), "hand")
    if len(hand) > laying.MAX_HAND:
        reader.fail("request.too_large", "hand", limit=laying.MAX_HAND)
    return hand


def referee_partner_permission(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/partner-permission`` (seed 000:125, 002:248-252)."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> disputes.Ruling | None:
        answer = _answer_text(r, d)
        hand = _hand_or_none(r, d)
        side_melds = r.card_lists(d.get("side_melds"), "side_melds")
        drawn = r.boolean(d, "drawn", "drawn", True)
        melded = r.boolean(d, "melded_since_draw", "melded_since_draw")
        asked = r.boolean(d, "asked_before", "asked_before")
        _deck_check(r, rs, players, hand, *side_melds)
        if r.problems:
            return None
        return disputes.partner_permission(
            rs,
            players,
            answer=answer,
            drawn=drawn,
            melded_since_draw=melded,
            asked_before=asked,
            hand=hand,
            side_melds=side_melds,
        )

    return _dispute(data, ask)


def _stock_request(
    r: Reader, d: dict[str, Any], rs: RuleSet, players: int, kind: str
) -> disputes.Ruling | None:
    stock = _stock(r, d, required=kind == "end-of-stock")
    drawn = r.cards(d.get("drawn"), "drawn")
    top = r.card(d.get("top_card"), "top_card")
    frozen = r.boolean(d, "pile_frozen", "pile_frozen")
    side_melds = r.card_lists(d.get("side_melds"), "side_melds")
    melded_raw = d.get("side_has_melded")
    side_has_melded = (
        r.boolean(d, "side_has_melded", "side_has_melded") if melded_raw is not None else True
    )
    hand = _hand_or_none(r, d)
    score_ = r.integer(d, "cumulative_score", "cumulative_score", 0, -MAX_SCORE, MAX_SCORE)
    if stock is not None and drawn and len(drawn) > max(stock, 0):
        r.fail("stock.too_many_drawn", "drawn", stock=stock, drawn=len(drawn))
    if drawn and stock is None and kind != "end-of-stock":  # end-of-stock said so already
        r.fail("request.missing", "stock")
    _deck_check(r, rs, players, hand, drawn, [top] if top else None, *side_melds)
    if r.problems:
        return None
    if kind == "two-player-draw":
        return disputes.two_player_draw(rs, stock=stock, drawn=drawn or None)
    assert stock is not None
    return disputes.end_of_stock(
        rs,
        players,
        stock=stock,
        drawn=drawn or None,
        top_card=top,
        pile_frozen=frozen,
        side_melds=side_melds,
        side_has_melded=side_has_melded,
        hand=hand,
        cumulative_score=score_,
    )


def referee_end_of_stock(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/end-of-stock`` (seed 000:133-134, 002:254-260, 003:114)."""
    return _dispute(data, lambda r, d, rs, n: _stock_request(r, d, rs, n, "end-of-stock"))


def referee_two_player_draw(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/two-player-draw`` (seed 002:129-133); ``players`` is 2."""
    if isinstance(data, dict) and "players" not in data:
        data = {**data, "players": 2}
    if isinstance(data, dict) and data.get("players") == 2:
        # A ruleset without a two-player game answers so, rather than refusing the count.
        ruleset_id = data.get("ruleset")
        if (
            isinstance(ruleset_id, str)
            and ruleset_id in PRESETS
            and 2 not in PRESETS[ruleset_id].players_allowed
            and "options" not in data
        ):
            return disputes.two_player_draw(PRESETS[ruleset_id])
    return _dispute(data, lambda r, d, rs, n: _stock_request(r, d, rs, n, "two-player-draw"))


def referee_black_three_block(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/black-three-block`` (seed 000:97, 000:114, 002:208, 003:104)."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> disputes.Ruling | None:
        if "pile" not in d and "top_card" in d:
            # Only the top card told: the pile is that card (and what lies under it unknown).
            pile = [c for c in [r.card(d.get("top_card"), "top_card")] if c is not None]
        else:
            pile = r.cards(d.get("pile"), "pile")
            if not pile and not r.problems:
                r.fail("request.missing", "pile")
            r.card(d.get("top_card"), "top_card")  # checked, though the pile says it
        going_out = r.boolean(d, "going_out", "going_out")
        hand = r.cards(d.get("hand"), "hand")
        side_melds = r.card_lists(d.get("side_melds"), "side_melds")
        _deck_check(r, rs, players, pile, hand, *side_melds)
        if r.problems or not pile:
            if not pile and not r.problems:
                r.fail("request.missing", "pile")
            return None
        return disputes.black_three_block(
            rs, players, pile, going_out=going_out, hand=hand, side_melds=side_melds
        )

    return _dispute(data, ask)


def referee_red_three_from_pile(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/red-three-from-pile`` (seed 003:80): read into
    :class:`.requests.RedThreeQuestion`."""

    def ask(r: Reader, d: dict[str, Any], rs: RuleSet, players: int) -> disputes.Ruling | None:
        q = read_into(RedThreeQuestion, d, r, ASKED)
        if r.problems:
            return None
        return disputes.red_three_from_pile(rs, players, q.red_threes)

    return _dispute(data, ask)


def referee_three_is_fifty_deal(data: Any) -> disputes.Ruling | Rejected:
    """``POST /api/v1/referee/three-is-fifty-deal`` (seed 001:22-30, 001:65)."""
    r = Reader()
    d = r.obj(data, "")
    if d is None:
        return r.rejected()
    players = r.integer(d, "players", "players", None, fifty.MIN_PLAYERS, fifty.MAX_PLAYERS)
    question = d.get("question", "deal")
    if question not in disputes.FIFTY_QUESTIONS:
        r.fail("request.value", "question", allowed=list(disputes.FIFTY_QUESTIONS))
        return r.rejected()
    top = max(players - 1, 0)
    args: dict[str, Any] = {}
    if question == "deal":
        args["stock"] = r.integer(d, "stock", "stock", None, 0, MAX_STOCK)
        args["middle"] = r.integer(d, "middle", "middle", 0, 0, fifty.MIDDLE_SIZE)
    elif question == "refill":
        args["middle"] = r.integer(d, "middle", "middle", 0, 0, fifty.MIDDLE_SIZE)
        args["round_over"] = r.boolean(d, "round_over", "round_over")
    elif question == "dealer":
        args["dealer"] = r.integer(d, "dealer", "dealer", None, 0, top)
    else:
        args["player"] = r.integer(d, "player", "player", None, 0, top)
        args["turn"] = r.integer(d, "turn", "turn", None, 0, top)
    # a field of another question is not used, but a wrong one is still refused
    for key, low, high in (
        ("stock", 0, MAX_STOCK),
        ("middle", 0, fifty.MIDDLE_SIZE),
        ("dealer", 0, top),
        ("player", 0, top),
        ("turn", 0, top),
    ):
        if key not in args and d.get(key) is not None:
            r.integer(d, key, key, None, low, high)
    if "round_over" not in args and d.get("round_over") is not None:
        r.boolean(d, "round_over", "round_over")
    if r.problems:
        return r.rejected()
    return disputes.fifty_deal(players, question, **args)


def referee_three_is_fifty(data: Any) -> fifty.FiftyMoves | Rejected:
    """``POST /api/v1/referee/three-is-fifty``."""
    return fifty_reading.referee_request(data)
