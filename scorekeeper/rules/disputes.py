"""Table disputes the seeds settle that are no question of cards alone: the partner's "may I go
out?", the end of the stock (red threes as the last cards, the pile when the stock is empty),
the black three that stops the pile for one turn, the red three taken with the pile, the
two-player draw, and the deal and turn order of "3 ist 50".

Each question answers a :class:`Ruling`: ``allowed`` (what it means is said per question),
the reasons as problem codes (every answer names the rule it rests on, the web layer words it
and quotes the rules page), the facts of the question, and ``sources``: the seed paragraphs
(file and line, one line a paragraph) the ruling rests on for that ruleset. A ruleset whose
seed has no such rule says so and what applies instead.

Only ruleset parameters decide (:class:`~.ruleset.RuleSet`), so house rules are covered.

>>> from .ruleset import get_ruleset
>>> r = partner_permission(get_ruleset("german"), 4, answer="no")
>>> r.allowed, r.facts["must_go_out"], r.facts["may_go_out"], r.sources[0].line
(False, False, False, 125)
>>> r = end_of_stock(get_ruleset("classic"), 4, stock=1, drawn=[Card("3r")])
>>> r.allowed, r.facts["hand_ends"], r.facts["may_meld"], r.facts["may_discard"]
(False, True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import referee
from .cards import Card
from .fifty.cards import HAND_SIZE, MIDDLE_SIZE
from .laying import go_out_with
from .melds import meld_rank
from .problems import Problem
from .ruleset import RuleSet

#: The referee questions of this module, by the path after ``/api/v1/referee/``.
KINDS: tuple[str, ...] = (
    "partner-permission",
    "end-of-stock",
    "black-three-block",
    "red-three-from-pile",
    "three-is-fifty-deal",
    "two-player-draw",
)

#: The seed files (``../shared/seeds``), by their number.
SEED_FILES: dict[str, str] = {
    "000": "000_33025d4827e4c068.txt",
    "001": "001_ec1406dbe3488249.txt",
    "002": "002_4e8fcc51c2302e35.txt",
    "003": "003_03884858e0794d50.txt",
}


@dataclass(frozen=True)
class Source:
    """One paragraph of a seed: its number (``"000"``) and its line (1-based)."""

    seed: str
    line: int

    @property
    def file(self) -> str:
        return SEED_FILES[self.seed]

    def __str__(self) -> str:
        return f"seed {self.seed}:{self.line}"

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.file, "line": self.line}


def _src(*refs: str) -> tuple[Source, ...]:
    """``"000:125"`` → Source("000", 125)."""
    out = []
    for ref in refs:
        seed, line = ref.split(":")
        out.append(Source(seed, int(line)))
    return tuple(out)


#: Where each ruleset's seed states each rule (a ruleset missing from a kind's table has no
#: such rule in its seed). Keys: question → ruleset id → seed paragraphs.
SOURCES: dict[str, dict[str, tuple[Source, ...]]] = {
    "partner-permission": {
        "german": _src("000:125"),
        "classic": _src("002:248", "002:250", "002:252"),
        "american": _src("002:51", "002:53", "002:55"),
    },
    "end-of-stock": {
        "german": _src("000:133", "000:134"),
        "classic": _src("002:254", "002:256", "002:258", "002:260"),
        "american": _src("002:59", "002:61", "002:63", "002:65"),
        "polish": _src("003:114", "003:80"),
    },
    "two-player-draw": {
        "classic": _src("002:3", "002:127", "002:129", "002:131", "002:133"),
        "polish": _src("003:27", "003:29", "003:44"),
    },
    "black-three-block": {
        "german": _src("000:85", "000:97", "000:114"),
        "classic": _src("002:208"),
        "american": _src("002:208"),
        "polish": _src("003:104", "003:100"),
    },
    "red-three-from-pile": {
        "polish": _src("003:80"),
        "german": _src("000:108", "000:91"),
        "classic": _src("002:258"),
        "american": _src("002:278", "002:39"),
    },
    "three-is-fifty-deal": {
        "three-is-fifty": _src("001:22", "001:24", "001:26", "001:30", "001:65"),
    },
}


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to one dispute.

    ``kind``: the question (:data:`KINDS`). ``allowed``: its yes or no (each question's
    docstring says what it answers). ``reasons``: problem codes, the first the ruling itself.
    ``facts``: plain JSON values. ``sources``: the seed paragraphs it rests on.
    """

    kind: str
    allowed: bool
    reasons: tuple[Problem, ...]
    facts: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[Source, ...] = ()

    def body(self) -> dict[str, Any]:
        """The JSON answer, problems still :class:`Problem` objects."""
        return {
            "allowed": self.allowed,
            "reasons": list(self.reasons),
            **dict(self.facts),
            "sources": [s.as_dict() for s in self.sources],
        }


