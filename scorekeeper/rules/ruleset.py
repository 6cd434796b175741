"""Rulesets as data (docs/rulebook.md): every number and reading is a parameter.

A house rule is ``ruleset.with_options({...})``; code asks parameters, never "is this Polish?".

>>> rs = get_ruleset("german")
>>> rs.card_value(Card("2")), get_ruleset("polish").card_value(Card("2"))
(50, 20)
>>> rs.initial_meld_minimum(1495), rs.initial_meld_minimum(1500), rs.initial_meld_minimum(-5)
(50, 90, 0)
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, json_text
from .problems import Problem

# Threshold tables are tuples of (lowest cumulative score, minimum), ascending; the first row's
# threshold is ignored for scores below it (it covers everything below 0).
MinimumTable = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class RuleSet:
    """Every parameter of a Canasta ruleset (docs/rulebook.md §1–§5)."""

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
    minimum_table: MinimumTable = ((-(10**9), 0), (0, 50), (1500, 90), (3000, 120))
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
    # docs/rulebook.md §5: the pile is frozen against a side that has not melded (german, classic);
    # seed 003 freezes it only with a wild card or a red three in it (polish: False).
    pile_frozen_until_melded: bool = True
    # A reading (docs/rulebook.md §4 with seed 003): going out concealed needs the side's required
    # canastas like any going out; False: one canasta of the player's own is enough.
    concealed_needs_all_canastas: bool = True
    # Decks: 2 packs + 4 jokers; 3 packs + 6 jokers for these player counts.
    three_packs_for_players: tuple[int, ...] = ()
    # §6 Modern American Canasta. Every default leaves the other rulesets as they are.
    sevens_never_mixed: bool = False  # a meld of sevens takes no wild card
    aces_mixed_only_in_initial_meld: bool = False  # mixed aces only in the side's initial meld
    wild_meld_open: bool = False  # wild cards alone make a meld of 3+ that grows to a canasta
    sevens_canasta_bonus: int = 0  # 0: a canasta of sevens scores as any natural canasta
    aces_canasta_bonus: int = 0  # 0: likewise for a natural canasta of aces
    wild_canasta_jokers_bonus: int = 0  # all four jokers in it; 0: as wild_canasta_bonus
    wild_canasta_twos_bonus: int = 0  # twos only; 0: as wild_canasta_bonus
    unfinished_sevens_penalty: int = 0  # an unfinished meld of sevens at the end, minus
    unfinished_aces_penalty: int = 0  # an unfinished natural meld of aces, minus
    unfinished_wild_penalty: int = 0  # an unfinished meld of wild cards, minus
    held_sevens_aces_penalty: int = 0  # a player ends holding enough sevens (or aces), minus
    held_sevens_aces_count: int = 3  # ...this many of one of the two ranks
    threes_by_colour: bool = False  # red and black threes laid out and scored per colour
    threes_table: dict[int, int] = field(default_factory=dict)  # threes of one colour -> points
    threes_zero_canastas: int = 1  # with this many canastas the threes count 0 (fewer: minus)
    threes_plus_canastas: int = 2  # from this many canastas the threes count plus
    going_out_needs_discard: bool = False  # going out ends with a discard
    pile_needs_natural_pair_always: bool = False  # the pile is taken only with a natural pair
    # docs/rulebook.md §6 settled readings of seed 002 (American); the defaults leave the others as
    # they are. A side with no completed canasta subtracts its melded cards.
    melds_minus_without_canasta: bool = False
    # After a side's initial meld, a new meld it starts takes a wild card only once it holds
    # this many natural cards ("clean until they contain at least five cards"); 0: no such rule.
    new_meld_clean_until: int = 0
    # The top card of the pile joins the side's meld of its rank only while that meld holds at
    # most this many cards ("your existing meld has three or four cards"); 0: any size.
    pile_onto_meld_max: int = 0
    # Going out concealed is a way of going out with its own bonus (docs/rulebook.md §4); False
    # where
    # the ruleset knows only going out (docs/rulebook.md §6 American: "bonus 100").
    concealed_going_out: bool = True
    special_straight_value: int = 0  # special hands replace the hand's score; 0: not played
    special_pairs_value: int = 0
    special_garbage_value: int = 0
    # The disputes of the seeds the referee settles (scorekeeper.rules.disputes); the defaults
    # are the classic rules of seed 002. "May I go out?" may be asked of the partner after
    # drawing, and the answer binds (seed 000:125, seed 002:248-252); False: the rules know no
    # such question (seed 003 has none).
    partner_permission: bool = True
    # seed 002:248: asked only before melding anything but the pile's top card.
    partner_permission_before_melds: bool = False
    # seed 002:55 (American): asked only once in each hand.
    partner_permission_once: bool = False
    # seed 002:51, 002:248: asked only by a player able to go out.
    partner_permission_when_able: bool = False
    # With the stock empty, play goes on while players take the discard pile (seed 000:133,
    # 002:61, 002:254); False: the hand ends when a player cannot draw (seed 003:114).
    stock_out_pile: bool = True
    # seed 002:256: with the stock empty a player must take an unfrozen pile whose top card
    # matches a meld of their side.
    stock_out_pile_forced: bool = False
    # Cards drawn from the stock in one turn, by player count where it is not one
    # (seed 002:129-131: two-player Classic draws two).
    stock_draw_by_players: dict[int, int] = field(default_factory=dict)

    # ---- derived values -------------------------------------------------------------

    def card_value(self, card: Card) -> int:
        """Points of one card (docs/rulebook.md §1); red threes are bonus cards and score 0 here."""
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
        """The initial-meld minimum for a side with this cumulative score (docs/rulebook.md §3)."""
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
        """Score of ``count`` red threes to one side, before any penalty sign (docs/rulebook.md
        §4)."""
        special = self.red_three_special_by_players.get(players, self.red_three_special)
        if count in special:
            return special[count]
        return count * self.red_three_value

    def target_for(self, players: int) -> int:
        return self.target_by_players.get(players, self.target)

    def stock_draw(self, players: int) -> int:
        """Cards a player draws from the stock in one turn (seed 002:129: two in two-player
        Classic).

        >>> get_ruleset("classic").stock_draw(2), get_ruleset("classic").stock_draw(4)
        (2, 1)
        """
        return self.stock_draw_by_players.get(players, 1)

    def has_partner(self, players: int) -> bool:
        """Whether a player has a partner to ask (none with two players, each for themself)."""
        return players >= 3

    def allows_wild_canasta(self) -> bool:
        return self.wild_canasta_bonus > 0

    def threes_score(self, count: int, canastas: int) -> int:
        """docs/rulebook.md §6: threes of one colour by count (1 = 100 ... 4 = 1,000), minus with no
        canasta, nothing with one, plus with two or more (the counts are parameters).

        >>> am = get_ruleset("american")
        >>> am.threes_score(2, 0), am.threes_score(2, 1), am.threes_score(4, 2)
        (-300, 0, 1000)
        """
        if count <= 0:
            return 0
        top = max(self.threes_table, default=0)
        points = self.threes_table.get(count)
        if points is None:  # beyond the table (a house deck): the top row plus 100 a card
            points = self.threes_table.get(top, 0) + (count - top) * self.red_three_value
        if canastas >= self.threes_plus_canastas:
            return points
        if canastas >= self.threes_zero_canastas:
            return 0
        return -points

    def special_hands(self) -> dict[str, int]:
        """The special hands this ruleset plays, with their values (docs/rulebook.md §6)."""
        hands = {
            "straight": self.special_straight_value,
            "pairs": self.special_pairs_value,
            "garbage": self.special_garbage_value,
        }
        return {name: value for name, value in hands.items() if value > 0}

    def wild_canasta_score(self, cards_ranks: list[str]) -> int:
        """The bonus of a complete wild canasta: all four jokers, twos only, or any other."""
        if self.wild_canasta_twos_bonus and cards_ranks and all(r == "2" for r in cards_ranks):
            return self.wild_canasta_twos_bonus
        if self.wild_canasta_jokers_bonus and cards_ranks.count("X") >= 4:
            return self.wild_canasta_jokers_bonus
        return self.wild_canasta_bonus

    def has_special_canastas(self) -> bool:
        """Canastas of sevens or aces, or wild canastas of several values (docs/rulebook.md §6)."""
        return bool(
            self.sevens_canasta_bonus
            or self.aces_canasta_bonus
            or self.wild_canasta_jokers_bonus
            or self.wild_canasta_twos_bonus
        )

    def has_meld_penalties(self) -> bool:
        return bool(
            self.unfinished_sevens_penalty
            or self.unfinished_aces_penalty
            or self.unfinished_wild_penalty
            or self.held_sevens_aces_penalty
        )

    # ---- house rules ------------------------------------------------------------------

    def with_options(self, options: Any) -> tuple["RuleSet", list[Problem]]:
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
            # House rules are an object of parameters; anything else is the wrong type.
            return self, [Problem("request.type", "options", {"expected": "object"})]
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
        for key, variants in (
            ("minimum_table", "minimum_table_by_players"),
            ("red_three_special", "red_three_special_by_players"),
            ("target", "target_by_players"),
        ):
            if key in changes:
                changes[variants] = {}
        candidate = dataclasses.replace(self, **changes)
        problems.extend(candidate.consistency_problems())
        if problems:
            return self, problems
        return candidate, []

    def options_against(self, base: "RuleSet") -> dict[str, Any]:
        """The house rules: the parameters where this ruleset differs from ``base``."""
        return {
            key: getattr(self, key)
            for key in OPTION_SPECS
            if getattr(self, key) != getattr(base, key)
        }

    def consistency_problems(self) -> list[Problem]:
        problems = []
        if self.max_meld_size and self.max_meld_size < self.min_meld_size:
            problems.append(
                Problem("options.invalid", "options.max_meld_size", {"key": "max_meld_size"})
            )
        if self.max_meld_size and self.max_meld_size < self.canasta_size:
            problems.append(
                Problem("options.invalid", "options.canasta_size", {"key": "canasta_size"})
            )
        if self.threes_plus_canastas < self.threes_zero_canastas:
            problems.append(
                Problem(
                    "options.invalid",
                    "options.threes_plus_canastas",
                    {"key": "threes_plus_canastas"},
                )
            )
        if self.black_three_meld_max < self.black_three_meld_min:
            problems.append(
                Problem(
                    "options.invalid",
                    "options.black_three_meld_max",
                    {"key": "black_three_meld_max"},
                )
            )
        return problems

    def as_dict(self, players: int | None = None) -> dict[str, Any]:
        """Every parameter, JSON-ready (tables as lists)."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                value = {
                    str(k): (list(map(list, v)) if isinstance(v, tuple) else v)
                    for k, v in value.items()
                }
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
    """What a house rule's value may be: its kind and, for numbers, the bounds."""

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
                threshold = _int_in(row[0], -(10**9), 10**9)
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
    "pile_frozen_until_melded": OptionSpec("bool"),
    "concealed_needs_all_canastas": OptionSpec("bool"),
    "sevens_never_mixed": OptionSpec("bool"),
    "aces_mixed_only_in_initial_meld": OptionSpec("bool"),
    "wild_meld_open": OptionSpec("bool"),
    "sevens_canasta_bonus": OptionSpec("int", 0, 10_000),
    "aces_canasta_bonus": OptionSpec("int", 0, 10_000),
    "wild_canasta_jokers_bonus": OptionSpec("int", 0, 10_000),
    "wild_canasta_twos_bonus": OptionSpec("int", 0, 10_000),
    "unfinished_sevens_penalty": OptionSpec("int", 0, 10_000),
    "unfinished_aces_penalty": OptionSpec("int", 0, 10_000),
    "unfinished_wild_penalty": OptionSpec("int", 0, 10_000),
    "held_sevens_aces_penalty": OptionSpec("int", 0, 10_000),
    "held_sevens_aces_count": OptionSpec("int", 2, 8),
    "threes_by_colour": OptionSpec("bool"),
    "threes_table": OptionSpec("int_map", 0, 10_000),
    "threes_zero_canastas": OptionSpec("int", 0, 6),
    "threes_plus_canastas": OptionSpec("int", 0, 6),
    "going_out_needs_discard": OptionSpec("bool"),
    "pile_needs_natural_pair_always": OptionSpec("bool"),
    "melds_minus_without_canasta": OptionSpec("bool"),
    "new_meld_clean_until": OptionSpec("int", 0, 12),
    "pile_onto_meld_max": OptionSpec("int", 0, 12),
    "concealed_going_out": OptionSpec("bool"),
    "special_straight_value": OptionSpec("int", 0, 10_000),
    "special_pairs_value": OptionSpec("int", 0, 10_000),
    "special_garbage_value": OptionSpec("int", 0, 10_000),
}

