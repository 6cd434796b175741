"""Rulesets as data (RULES.md): every number and reading is a parameter.

A house rule is ``ruleset.with_options({...})``; code asks parameters, never "is this Polish?".

>>> rs = get_ruleset("german")
>>> rs.card_value(Card("2")), get_ruleset("polish").card_value(Card("2"))
(50, 20)
>>> rs.initial_meld_minimum(1495), rs.initial_meld_minimum(1500), rs.initial_meld_minimum(-5)
(50, 90, 0)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .problems import Problem

# Threshold tables are tuples of (lowest cumulative score, minimum), ascending; the first row's
# threshold is ignored for scores below it (it covers everything below 0).
MinimumTable = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class RuleSet:
    """Every parameter of a Canasta ruleset (RULES.md §1–§5)."""

    id: str
    name: str
    players_allowed: tuple[int, ...]
    default_players: int
    # §1 card values
    joker_value: int = 50
    two_value: int = 20
    ace_value: int = 20
    high_value: int = 10  # K Q J 10 9 8
    low_value: int = 5  # 7 6 5 4
    black_three_value: int = 5
    # §2 melds
    min_meld_size: int = 3
    max_meld_size: int = 0  # 0: no limit
    max_wild_per_meld: int = 3
    natural_at_least_wild: bool = True  # german/classic: at least as many natural as wild cards
    min_natural_per_meld: int = 2  # polish: at least two natural cards
    canasta_size: int = 7
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    wild_canasta_bonus: int = 0  # 0: wild canastas are not allowed
    black_three_meld_min: int = 3
    black_three_meld_max: int = 4
    # §3 initial meld
    minimum_table: MinimumTable = ((-10**9, 0), (0, 50), (1500, 90), (3000, 120))
    minimum_table_by_players: dict[int, MinimumTable] = field(default_factory=dict)
    concealed_needs_minimum: bool = False
    # §4 end of a hand
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 200  # total, replaces going_out_bonus
    canastas_to_go_out: dict[int, int] = field(default_factory=lambda: {4: 1})
    red_three_value: int = 100
    # Score of n red threes to one side where it differs from n * red_three_value.
    red_three_special: dict[int, int] = field(default_factory=lambda: {4: 800})
    red_three_special_by_players: dict[int, dict[int, int]] = field(default_factory=dict)
    red_threes_negative_without_meld: bool = True
    black_three_in_hand_penalty: int = 5
    target: int = 5000
    target_by_players: dict[int, int] = field(default_factory=dict)
    # §5 the discard pile
    black_three_pile_when_going_out: bool = False  # polish exception
    frozen_needs_natural_pair: bool = True
    # Decks: 2 packs + 4 jokers; 3 packs + 6 jokers for these player counts.
    three_packs_for_players: tuple[int, ...] = ()

    # ---- derived values -------------------------------------------------------------

    def card_value(self, card: Card) -> int:
        """Points of one card (RULES.md §1); red threes are bonus cards and score 0 here."""
        rank = card.rank
        if rank == "X":
            return self.joker_value
        if rank == "2":
            return self.two_value
        if rank == "A":
            return self.ace_value
        if rank in ("K", "Q", "J", "10", "9", "8"):
            return self.high_value
        if rank in ("7", "6", "5", "4"):
            return self.low_value
        if rank == "3b":
            return self.black_three_value
        return 0

    def packs(self, players: int) -> int:
        return 3 if players in self.three_packs_for_players else 2

    def copies_per_rank(self, players: int) -> int:
        """How many cards of one natural rank (or twos, or threes of a colour) the deck has."""
        return 4 * self.packs(players)

    def jokers(self, players: int) -> int:
        return 2 * self.packs(players)

    def red_threes_in_deck(self, players: int) -> int:
        return 2 * self.packs(players)

    def initial_meld_minimum(self, cumulative_score: int, players: int | None = None) -> int:
        """The initial-meld minimum for a side with this cumulative score (RULES.md §3)."""
        table = self.minimum_table_for(players)
        required = table[0][1]
        for threshold, minimum in table:
            if cumulative_score >= threshold:
                required = minimum
        return required

    def minimum_table_for(self, players: int | None = None) -> MinimumTable:
        if players is not None and players in self.minimum_table_by_players:
            return self.minimum_table_by_players[players]
        return self.minimum_table

    def canastas_needed(self, players: int) -> int:
        if players in self.canastas_to_go_out:
            return self.canastas_to_go_out[players]
        return max(self.canastas_to_go_out.values(), default=1)

    def red_three_score(self, count: int, players: int) -> int:
        """Score of ``count`` red threes to one side, before any penalty sign (RULES.md §4)."""
        special = self.red_three_special_by_players.get(players, self.red_three_special)
        if count in special:
            return special[count]
        return count * self.red_three_value

    def target_for(self, players: int) -> int:
        return self.target_by_players.get(players, self.target)

    def allows_wild_canasta(self) -> bool:
        return self.wild_canasta_bonus > 0

    # ---- house rules ------------------------------------------------------------------

    def with_options(self, options: Any) -> tuple[RuleSet, list[Problem]]:
        """This ruleset with house-rule overrides; unknown keys and bad values are problems.

        >>> rs, problems = get_ruleset("german").with_options({"two_value": 20})
        >>> rs.two_value, problems
        (20, [])
        >>> [p.code for p in get_ruleset("german").with_options({"nope": 1})[1]]
        ['options.unknown']
        """
        problems: list[Problem] = []
        if options is None:
            return self, problems
        if not isinstance(options, dict):
            return self, [Problem("options.invalid", "options", {"key": ""})]
        changes: dict[str, Any] = {}
        for key, value in options.items():
            where = f"options.{key}"
            if key not in OPTION_SPECS:
                problems.append(Problem("options.unknown", where, {"key": str(key)[:40]}))
                continue
            spec = OPTION_SPECS[key]
            checked = spec.check(value)
            if checked is None:
                problems.append(Problem("options.invalid", where, {"key": key}))
                continue
            changes[key] = checked
        if problems:
            return self, problems
        # A house rule for a table replaces the per-player-count variants of that table too.
        for key, variants in (("minimum_table", "minimum_table_by_players"),
                              ("red_three_special", "red_three_special_by_players"),
                              ("target", "target_by_players")):
            if key in changes:
                changes[variants] = {}
        candidate = dataclasses.replace(self, **changes)
        problems.extend(candidate.consistency_problems())
        if problems:
            return self, problems
        return candidate, []

    def options_against(self, base: RuleSet) -> dict[str, Any]:
        """The house rules: the parameters where this ruleset differs from ``base``."""
        return {
            key: getattr(self, key)
            for key in OPTION_SPECS
            if getattr(self, key) != getattr(base, key)
        }

    def consistency_problems(self) -> list[Problem]:
        problems = []
        if self.max_meld_size and self.max_meld_size < self.min_meld_size:
            problems.append(Problem("options.invalid", "options.max_meld_size",
                                    {"key": "max_meld_size"}))
        if self.max_meld_size and self.max_meld_size < self.canasta_size:
            problems.append(Problem("options.invalid", "options.canasta_size",
                                    {"key": "canasta_size"}))
        if self.black_three_meld_max < self.black_three_meld_min:
            problems.append(Problem("options.invalid", "options.black_three_meld_max",
                                    {"key": "black_three_meld_max"}))
        return problems

    def as_dict(self, players: int | None = None) -> dict[str, Any]:
        """Every parameter, JSON-ready (tables as lists)."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                value = {str(k): (list(map(list, v)) if isinstance(v, tuple) else v)
                         for k, v in value.items()}
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            data[f.name] = value
        if players is not None:
            data["players"] = players
            data["minimum_table"] = [list(r) for r in self.minimum_table_for(players)]
            data["canastas_needed"] = self.canastas_needed(players)
            data["target"] = self.target_for(players)
        return data