def sources_for(kind: str, ruleset_id: str) -> tuple[Source, ...]:
    return SOURCES.get(kind, {}).get(ruleset_id, ())


# ---- "Darf ich ausmachen?" ----------------------------------------------------------------


def partner_permission(
    rs: RuleSet,
    players: int,
    *,
    answer: str | None = None,
    drawn: bool = True,
    melded_since_draw: bool = False,
    asked_before: bool = False,
    hand: Sequence[Card] | None = None,
    side_melds: Sequence[Sequence[Card]] = (),
) -> Ruling:
    """The partner's answer to "May I go out?" and what it binds (seed 000:125, 002:248-252,
    002:51-55).

    ``answer``: ``"yes"``, ``"no"`` or None (may I ask now?). ``allowed``: with an answer,
    whether the player may go out this turn; without, whether the player may ask now.
    Facts: ``rule_exists``, ``may_ask``, ``must_go_out``, ``may_go_out``, and with ``hand``
    (the player's cards after drawing) and ``side_melds``: ``able`` and one way to go out
    (``melds``, ``discard``).

    >>> from .ruleset import get_ruleset
    >>> partner_permission(get_ruleset("polish"), 4, answer="yes").reasons[0].code
    'permission.no_rule'
    >>> partner_permission(get_ruleset("classic"), 4, answer="yes").facts["must_go_out"]
    True
    """
    sources = sources_for("partner-permission", rs.id)
    facts: dict[str, Any] = {
        "rule_exists": rs.partner_permission,
        "may_ask": False,
        "must_go_out": False,
        "may_go_out": None,
        "answer": answer,
    }
    if not rs.partner_permission:
        # seed 003 has no such question: the player decides alone (seed 003:112); a house rule
        # that drops it cites the seed rule it sets aside.
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no_rule", "ruleset", {}),),
            facts,
            sources or _src("003:112"),
        )
    if not rs.has_partner(players):
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no_partner", "players", {"players": players}),),
            facts,
            sources,
        )
    needed = rs.canastas_needed(players)
    able: bool | None = None
    way: dict[str, Any] = {}
    if hand is not None:
        # Whether the cards can go out now (the side's canastas counted after laying them).
        out = go_out_with(
            rs,
            list(hand),
            [list(m) for m in side_melds],
            needed=needed,
            discard=True if rs.going_out_needs_discard else None,
            melded=bool(side_melds),
        )
        able = out is not None and out[0].canastas >= needed
        facts["able"] = able
        if able and out is not None:
            laid, thrown = out
            way["melds"] = [
                [c.token for c in m]
                for m, cards in zip(laid.melds, laid.laid, strict=True)
                if cards
            ]
            way["discard"] = thrown.token if thrown else None
    refusals: list[Problem] = []
    if not drawn:
        refusals.append(Problem("permission.draw_first", "drawn", {}))
    if melded_since_draw and rs.partner_permission_before_melds:
        refusals.append(Problem("permission.after_melds", "melded_since_draw", {}))
    if asked_before and rs.partner_permission_once:
        refusals.append(Problem("permission.asked_before", "asked_before", {}))
    if able is False and rs.partner_permission_when_able:
        refusals.append(Problem("permission.not_able", "hand", {"needed": needed}))
    facts["may_ask"] = not refusals
    params = {"needed": needed, "discard": rs.going_out_needs_discard}
    if answer is None:
        if refusals:
            return Ruling("partner-permission", False, tuple(refusals), facts, sources)
        return Ruling(
            "partner-permission",
            True,
            (
                Problem(
                    "permission.may_ask",
                    "",
                    {
                        **params,
                        "before_melds": rs.partner_permission_before_melds,
                        "once": rs.partner_permission_once,
                        "when_able": rs.partner_permission_when_able,
                    },
                ),
            ),
            facts,
            sources,
        )
    if answer == "no":
        # seed 000:125 "die Antwort ist bindend"; seed 002:250 "you are not allowed to go out";
        # seed 002:53 "you must keep at least one card in your hand after discarding".
        facts["may_go_out"] = False
        return Ruling(
            "partner-permission",
            False,
            (Problem("permission.no", "answer", params), *refusals),
            facts,
            sources,
        )
    # "yes": seed 002:250 "If the answer is "yes", you must go out"; seed 000:125 binding.
    facts["must_go_out"] = True
    facts["may_go_out"] = True
    reasons: list[Problem] = [Problem("permission.yes", "answer", params)]
    if able is False:
        # The referee never tells a player to go out illegally: the yes binds only a
        # player who can (the side still needs its canastas, seed 000:123, 002:242).
        facts["must_go_out"] = False
        facts["may_go_out"] = False
        reasons = [Problem("permission.yes_not_able", "hand", {"needed": needed})]
    facts.update(way)
    return Ruling(
        "partner-permission", bool(facts["may_go_out"]), (*reasons, *refusals), facts, sources
    )


