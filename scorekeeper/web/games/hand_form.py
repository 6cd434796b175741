"""The Canasta hand form: the fields of each side as typed, filled from a stored hand or from
a post, and turned into the API's ``teams`` list (:func:`build_entry`) that the rules engine
scores and the store keeps. Nothing typed is lost on a re-render: every field keeps its text.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from werkzeug.datastructures import MultiDict

from ...rules.cards import parse_cards
from ...rules.problems import Problem
from ...rules.ruleset import RuleSet
from ...rules.scoring import MAX_ADJUSTMENT_NOTE, MAX_ADJUSTMENTS, SPECIAL_QUICK_FIELDS
from ...store import GameState
from ..play.entry import FieldGroup
from ..play.pages import read_int
from ..words.names import card_label

PAD_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "X", "3r", "3b")
QUICK_FIELDS = (
    "natural_canastas",
    "mixed_canastas",
    "wild_canastas",
    "meld_points",
    "hand_points",
    "black_threes_in_hand",
)
CANASTA_FIELDS = QUICK_FIELDS[:3]
#: docs/rulebook.md §6: the special canastas (shown with the canastas) and the penalties.
SPECIAL_CANASTA_FIELDS = (
    "sevens_canastas",
    "aces_canastas",
    "wild_canastas_jokers",
    "wild_canastas_twos",
)
PENALTY_FIELDS = ("unfinished_sevens", "unfinished_aces", "unfinished_wild", "sevens_aces_held")


def special_fields(rs: RuleSet) -> list[str]:
    """The quick fields of special canastas and penalties this ruleset scores (its parameter
    for the field is not 0); other rulesets never see them."""
    return [name for name, param in SPECIAL_QUICK_FIELDS.items() if getattr(rs, param)]


class Mode(StrEnum):
    """How a side is entered: counted the way players count, card by card, or only the
    hand's score as the table counted it."""

    QUICK = "quick"
    DETAIL = "detail"
    TOTAL = "total"


MIN_MELD_FIELDS = 3
MAX_MELD_FIELDS = 30


@dataclass
class SideForm(FieldGroup):
    """One side of the hand being entered, with the text exactly as typed."""

    letter: ClassVar[str] = "t"
    name: str
    players: list[str]  # player names on this side in this hand
    columns: list[int]  # score columns this side scores for
    mode: Mode = Mode.QUICK
    melds: list[str] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)
    red: list[str] = field(default_factory=list)  # one per player where players score their own
    quick: dict[str, str] = field(default_factory=dict)
    meld_counts: dict[int, str] = field(default_factory=dict)
    hand_counts: dict[int, str] = field(default_factory=dict)
    minimums: list[int] = field(default_factory=list)  # per column
    totals_before: list[int] = field(default_factory=list)  # per column
    black: str = ""  # black threes laid out (docs/rulebook.md §6), where threes score by colour
    special: str = ""  # a special hand (docs/rulebook.md §6), or ""
    # agreed corrections, as typed: (points, note) pairs, at least one (empty).
    adjustments: list[tuple[str, str]] = field(default_factory=list)
    total: str = ""  # the hand's score as the table counted it (total mode)

    def is_empty(self) -> bool:
        """Nothing typed for this side in the way it is entered (a forgotten side)."""
        typed = [
            *self.red,
            self.black,
            self.special,
            *(t for pair in self.adjustments for t in pair),
        ]
        if self.mode is Mode.TOTAL:
            typed = [self.total, *(t for pair in self.adjustments for t in pair)]
        elif self.mode is Mode.QUICK:
            typed += [*self.quick.values(), *self.meld_counts.values(), *self.hand_counts.values()]
        else:
            typed += [*self.melds, *self.hands]
        return not any(t.strip() for t in typed)


@dataclass
class HandForm:
    """The hand entry form of a Canasta game, as typed: each side's fields and the hand's own."""

    sides: list[SideForm]
    out: str = ""  # side index, "stock", or "" (not chosen)
    concealed: bool = False
    lone: str = ""  # cutthroat: the lone player's column, or "all"
    version: int = 0
    number: int | None = None  # the hand being corrected, None for a new hand
    dealer: str = ""
    extra_slots: tuple[str, ...] = ()  # the note slots of fields only some rulesets have
    # Cutthroat: the player who went out before anyone took the pile, made the lone player
    # (seed 002:139); empty when the form was not changed so.
    lone_went_out: str = ""

    def empty_sides(self) -> list[SideForm]:
        """The sides with nothing entered (a side that went out too): saving them as 0 is
        asked first."""
        return [s for s in self.sides if s.is_empty()]