@dataclass(frozen=True)
class OptionSpec:
    kind: str  # "int", "bool", "int_map", "table", "players"
    low: int = 0
    high: int = 100_000

    def check(self, value: Any) -> Any:
        """The value in its stored form, or None when it is not acceptable."""
        if self.kind == "bool":
            return value if isinstance(value, bool) else None
        if self.kind == "int":
            return _int_in(value, self.low, self.high)
        if self.kind == "int_map":
            if not isinstance(value, dict) or not value or len(value) > 12:
                return None
            out: dict[int, int] = {}
            for k, v in value.items():
                key = _int_in(_maybe_int(k), 1, 12)
                val = _int_in(v, self.low, self.high)
                if key is None or val is None:
                    return None
                out[key] = val
            return out
        if self.kind == "table":
            if not isinstance(value, list) or not 1 <= len(value) <= 10:
                return None
            rows: list[tuple[int, int]] = []
            for row in value:
                if not isinstance(row, list | tuple) or len(row) != 2:
                    return None
                threshold = _int_in(row[0], -10**9, 10**9)
                minimum = _int_in(row[1], 0, 10_000)
                if threshold is None or minimum is None:
                    return None
                rows.append((threshold, minimum))
            if [r[0] for r in rows] != sorted({r[0] for r in rows}):
                return None
            return tuple(rows)
        return None