# ---- the end of the stock ------------------------------------------------------------------


def _laid_out(rs: RuleSet, card: Card) -> bool:
    """Whether a card drawn from the stock is laid out and replaced: red threes (seed 000:108,
    002:258, 003:80), and black threes too where threes of both colours are laid out
    (seed 002:39, 002:63 "If the last card drawn from the stock is a three")."""
    return card.is_red_three or (rs.threes_by_colour and card.is_black_three)


def _pile_when_empty(
    rs: RuleSet,
    players: int,
    top_card: Card | None,
    *,
    pile_frozen: bool,
    side_melds: Sequence[Sequence[Card]],
    side_has_melded: bool,
    hand: Sequence[Card] | None,
    cumulative_score: int,
) -> tuple[str, list[Problem], dict[str, Any]]:
    """What the pile means with the stock empty: ``"no"`` (the hand ends), ``"may"`` or
    ``"must"``, the reasons and the facts (``take``: whether this player can take it)."""
    facts: dict[str, Any] = {}
    if not rs.stock_out_pile:
        # seed 003:114: the hand ends when a player cannot draw from the stock.
        return "no", [Problem("stock.empty_ends", "stock", {})], facts
    rule = "may"
    reasons: list[Problem] = []
    if top_card is None:
        reasons.append(Problem("stock.empty_pile", "stock", {"forced": rs.stock_out_pile_forced}))
        return rule, reasons, facts
    melded = side_has_melded or bool(side_melds)
    matches = any(meld_rank(m) == top_card.rank for m in side_melds)
    if rs.stock_out_pile_forced and not pile_frozen and matches and not top_card.is_black_three:
        # seed 002:256: "a player must take the discard if the pile is not frozen and if the
        # discard matches any previous meld of that player's side".
        rule = "must"
    if hand is None and rule != "must":
        reasons.append(Problem("stock.empty_pile", "stock", {"forced": rs.stock_out_pile_forced}))
        return rule, reasons, facts
    verdict = referee.discard_pile(
        rs,
        players,
        top_card,
        pile_has_wild=pile_frozen,
        side_has_melded=melded,
        side_melds=side_melds,
        hand=list(hand or ()),
        cumulative_score=cumulative_score,
    )
    if rule == "must" and hand is None:
        facts["take"] = True
        reasons.append(Problem("stock.empty_must_take", "top_card", {"rank": top_card.rank}))
        return rule, reasons, facts
    facts["take"] = verdict.allowed
    if verdict.allowed:
        facts["melds"] = [list(m) for m in verdict.melds or ()]
        code = "stock.empty_must_take" if rule == "must" else "stock.empty_may_take"
        reasons.append(Problem(code, "top_card", {"rank": top_card.rank}))
    else:
        rule = "no"
        reasons.append(Problem("stock.empty_cannot_take", "top_card", {"rank": top_card.rank}))
        reasons.extend(verdict.reasons[:1])
    return rule, reasons, facts


