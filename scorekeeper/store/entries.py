"""One hand entry of a Canasta game: read, checked and scored by the rules engine, nothing
stored. The live preview shows it and a save stores it (:mod:`.changes`), so a hand is scored
once per request; :mod:`.derive` reads stored hands back through :func:`read_entry`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..edge.games import HandRead, read_hand
from ..edge.games import storable as storable
from ..edge.reading import side_json
from ..rules.games import is_cutthroat
from ..rules.problems import Problem
from ..rules.ruleset import PRESETS, RuleSet, resolve_ruleset
from ..rules.scoring import HandResult, SideEntry, score_hand
from .errors import GameProblems
from .models import Game
from .state import HandRow

# A hand is stored as read (``edge.reading.side_json``), at most this many bytes of JSON: a
# 4-player hand in detail takes about 700, a 6-player one with every card listed under 2,000.
HAND_MAX_BYTES = 8192


def canonical(value: Any) -> str:
    """JSON with sorted keys and no spaces: equal values give equal texts."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ---- reading and scoring ---------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A hand entry read and scored: which columns each team stands for."""

    sides: list[SideEntry]
    members: list[list[int]]  # per team: the columns it scores for, in seating order
    result: HandResult
    problems: list[Problem]


def red_threes_of(teams: Any, team: int, place: int = 0) -> int | None:
    """The red threes a stored hand (its sides as stored, ``Hand.teams``) gives one score
    column of side ``team``: the side's number, or, where the side lists them per column
    (cutthroat partners scored apart), the one at ``place`` among the side's columns. None
    where the hand does not say: a side entered as its total only, or an entry of another
    shape. The game page's statistics and a table's both read them here.

    >>> red_threes_of([{"red_threes": 2}, {"red_threes": 0}], 0)
    2
    >>> red_threes_of([{"red_threes": [1, 0]}], 0, place=1)
    0
    >>> red_threes_of([{"total": 350}], 0) is None
    True
    """
    if (
        not isinstance(teams, list)
        or not 0 <= team < len(teams)
        or not isinstance(teams[team], dict)
        or "total" in teams[team]
    ):
        return None
    value = teams[team].get("red_threes", 0)
    if isinstance(value, list):
        value = value[place] if place < len(value) else 0
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def column_said(row: HandRow, column: int) -> tuple[int, dict[str, int]] | None:
    """What a stored hand says of one score column beyond its score: its red threes
    (:func:`red_threes_of`, at the column's place among its side's columns) and its canastas
    by kind; None where the hand does not say (a side entered as its total only). The game
    page's statistics and a table's count both from here, over the same hands."""
    score = row.scores[column]
    place = [k for k, other in enumerate(row.scores) if other.team == score.team].index(column)
    red = red_threes_of(row.teams, score.team, place)
    return None if red is None else (red, score.canastas)


def ruleset_of(game: Game) -> RuleSet:
    return resolved_ruleset(game.ruleset, game.players, canonical(game.options or {}))


@lru_cache(maxsize=256)
def resolved_ruleset(ruleset: str, players: int, options: str) -> RuleSet:
    rs, _, _ = resolve_ruleset(ruleset, players, json.loads(options))
    if rs is None:  # stored house rules no longer valid: score with the preset
        rs = PRESETS.get(ruleset) or PRESETS["classic"]
    return rs


def read_entry(
    rs: RuleSet, players: int, columns: int, teams: Any, lone_player: Any, stock_out: bool
) -> Entry:
    """A ``teams`` list as stored (a hand, a hand's parts) read by the edge and scored for a
    game of ``players`` with ``columns`` score columns (:func:`score_entry`)."""
    hand = read_hand(teams, lone_player, stock_out, stored=True)
    return score_entry(rs, players, columns, hand, stock_out)