def _maybe_int(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value


def _int_in(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if low <= value <= high else None


OPTION_SPECS: dict[str, OptionSpec] = {
    "joker_value": OptionSpec("int", 0, 1000),
    "two_value": OptionSpec("int", 0, 1000),
    "ace_value": OptionSpec("int", 0, 1000),
    "high_value": OptionSpec("int", 0, 1000),
    "low_value": OptionSpec("int", 0, 1000),
    "black_three_value": OptionSpec("int", 0, 1000),
    "min_meld_size": OptionSpec("int", 2, 7),
    "max_meld_size": OptionSpec("int", 0, 20),
    "max_wild_per_meld": OptionSpec("int", 0, 7),
    "natural_at_least_wild": OptionSpec("bool"),
    "min_natural_per_meld": OptionSpec("int", 1, 7),
    "canasta_size": OptionSpec("int", 3, 12),
    "natural_canasta_bonus": OptionSpec("int", 0, 10_000),
    "mixed_canasta_bonus": OptionSpec("int", 0, 10_000),
    "wild_canasta_bonus": OptionSpec("int", 0, 10_000),
    "black_three_meld_min": OptionSpec("int", 2, 6),
    "black_three_meld_max": OptionSpec("int", 2, 6),
    "minimum_table": OptionSpec("table"),
    "concealed_needs_minimum": OptionSpec("bool"),
    "going_out_bonus": OptionSpec("int", 0, 10_000),
    "concealed_going_out_bonus": OptionSpec("int", 0, 10_000),
    "canastas_to_go_out": OptionSpec("int_map", 0, 6),
    "red_three_value": OptionSpec("int", 0, 10_000),
    "red_three_special": OptionSpec("int_map", 0, 10_000),
    "red_threes_negative_without_meld": OptionSpec("bool"),
    "black_three_in_hand_penalty": OptionSpec("int", 0, 10_000),
    "target": OptionSpec("int", 100, 1_000_000),
    "black_three_pile_when_going_out": OptionSpec("bool"),
    "frozen_needs_natural_pair": OptionSpec("bool"),
}

_STANDARD_TABLE: MinimumTable = ((-10**9, 15), (0, 50), (1500, 90), (3000, 120))

PRESETS: dict[str, RuleSet] = {
    # seed 000; RULES.md §1: twos are worth 50 in the German rules.
    "german": RuleSet(
        id="german",
        name="Canasta (deutsche Regeln)",
        players_allowed=(4,),
        default_players=4,
        two_value=50,
        minimum_table=((-10**9, 0), (0, 50), (1500, 90), (3000, 120)),
        canastas_to_go_out={4: 1},
    ),
    # seed 003
    "polish": RuleSet(
        id="polish",
        name="Kanasta (zasady polskie)",
        players_allowed=(2, 4),
        default_players=4,
        natural_at_least_wild=False,
        min_natural_per_meld=2,
        wild_canasta_bonus=2000,
        minimum_table=_STANDARD_TABLE,
        canastas_to_go_out={2: 2, 4: 1},
        black_three_in_hand_penalty=100,
        black_three_pile_when_going_out=True,
    ),
    # seed 002 (classic international rules)
    "classic": RuleSet(
        id="classic",
        name="Classic Canasta (international)",
        players_allowed=(2, 3, 4, 6),
        default_players=4,
        minimum_table=_STANDARD_TABLE,
        minimum_table_by_players={6: _STANDARD_TABLE + ((7000, 150),)},
        canastas_to_go_out={2: 2, 3: 2, 4: 1, 6: 2},
        red_three_special_by_players={6: {5: 1000, 6: 1200}},
        target_by_players={3: 7500, 6: 10000},
        three_packs_for_players=(6,),
    ),
}

RULESET_IDS: tuple[str, ...] = ("german", "polish", "classic")


def get_ruleset(ruleset_id: str) -> RuleSet:
    """The preset for ``ruleset_id``; raises KeyError for unknown ids."""
    return PRESETS[ruleset_id]


def resolve_ruleset(
    ruleset_id: Any, players: Any = None, options: Any = None
) -> tuple[RuleSet | None, int, list[Problem]]:
    """Ruleset, player count and problems from the loose values of a request."""
    if not isinstance(ruleset_id, str) or ruleset_id not in PRESETS:
        return None, 0, [Problem("ruleset.unknown", "ruleset", {"ruleset": _clip(ruleset_id)})]
    base = PRESETS[ruleset_id]
    problems: list[Problem] = []
    if players is None:
        count = base.default_players
    elif isinstance(players, bool) or not isinstance(players, int):
        return None, 0, [Problem("request.type", "players", {"expected": "integer"})]
    elif not 1 <= players <= 12:
        return None, 0, [Problem("request.value", "players", {"minimum": 2, "maximum": 6})]
    else:
        count = players
    rs, option_problems = base.with_options(options)
    problems.extend(option_problems)
    if count not in rs.players_allowed:
        problems.append(Problem("players.not_allowed", "players",
                                {"players": count, "allowed": list(rs.players_allowed)}))
    return (rs if not problems else None), count, problems


def _clip(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text[:40]