def end_of_stock(
    rs: RuleSet,
    players: int,
    *,
    stock: int,
    drawn: Sequence[Card] | None = None,
    top_card: Card | None = None,
    pile_frozen: bool = False,
    side_melds: Sequence[Sequence[Card]] = (),
    side_has_melded: bool = True,
    hand: Sequence[Card] | None = None,
    cumulative_score: int = 0,
    kind: str = "end-of-stock",
) -> Ruling:
    """The last cards of the stock (seed 000:133-134, 002:254-260, 002:59-65, 002:129-133,
    003:114).

    ``stock``: the cards in the stock when the player's turn begins (0: empty). ``drawn``:
    what the draw brought, in order, the replacements of laid-out threes included.
    ``allowed``: whether the play goes on for this player (a meld and a discard, or taking the
    pile). Facts: ``hand_ends``, ``may_meld``, ``may_discard``, ``pile`` (with the stock empty:
    ``"may"``, ``"must"`` or ``"no"``; else None), ``draw`` (cards a draw takes),
    ``going_out_bonus`` (0 once the stock has run out: nobody went out), ``left`` (cards left
    in the stock after the draw).

    >>> from .ruleset import get_ruleset
    >>> r = end_of_stock(get_ruleset("classic"), 2, stock=2, drawn=[Card("3r"), Card("3r")])
    >>> r.reasons[0].code, r.facts["hand_ends"]
    ('stock.red_threes_last', True)
    >>> end_of_stock(get_ruleset("polish"), 4, stock=0).facts["pile"]
    'no'
    """
    sources = sources_for(kind, rs.id) or sources_for("end-of-stock", rs.id)
    per_draw = rs.stock_draw(players)
    facts: dict[str, Any] = {
        "hand_ends": False,
        "may_meld": True,
        "may_discard": True,
        "pile": None,
        "draw": per_draw,
        "left": stock,
        "going_out_bonus": None,
    }
    if stock == 0:
        rule, reasons, pile_facts = _pile_when_empty(
            rs,
            players,
            top_card,
            pile_frozen=pile_frozen,
            side_melds=side_melds,
            side_has_melded=side_has_melded,
            hand=hand,
            cumulative_score=cumulative_score,
        )
        facts.update(pile_facts)
        facts["pile"] = rule
        facts["draw"] = 0
        facts["going_out_bonus"] = 0
        ends = rule == "no"
        facts["hand_ends"] = True if ends else None
        facts["may_meld"] = not ends
        facts["may_discard"] = not ends
        # seed 000:136, 002:258: a hand that ends so is scored with nobody going out.
        reasons.append(Problem("stock.no_going_out_bonus", "", {}))
        return Ruling(kind, not ends, tuple(reasons), facts, sources)

    cards = list(drawn or ())
    reasons = []
    if len(cards) > stock:
        return Ruling(
            kind,
            False,
            (Problem("stock.too_many_drawn", "drawn", {"stock": stock, "drawn": len(cards)}),),
            facts,
            sources,
        )
    take = min(per_draw, stock)
    left = stock
    kept = 0
    threes = 0
    ends = False
    for i, card in enumerate(cards):
        left -= 1
        if _laid_out(rs, card):
            threes += 1
            # Each three laid out asks for a replacement from the stock (seed 000:108).
            if left == 0:
                ends = True
                if i != len(cards) - 1:
                    return Ruling(
                        kind,
                        False,
                        (Problem("stock.too_many_drawn", "drawn", {"stock": stock}),),
                        facts,
                        sources,
                    )
        else:
            kept += 1
    facts["left"] = left
    if ends:
        # seed 000:134, 002:258-260, 002:63-65, 002:133: no replacement, the hand ends at
        # once; the player neither melds nor discards.
        facts.update(hand_ends=True, may_meld=False, may_discard=False, going_out_bonus=0)
        code = "stock.red_threes_last" if threes > 1 else "stock.red_three_last"
        reasons.append(
            Problem(
                code,
                "drawn",
                {"threes": threes, "black": rs.threes_by_colour, "draw": per_draw},
            )
        )
        if rs.threes_by_colour:
            # seed 002:65: "the three will count 5 points against that player's team".
            reasons.append(Problem("stock.last_three_counts", "drawn", {}))
        return Ruling(kind, False, tuple(reasons), facts, sources)
    if cards and kept < per_draw and left == 0:
        # seed 002:129, 002:131: one card left (or a red three among the last two) is a
        # complete draw; the turn goes on as though two cards had been drawn.
        reasons.append(Problem("draw.one_card", "drawn", {"draw": per_draw, "kept": kept}))
    elif not cards:
        facts["left"] = stock - take
        if stock <= per_draw:
            reasons.append(
                Problem(
                    "stock.last_cards", "stock", {"stock": stock, "draw": per_draw, "take": take}
                )
            )
        else:
            reasons.append(Problem("draw.stock", "stock", {"stock": stock, "draw": per_draw}))
            return Ruling(kind, True, tuple(reasons), facts, sources)
    else:
        reasons.append(Problem("stock.play_on", "drawn", {"left": left}))
    if facts["left"] == 0:
        # The next player finds the stock empty: the pile rules of the end of the stock.
        rule, _reasons, _facts = _pile_when_empty(
            rs,
            players,
            None,
            pile_frozen=False,
            side_melds=(),
            side_has_melded=True,
            hand=None,
            cumulative_score=0,
        )
        facts["next_pile"] = rule
        reasons.append(
            Problem(
                "stock.next_empty",
                "stock",
                {"forced": rs.stock_out_pile_forced, "pile": rs.stock_out_pile},
            )
        )
    return Ruling(kind, True, tuple(reasons), facts, sources)