def extra_slots(rs: RuleSet) -> tuple[str, ...]:
    """The note slots of each side for the fields only some rulesets have (docs/rulebook.md §6)."""
    slots = []
    if any(name in PENALTY_FIELDS for name in special_fields(rs)):
        slots.append("q-penalties")
    if rs.threes_by_colour:
        slots.append("black")
    if rs.special_hands():
        slots.append("special")
    return tuple(slots)


def card_token(rank: str) -> str:
    """A card as the pad writes it into a field, in the reader's letters (docs/api.md §2)."""
    return {"3r": "3\u2665", "3b": "3\u2660"}.get(rank, card_label(rank))


def cards_text(cards: Iterable[str]) -> str:
    return " ".join(card_token(str(c)) for c in cards)


def count_values(rs: RuleSet) -> list[int]:
    """The distinct card values players count with (50s, 20s, 10s, 5s)."""
    values = {
        rs.joker_value,
        rs.two_value,
        rs.ace_value,
        rs.high_value,
        rs.low_value,
        rs.black_three_value,
    }
    return sorted((v for v in values if v > 0), reverse=True)


def hand_sides(state: GameState, lone: str) -> list[tuple[str, list[str], list[int]]]:
    """The sides of a hand: (name, player names, columns). In 3-player cutthroat they change
    from hand to hand: the lone player against the other two, or everyone alone."""
    columns = state.columns
    if not state.cutthroat:
        return [(c.name, list(c.players), [i]) for i, c in enumerate(columns)]
    if lone == "all" or not lone.isdigit() or int(lone) >= len(columns):
        return [(c.name, [c.name], [i]) for i, c in enumerate(columns)]
    k = int(lone)
    pair = [i for i in range(len(columns)) if i != k]
    return [
        (columns[k].name, [columns[k].name], [k]),
        (" & ".join(columns[i].name for i in pair), [columns[i].name for i in pair], pair),
    ]


def _context_for(state: GameState, number: int | None) -> tuple[list[int], list[int], str]:
    """Minimums and totals per column before the hand, and who deals it."""
    if number is None:
        return (
            [c.minimum_meld for c in state.columns],
            [c.total for c in state.columns],
            state.next_dealer.name,
        )
    row = state.hands[number - 1]
    return (
        [s.minimum_meld for s in row.scores],
        [s.total - s.score for s in row.scores],
        row.dealer.name,
    )


def _make_sides(state: GameState, lone: str, number: int | None) -> tuple[list[SideForm], str]:
    minimums, totals, dealer = _context_for(state, number)
    sides = []
    for i, (name, players, cols) in enumerate(hand_sides(state, lone)):
        sides.append(
            SideForm(
                i,
                name,
                players,
                cols,
                minimums=[minimums[c] for c in cols],
                totals_before=[totals[c] for c in cols],
            )
        )
    return sides, dealer


def _mode_of(team: Any) -> Mode:
    if isinstance(team, dict) and "total" in team:
        return Mode.TOTAL
    if isinstance(team, dict) and "quick" in team:
        return Mode.QUICK
    return Mode.DETAIL


def _last_modes(state: GameState) -> list[Mode]:
    """Each side enters the way it did last time (quick, in detail or as a total)."""
    if not state.hands:
        return []
    return [_mode_of(t) for t in state.hands[-1].teams]


def blank_hand(state: GameState) -> HandForm:
    lone = "0" if state.cutthroat else ""
    if state.cutthroat and state.hands:
        last = state.hands[-1]
        lone = "all" if last.lone_player is None else str(last.lone_player)
    sides, dealer = _make_sides(state, lone, None)
    modes = _last_modes(state)
    for side in sides:
        if len(modes) == len(sides):
            side.mode = modes[side.index]
        _pad_fields(side)
    return HandForm(
        sides, lone=lone, version=state.version, dealer=dealer, extra_slots=extra_slots(state.rules)
    )