_STANDARD_TABLE: MinimumTable = ((-(10**9), 15), (0, 50), (1500, 90), (3000, 120))

PRESETS: dict[str, RuleSet] = {
    # seed 000; docs/rulebook.md §1: twos are worth 50 in the German rules.
    "german": RuleSet(
        id="german",
        name="Canasta (deutsche Regeln)",
        players_allowed=(4,),
        default_players=4,
        two_value=50,
        minimum_table=((-(10**9), 0), (0, 50), (1500, 90), (3000, 120)),
        canastas_to_go_out={4: 1},
        # seed 000:125: "Darf ich ausmachen?" after drawing or taking the pile; seed 000:133:
        # with no stock, play goes on while players take the pile and want to.
        partner_permission=True,
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
        pile_frozen_until_melded=False,
        # seed 003 knows no asking the partner; seed 003:114: the hand ends as soon as a
        # player cannot draw from the stock.
        partner_permission=False,
        stock_out_pile=False,
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
        # seed 002:248: ask right after drawing, before other melds, when able to go out;
        # seed 002:256: with no stock an unfrozen pile matching a side's meld must be taken;
        # seed 002:129-131: two players draw two cards.
        partner_permission_before_melds=True,
        partner_permission_when_able=True,
        stock_out_pile_forced=True,
        stock_draw_by_players={2: 2},
    ),
    # seed 002 (Modern American Canasta); every number from docs/rulebook.md §6. Two players play it
    # with the same numbers, one player a side; three would need the cutthroat partnerships,
    # which no American source describes.
    "american": RuleSet(
        id="american",
        name="Modern American Canasta",
        players_allowed=(2, 4),
        default_players=4,
        max_meld_size=7,
        max_wild_per_meld=2,
        natural_at_least_wild=False,
        min_natural_per_meld=2,
        wild_canasta_bonus=2000,
        minimum_table=((-(10**9), 125), (3000, 155), (5000, 180)),
        concealed_going_out_bonus=100,  # docs/rulebook.md §6 knows only the 100 for going out
        concealed_going_out=False,
        canastas_to_go_out={2: 2, 4: 2},
        red_three_special={},
        target=8500,
        sevens_never_mixed=True,
        aces_mixed_only_in_initial_meld=True,
        wild_meld_open=True,
        sevens_canasta_bonus=2500,
        aces_canasta_bonus=2000,
        wild_canasta_jokers_bonus=2500,
        wild_canasta_twos_bonus=3000,
        unfinished_sevens_penalty=2500,
        unfinished_aces_penalty=2000,
        unfinished_wild_penalty=2000,
        held_sevens_aces_penalty=1500,
        threes_by_colour=True,
        threes_table={1: 100, 2: 300, 3: 500, 4: 1000},
        going_out_needs_discard=True,
        pile_needs_natural_pair_always=True,
        # docs/rulebook.md §6 settled readings of seed 002.
        melds_minus_without_canasta=True,
        new_meld_clean_until=5,
        pile_onto_meld_max=4,
        special_straight_value=3000,
        special_garbage_value=2500,
        special_pairs_value=2000,
        # seed 002:51-55: ask when in a position to go out, only once in each hand.
        partner_permission_once=True,
        partner_permission_when_able=True,
    ),
}