def two_player_draw(
    rs: RuleSet,
    *,
    stock: int | None = None,
    drawn: Sequence[Card] | None = None,
) -> Ruling:
    """How many cards a player of a two-player game draws, and what the last cards of the stock
    do (seed 002:129-133; seed 003:27-29 draws one).

    ``allowed``: whether the ruleset has a two-player game. Facts: ``draw``, ``discard`` (one
    card ends each turn), ``cards_dealt`` where the seed says; with ``stock``: those of
    :func:`end_of_stock`.

    >>> from .ruleset import get_ruleset
    >>> two_player_draw(get_ruleset("classic")).facts["draw"]
    2
    >>> two_player_draw(get_ruleset("german")).allowed
    False
    """
    sources = sources_for("two-player-draw", rs.id)
    if 2 not in rs.players_allowed:
        return Ruling(
            "two-player-draw",
            False,
            (Problem("draw.no_two_players", "players", {"allowed": list(rs.players_allowed)}),),
            {"draw": None, "discard": None},
            # seed 000:9: "Canasta wird zu viert gespielt".
            _src("000:9", "000:12") if rs.id == "german" else (),
        )
    per_draw = rs.stock_draw(2)
    facts: dict[str, Any] = {"draw": per_draw, "discard": 1}
    # seed 002:3 "Bei zwei Spielern erhält jeder 15 Karten"; seed 003:27 "15 kart (w wersji 1
    # na 1)".
    facts["cards_dealt"] = 15 if sources else None
    reasons: list[Problem] = [
        Problem("draw.count", "", {"draw": per_draw, "stated": bool(sources)})
    ]
    if stock is None:
        return Ruling("two-player-draw", True, tuple(reasons), facts, sources)
    ruling = end_of_stock(rs, 2, stock=stock, drawn=drawn, kind="two-player-draw")
    merged = {**dict(ruling.facts), **facts}
    return Ruling(
        "two-player-draw",
        ruling.allowed,
        (*ruling.reasons, *reasons),
        merged,
        sources + tuple(s for s in ruling.sources if s not in sources),
    )


# ---- the black three on the pile ------------------------------------------------------------