def _pad_fields(side: SideForm) -> None:
    """Enough empty fields to type into: one spare meld field (at least three in all), a hand
    field per player, a red-three field per player who scores their own."""
    while len(side.melds) < MIN_MELD_FIELDS or (
        side.melds and side.melds[-1].strip() and len(side.melds) < MAX_MELD_FIELDS
    ):
        side.melds.append("")
    while len(side.hands) < len(side.players):
        side.hands.append("")
    del side.hands[len(side.players) :]
    if not side.adjustments:
        side.adjustments.append(("", ""))
    wanted = len(side.players) if _per_player_red(side) else 1
    while len(side.red) < wanted:
        side.red.append("")
    del side.red[wanted:]


def _per_player_red(side: SideForm) -> bool:
    # docs/rulebook.md §4 "3 players": partners combine melds but not red threes. Only a cutthroat
    # partnership spans several score columns.
    return len(side.columns) > 1


def fill_side(state: GameState, side: SideForm, team: Any) -> None:
    """A side's fields filled from its stored entry (``edge.reading.side_json``): the whole
    hand's when it is corrected, or a side's part of the open hand (``store.parts``)."""
    if not isinstance(team, dict):
        return
    red = team.get("red_threes", 0)
    side.red = [str(r) for r in red] if isinstance(red, list) else [str(red)]
    side.black = str(team.get("black_threes") or "")
    side.special = str(team.get("special_hand") or "")
    side.adjustments = [
        (str(a.get("points", "")), str(a.get("note", "")))
        for a in team.get("adjustments") or []
        if isinstance(a, dict)
    ]
    quick = team.get("quick")
    if "total" in team:
        side.mode = Mode.TOTAL
        side.total = str(team.get("total"))
    elif isinstance(quick, dict):
        side.mode = Mode.QUICK
        side.quick = {
            k: str(quick.get(k, 0)) for k in (*QUICK_FIELDS, *special_fields(state.rules))
        }
    else:
        side.mode = Mode.DETAIL
        side.melds = [cards_text(m) for m in team.get("melds") or []]
        side.hands = [cards_text(h) for h in team.get("hands") or []]
    _pad_fields(side)


def part_form(state: GameState, parts: list[Any]) -> HandForm:
    """The open hand's form with the sides' parts in so far (``parts``: per side, its stored
    part or None): each side's phone shows its own part from it, and the preview checks a part
    with the others."""
    form = blank_hand(state)
    for side, part in zip(form.sides, parts, strict=False):
        if part is not None:
            fill_side(state, side, part)
            if isinstance(part, dict) and (part.get("went_out") or part.get("concealed")):
                form.out = str(side.index)
                form.concealed = bool(part.get("concealed"))
    return form


def hand_from_stored(state: GameState, number: int) -> HandForm:
    row = state.hands[number - 1]
    lone = ""
    if state.cutthroat:
        lone = "all" if row.lone_player is None else str(row.lone_player)
    sides, dealer = _make_sides(state, lone, number)
    for side, team in zip(sides, row.teams, strict=False):
        fill_side(state, side, team)
    out = "stock" if row.stock_out else ""
    concealed = False
    for i, team in enumerate(row.teams):
        if isinstance(team, dict) and (team.get("went_out") or team.get("concealed")):
            out = str(i)
            concealed = bool(team.get("concealed"))
    return HandForm(
        sides,
        out=out,
        concealed=concealed,
        lone=lone,
        version=state.version,
        number=number,
        dealer=dealer,
        extra_slots=extra_slots(state.rules),
    )


class _Posted:
    """The posted fields as plain dicts: ``get`` gives a field's first value, ``getlist`` all
    of them. A ``MultiDict`` raises and catches an exception for every field it lacks, and a
    side counted quickly lacks most of the form's fields, read on every keystroke of the live
    preview; both are a dict's own ``get``, without a Python call per field."""

    __slots__ = ("get", "getlist")

    def __init__(self, form: MultiDict[str, str]) -> None:
        lists = dict(form.lists())
        self.get = {k: v[0] for k, v in lists.items() if v}.get
        self.getlist = lists.get