def score_entry(rs: RuleSet, players: int, columns: int, hand: HandRead, stock_out: bool) -> Entry:
    """A hand read at the edge, checked for a game of ``players`` with ``columns`` score
    columns (who plays with whom, the red threes of cutthroat partners) and scored; every
    problem collected, those of reading first."""
    sides = hand.sides
    lone_player = hand.lone_player
    problems = list(hand.unread)
    members: list[list[int]] = []
    if is_cutthroat(players):
        if len(sides) == 2:
            if (
                isinstance(lone_player, bool)
                or not isinstance(lone_player, int)
                or not 0 <= lone_player < columns
            ):
                problems.append(Problem("hand.lone_player", "lone_player", {}))
                lone = 0
            else:
                lone = lone_player
            members = [[lone], [c for c in range(columns) if c != lone]]
            # Partners score their own red threes (docs/rulebook.md §4 "3 players").
            partners = sides[1]
            if isinstance(partners.red_threes, int) and partners.red_threes == 0:
                partners.red_threes = [0, 0]
            if not isinstance(partners.red_threes, list) or len(partners.red_threes) != 2:
                problems.append(Problem("red_threes.per_partner", "teams[1].red_threes", {}))
            if isinstance(sides[0].red_threes, list) and len(sides[0].red_threes) != 1:
                problems.append(Problem("red_threes.per_partner", "teams[0].red_threes", {}))
        elif len(sides) == 3:
            if lone_player is not None:
                problems.append(Problem("hand.lone_player", "lone_player", {}))
            members = [[0], [1], [2]]
        elif sides:
            problems.append(
                Problem(
                    "teams.count",
                    "teams",
                    {"teams": len(sides), "players": players, "allowed": [2, 3]},
                )
            )
    else:
        if lone_player is not None:
            problems.append(Problem("hand.lone_player", "lone_player", {}))
        if sides and len(sides) != columns:
            problems.append(
                Problem(
                    "teams.count",
                    "teams",
                    {"teams": len(sides), "players": players, "allowed": [columns]},
                )
            )
        members = [[i] for i in range(len(sides))]
    if stock_out and any(s.went_out or s.concealed for s in sides):
        problems.append(Problem("hand.stock_out_went_out", "stock_out", {}))
    if not sides:
        result = HandResult([], [], [])
    else:
        # Scored even when a field cannot be read, so the live preview shows what it can;
        # the rule problems count only for an entry read in full.
        result = score_hand(rs, players, sides)
        if not hand.unread:
            problems.extend(result.problems)
    if len(members) != len(result.sides):
        members = []
    return Entry(sides, members, result, problems)


@dataclass(frozen=True)
class CheckedHand:
    """A hand entry read, checked and scored for one game (nothing stored): what the live
    preview shows and what a save stores, so a save scores the new hand once."""

    game_id: str
    hand: HandRead  # as the edge read it
    stock_out: bool  # also implied by three teams of one in cutthroat
    entry: Entry

    @property
    def problems(self) -> list[Problem]:
        return self.entry.problems

    @property
    def result(self) -> HandResult:
        return self.entry.result

    @property
    def lone(self) -> Any:
        """The lone player's column as a save stores it: only for a cutthroat hand of two
        teams (the lone player against a partnership), else None."""
        cutthroat_pair = len(self.entry.members) == 2 and len(self.entry.members[1]) > 1
        return self.hand.lone_player if cutthroat_pair else None

    @property
    def stored(self) -> list[dict[str, Any]]:
        """What a save stores: each side as the reader built it (``edge.reading.side_json``),
        never the request's own JSON (unread keys are refused, not kept)."""
        return [side_json(side) for side in self.entry.sides]


def checked_hand(game: Game, hand: HandRead, rules: RuleSet | None = None) -> CheckedHand:
    """Check and score a hand read at the edge for this game without storing it; ``rules``:
    the game's ruleset where the caller has it already (its derived state's ``rules``, which
    are :func:`ruleset_of` the game), else worked out from the game's row.

    In cutthroat, three teams of one mean the stock ran out before anyone took the pile, so
    ``stock_out`` is implied.
    """
    stock_out = hand.stock_out
    if is_cutthroat(game.players) and len(hand.sides) == 3:
        stock_out = True
    rs = ruleset_of(game) if rules is None else rules
    entry = score_entry(rs, game.players, len(game.sides), hand, stock_out)
    problems = [*hand.before, *entry.problems, *hand.unstorable]
    checked = CheckedHand(
        game.id, hand, stock_out, Entry(entry.sides, entry.members, entry.result, problems)
    )
    if not problems and len(canonical(checked.stored).encode()) > HAND_MAX_BYTES:
        problems.append(Problem("hand.too_large", "teams", {"limit": HAND_MAX_BYTES}))
    return checked


def check_hand(game: Game, hand: HandRead) -> tuple[bool, list[Problem]]:
    """Validate a hand entry for this game without storing it: ``(stock_out, problems)``."""
    checked = checked_hand(game, hand)
    return checked.stock_out, list(checked.problems)


def checked_for(game: Game, checked: CheckedHand | None, hand: HandRead) -> CheckedHand:
    """The entry checked for this game: the caller's, if it checked this very hand."""
    if checked is None or checked.game_id != game.id or checked.hand is not hand:
        checked = checked_hand(game, hand)
    if checked.problems:
        raise GameProblems(list(checked.problems))
    return checked