RULESET_IDS: tuple[str, ...] = ("german", "polish", "classic", "american")


def get_ruleset(ruleset_id: str) -> RuleSet:
    """The preset for ``ruleset_id``; raises KeyError for unknown ids."""
    return PRESETS[ruleset_id]


def resolve_ruleset(
    ruleset_id: Any, players: Any = None, options: Any = None
) -> tuple[RuleSet | None, int, list[Problem]]:
    """Ruleset, player count and problems from the loose values of a request: a missing
    ruleset (``None``) is a missing field like any other, one that is no text a wrong type;
    only a text naming no ruleset is ``ruleset.unknown``.

    >>> resolve_ruleset(None)[2]
    [Problem('request.missing', 'ruleset', {})]
    """
    if ruleset_id is None:
        return None, 0, [Problem("request.missing", "ruleset", {})]
    if not isinstance(ruleset_id, str):
        return None, 0, [Problem("request.type", "ruleset", {"expected": "string"})]
    if ruleset_id not in PRESETS:
        return None, 0, [Problem("ruleset.unknown", "ruleset", {"ruleset": _clip(ruleset_id)})]
    base = PRESETS[ruleset_id]
    problems: list[Problem] = []
    if isinstance(players, float) and players.is_integer() and abs(players) <= 2**53:
        players = int(players)  # 6.0 is 6 (JSON Schema counts it an integer too)
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
        problems.append(
            Problem(
                "players.not_allowed",
                "players",
                {"players": count, "allowed": list(rs.players_allowed)},
            )
        )
    return (rs if not problems else None), count, problems


def _clip(value: Any) -> str:
    """The value as the reader wrote it (JSON, never Python's repr), at most 40 characters."""
    return json_text(value, 40)