def read_hand_form(state: GameState, posted: MultiDict[str, str], number: int | None) -> HandForm:
    """The hand form as posted (everything kept as typed, so nothing is lost on a re-render)."""
    form = _Posted(posted)
    quick_fields = (*QUICK_FIELDS, *special_fields(state.rules))
    lone = form.get("lone", "") if state.cutthroat else ""
    if state.cutthroat and lone != "all" and not (lone.isdigit() and int(lone) < 3):
        lone = "0"
    sides, dealer = _make_sides(state, lone, number)
    values = count_values(state.rules)
    for side in sides:
        p = side.prefix
        mode = form.get(f"{p}-mode")
        side.mode = Mode(mode) if mode in (Mode.DETAIL, Mode.TOTAL) else Mode.QUICK
        side.total = form.get(f"{p}-total", "")[:12]
        side.melds = [m[:400] for m in form.getlist(f"{p}-meld", [])][:MAX_MELD_FIELDS]
        side.hands = [h[:400] for h in form.getlist(f"{p}-hand", [])]
        side.red = [r[:12] for r in form.getlist(f"{p}-red", [])]
        side.quick = {k: form.get(f"{p}-{k}", "")[:12] for k in quick_fields}
        side.black = form.get(f"{p}-black", "")[:12]
        side.adjustments = list(
            zip(
                [t[:12] for t in form.getlist(f"{p}-adj-points", [])],
                # kept as typed (a little more than allowed, so "too long" can be said)
                [t[: MAX_ADJUSTMENT_NOTE * 2] for t in form.getlist(f"{p}-adj-note", [])],
                strict=False,
            )
        )[:MAX_ADJUSTMENTS]
        special = form.get(f"{p}-special", "")
        side.special = special if special in state.rules.special_hands() else ""
        side.meld_counts = {v: form.get(f"{p}-mc-{v}", "")[:6] for v in values}
        side.hand_counts = {v: form.get(f"{p}-hc-{v}", "")[:6] for v in values}
        _pad_fields(side)
    version = read_int(form.get("version", "")) or 0
    out = form.get("out", "")[:8]
    lone_went_out = ""
    if (
        state.cutthroat
        and lone == "all"
        and out.isdigit()
        and int(out) < len(state.columns)
        and form.get("action") not in ("save", "save-anyway")
    ):
        # seed 002:139: "If a player goes out before anyone has taken the discard pile, the
        # player who goes out is the lone player": choosing who went out while everyone was
        # alone makes that player the lone one (the first side of the form). The live
        # preview reads it so too; a save as posted is refused in the rule's words instead.
        lone_went_out = state.columns[int(out)].name
        lone, out = out, "0"
        sides = _rebuilt(state, sides, lone, number)
    return HandForm(
        sides,
        out=out,
        concealed=form.get("concealed") == "1",
        lone=lone,
        lone_went_out=lone_went_out,
        version=version,
        number=number,
        dealer=dealer,
        extra_slots=extra_slots(state.rules),
    )


def _rebuilt(
    state: GameState, typed: list[SideForm], lone: str, number: int | None
) -> list[SideForm]:
    """The sides of the lone player and the pair, keeping what was typed for the lone player
    (the pair's fields start empty: two players' cards do not add up field by field)."""
    sides, _dealer = _make_sides(state, lone, number)
    mine = typed[int(lone)]
    keep = sides[0]
    for name in ("mode", "total", "melds", "hands", "red", "quick", "black", "adjustments"):
        setattr(keep, name, getattr(mine, name))
    for name in ("special", "meld_counts", "hand_counts"):
        setattr(keep, name, getattr(mine, name))
    for side in sides:
        _pad_fields(side)
    return sides


# ---- entering a hand: from the form to the score request -------------------------------------


@dataclass
class Entry:
    """The form turned into the API's ``teams`` list, with what reading it found."""

    teams: list[dict[str, Any]]
    lone_player: int | None
    stock_out: bool
    problems: list[Problem]
    meld_fields: list[list[int]]  # per side: field index of each sent meld
    sums: list[dict[str, int]]  # per side: points computed by the card counter