def black_three_block(
    rs: RuleSet,
    players: int,
    pile: Sequence[Card],
    *,
    going_out: bool = False,
    hand: Sequence[Card] = (),
    side_melds: Sequence[Sequence[Card]] = (),
) -> Ruling:
    """Does a black three stop the pile, and for how long? (seed 000:97, 000:114, 002:208,
    003:104)

    ``pile``: the discard pile bottom to top. ``allowed``: whether the player about to draw may
    take the pile as far as stop cards go (the usual rules for taking it still apply).
    Facts: ``blocked``, ``black_three_on_top``, ``frozen`` (a wild card in the pile, or a red
    three as its first card), ``turns`` (1: a black three stops the next player only).

    >>> from .ruleset import get_ruleset
    >>> from .cards import parse_cards
    >>> r = black_three_block(get_ruleset("german"), 4, parse_cards("K 3s")[0])
    >>> r.allowed, r.reasons[0].code
    (False, 'pile_block.black_three')
    >>> black_three_block(get_ruleset("german"), 4, parse_cards("K 3s 9")[0]).allowed
    True
    """
    sources = sources_for("black-three-block", rs.id)
    top = pile[-1]
    below = list(pile[:-1])
    frozen = any(c.is_wild for c in pile) or pile[0].is_red_three
    facts: dict[str, Any] = {
        "blocked": False,
        "black_three_on_top": top.is_black_three,
        "frozen": frozen,
        "turns": 1,
    }
    if top.is_black_three:
        facts["blocked"] = True
        reasons: list[Problem] = [Problem("pile_block.black_three", "pile", {})]
        if rs.black_three_pile_when_going_out:
            if going_out:
                verdict = referee.discard_pile(
                    rs, players, top, side_melds=side_melds, hand=list(hand), going_out=True
                )
                if verdict.allowed:
                    facts["blocked"] = False
                    facts["melds"] = [list(m) for m in verdict.melds or ()]
                    return Ruling(
                        "black-three-block",
                        True,
                        (Problem("pile_block.exception_used", "pile", {}), *verdict.reasons),
                        facts,
                        sources,
                    )
                reasons.extend(verdict.reasons[:1])
            else:
                # seed 003:100: unless the player melds that black three going out.
                reasons.append(Problem("pile_block.exception", "pile", {}))
        return Ruling("black-three-block", False, tuple(reasons), facts, sources)
    if top.is_wild:
        return Ruling(
            "black-three-block",
            False,
            (Problem("discard_pile.blocked", "pile", {"reason": "wild"}),),
            {**facts, "blocked": True},
            sources,
        )
    reasons = []
    if any(c.is_black_three for c in below):
        # seed 000:97: "Nachdem eine weitere Karte auf die schwarze Drei gelegt wurde, ist die
        # Wirkung des Stoppers verflogen"; seed 003:104.
        reasons.append(Problem("pile_block.covered", "pile", {}))
    else:
        reasons.append(Problem("pile_block.none", "pile", {}))
    if frozen:
        reason = "wild" if any(c.is_wild for c in pile) else "red_three"
        reasons.append(Problem("discard_pile.frozen", "pile", {"reason": reason, "rank": top.rank}))
    return Ruling("black-three-block", True, tuple(reasons), facts, sources)


# ---- the red three taken with the pile ------------------------------------------------------


def red_three_from_pile(rs: RuleSet, players: int, red_threes: int = 1) -> Ruling:
    """Does a red three taken with the discard pile get a replacement card? (seed 003:80)

    ``allowed``: whether a replacement is drawn (never). Facts: ``replacement`` (False),
    ``laid_out`` (True), ``scores`` (what each red three scores, as any red three),
    ``stated``: whether the ruleset's seed says so in words (seed 003:80) or it is this
    scorekeeper's reading (the seed gives the replacement only for a red three drawn from the
    stock), ``possible``: whether the pile can hold a red three at all.

    >>> from .ruleset import get_ruleset
    >>> r = red_three_from_pile(get_ruleset("polish"), 4)
    >>> r.allowed, r.facts["stated"], r.sources[0].line
    (False, True, 80)
    """
    sources = sources_for("red-three-from-pile", rs.id)
    stated = rs.id == "polish" and not rs.threes_by_colour
    # A red three reaches the pile only as its first card, turned up at the deal (seed 000:91,
    # 003:80); where no card is turned up (seed 002:278) and threes are laid out at once, it
    # never does.
    possible = not rs.threes_by_colour
    facts: dict[str, Any] = {
        "replacement": False,
        "laid_out": True,
        "scores": rs.red_three_value,
        "stated": stated,
        "possible": possible,
        "red_threes": red_threes,
    }
    if not possible:
        return Ruling(
            "red-three-from-pile",
            False,
            (Problem("pile_red_three.never", "", {}),),
            facts,
            sources,
        )
    code = "pile_red_three.no_replacement" if stated else "pile_red_three.reading"
    return Ruling(
        "red-three-from-pile",
        False,
        (Problem(code, "", {"count": red_threes, "value": rs.red_three_value, "frozen": True}),),
        facts,
        sources,
    )


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