def _number_field(text: str, where: str, problems: list[Problem]) -> int:
    if not text.strip():
        return 0
    value = read_int(text)
    if value is None:
        problems.append(Problem("request.type", where, {"expected": "integer"}))
        return 0
    return value


def build_entry(state: GameState, form: HandForm) -> Entry:
    """The form as the API's ``teams`` list: only the mode each side chose counts, cards in
    English notation, problems for what cannot be read (placed by their ``where``)."""
    problems: list[Problem] = []
    teams: list[dict[str, Any]] = []
    meld_fields: list[list[int]] = []
    sums: list[dict[str, int]] = []
    for side in form.sides:
        w = f"teams[{side.index}]"
        team: dict[str, Any] = {}
        fields_sent: list[int] = []
        side_sums: dict[str, int] = {}
        if side.mode is Mode.TOTAL:
            typed = side.total.strip().replace("\u2212", "-").removeprefix("+")
            team["total"] = _number_field(typed, f"{w}.total", problems)
        elif side.mode is Mode.QUICK:
            quick: dict[str, int] = {}
            for key in (*QUICK_FIELDS, *special_fields(state.rules)):
                quick[key] = _number_field(side.quick.get(key, ""), f"{w}.quick.{key}", problems)
            for kind, counts in (
                ("meld_points", side.meld_counts),
                ("hand_points", side.hand_counts),
            ):
                total = sum(
                    v * _number_field(t, f"{w}.quick.{kind}", problems) for v, t in counts.items()
                )
                if any(t.strip() for t in counts.values()):
                    side_sums[kind] = total
                    if not side.quick.get(kind, "").strip():
                        quick[kind] = total
            team["quick"] = quick
        else:
            melds: list[list[str]] = []
            for f, text in enumerate(side.melds):
                if not text.strip():
                    continue
                cards, found = parse_cards(text, f"{w}.melds[{len(melds)}]")
                problems.extend(found)
                melds.append([c.rank for c in cards])
                fields_sent.append(f)
            hands = []
            for h, text in enumerate(side.hands):
                cards, found = parse_cards(text, f"{w}.hands[{h}]")
                problems.extend(found)
                hands.append([c.rank for c in cards])
            team["melds"] = melds
            team["hands"] = hands
        if side.mode is not Mode.TOTAL:
            # a total already counts the threes and a special hand
            reds = [_number_field(t, f"{w}.red_threes", problems) for t in side.red] or [0]
            team["red_threes"] = reds if _per_player_red(side) else reds[0]
            if state.rules.threes_by_colour:
                team["black_threes"] = _number_field(side.black, f"{w}.black_threes", problems)
            if side.special:
                team["special_hand"] = side.special
        team["went_out"] = form.out == str(side.index)
        team["concealed"] = form.concealed and team["went_out"]
        adjustments: list[dict[str, Any]] = []
        for points, note in side.adjustments:
            if not points.strip() and not note.strip():
                continue
            where = f"{w}.adjustments[{len(adjustments)}]"
            if not points.strip():
                problems.append(Problem("request.missing", f"{where}.points", {}))
            typed = points.strip().removeprefix("+")
            adjustments.append(
                {"points": _number_field(typed, f"{where}.points", problems), "note": note}
            )
        if adjustments:
            team["adjustments"] = adjustments
        teams.append(team)
        meld_fields.append(fields_sent)
        sums.append(side_sums)
    if form.concealed and not form.out.isdigit():
        problems.append(Problem("concealed.nobody_out", "concealed", {}))
    lone_player = int(form.lone) if state.cutthroat and form.lone.isdigit() else None
    stock_out = form.out == "stock" or (state.cutthroat and form.lone == "all")
    if state.cutthroat and form.lone == "all" and form.out.isdigit():
        # docs/rulebook.md §3 (3 players): everyone scores alone only when the stock runs out before
        # the pile was ever taken; who goes out before that is the lone player. Said in those
        # words here, rather than as "the stock ran out, so nobody went out".
        out = int(form.out)
        name = form.sides[out].name if out < len(form.sides) else ""
        problems.append(Problem("hand.alone_went_out", "lone_player", {"name": name}))
    return Entry(teams, lone_player, stock_out, problems, meld_fields, sums)
