"""The new-game form of Canasta: what the page shows, and reading what was posted into the
store's arguments (``store.games.create_game``), with a note next to each field that cannot
be read. The form re-renders itself when the ruleset, the number of players or the layout
changes (the house-rule fields follow the ruleset).
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ...rules.problems import Problem
from ...rules.ruleset import OPTION_SPECS, PRESETS, RULESET_IDS, RuleSet
from ..play.entry import problem_text
from ..play.notes import Notes
from ..play.pages import read_int
from ..words.i18n import current_language, home_ruleset
from ..words.parameters import format_value, option_labels

# Default side names by language (issue: "Wir/Ihr" de, "My/Wy" pl, "Us/Them" en), for two or
# three sides; they are names the players change, so they are data rather than UI strings.
SIDE_NAMES = {
    "de": ("Wir", "Ihr", "Sie"),
    "pl": ("My", "Wy", "Oni"),
    "en": ("Us", "Them", "Others"),
}


@dataclass
class OptionField:
    """One house rule of the new game form: its value as typed and the ruleset's in words."""

    key: str
    kind: str
    label: str
    value: Any  # int / bool, or a list of (key, value) text rows for maps and tables
    standard: str  # the ruleset's value in words ("" for an empty map: nothing to say)
    group: str = ""  # its group in OPTION_GROUPS


#: The house rules in groups, as a table talks about them (every key of OPTION_SPECS but the
#: target, which has its own field, is in one group).
OPTION_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "values",
        ("joker_value", "two_value", "ace_value", "high_value", "low_value", "black_three_value"),
    ),
    (
        "melds",
        (
            "min_meld_size",
            "max_meld_size",
            "max_wild_per_meld",
            "natural_at_least_wild",
            "min_natural_per_meld",
            "black_three_meld_min",
            "black_three_meld_max",
            "sevens_never_mixed",
            "aces_mixed_only_in_initial_meld",
            "wild_meld_open",
            "new_meld_clean_until",
        ),
    ),
    (
        "canastas",
        (
            "canasta_size",
            "natural_canasta_bonus",
            "mixed_canasta_bonus",
            "wild_canasta_bonus",
            "sevens_canasta_bonus",
            "aces_canasta_bonus",
            "wild_canasta_jokers_bonus",
            "wild_canasta_twos_bonus",
        ),
    ),
    (
        "pile",
        (
            "minimum_table",
            "frozen_needs_natural_pair",
            "pile_frozen_until_melded",
            "pile_needs_natural_pair_always",
            "pile_onto_meld_max",
            "black_three_pile_when_going_out",
        ),
    ),
    (
        "going_out",
        (
            "going_out_bonus",
            "canastas_to_go_out",
            "going_out_needs_discard",
            "concealed_going_out",
            "concealed_going_out_bonus",
            "concealed_needs_minimum",
            "concealed_needs_all_canastas",
        ),
    ),
    (
        "threes",
        (
            "red_three_value",
            "red_three_special",
            "red_threes_negative_without_meld",
            "black_three_in_hand_penalty",
            "threes_by_colour",
            "threes_table",
            "threes_zero_canastas",
            "threes_plus_canastas",
        ),
    ),
    (
        "penalties",
        (
            "unfinished_sevens_penalty",
            "unfinished_aces_penalty",
            "unfinished_wild_penalty",
            "held_sevens_aces_penalty",
            "held_sevens_aces_count",
            "melds_minus_without_canasta",
            "special_straight_value",
            "special_pairs_value",
            "special_garbage_value",
        ),
    ),
)
#: Parameters that do something only while another is on in the ruleset.
NEEDS: dict[str, str] = {
    "held_sevens_aces_count": "held_sevens_aces_penalty",
    "threes_table": "threes_by_colour",
    "threes_zero_canastas": "threes_by_colour",
    "threes_plus_canastas": "threes_by_colour",
    "concealed_going_out_bonus": "concealed_going_out",
    "concealed_needs_minimum": "concealed_going_out",
    "concealed_needs_all_canastas": "concealed_going_out",
}
#: Parameters another replaces while it is on (docs/rulebook.md §6: the threes table).
REPLACED_BY: dict[str, str] = {"red_three_special": "threes_by_colour"}


def shown_options(base: RuleSet) -> set[str]:
    """The parameters a game of ``base`` is offered as house rules: not another ruleset's own
    (off here and on in only one other ruleset, such as American special canastas in a Polish
    game), nor one that does nothing under ``base``."""
    out = set()
    for key in OPTION_SPECS:
        if key == "target":
            continue
        own_elsewhere = sum(1 for rs in PRESETS.values() if getattr(rs, key)) == 1
        if not getattr(base, key) and own_elsewhere:
            continue
        if key in NEEDS and not getattr(base, NEEDS[key]):
            continue
        if key in REPLACED_BY and getattr(base, REPLACED_BY[key]):
            continue
        out.add(key)
    return out


def group_titles() -> dict[str, str]:
    return {
        "values": _("Card values"),
        "melds": _("Melds"),
        "canastas": _("Canastas"),
        "pile": _("Initial meld and the discard pile"),
        "going_out": _("Going out"),
        "threes": _("Threes"),
        "penalties": _("Penalties and special hands"),
    }


@dataclass
class NewGameForm:
    """The new game form, as typed: ruleset, players, sides and names, target and house rules."""

    ruleset: str
    players: int
    layout: int  # number of sides
    side_names: list[str]
    player_names: list[list[str]]
    target: str
    options: list[OptionField]
    opts_for: str
    open_options: bool = False
    open_groups: set[str] = field(default_factory=set)  # groups holding a change or a note

    @property
    def base(self) -> RuleSet:
        return PRESETS[self.ruleset]

    @property
    def per_side(self) -> int:
        return self.players // self.layout

    def option_groups(self) -> list[tuple[str, str, list[OptionField]]]:
        """The house-rule fields by group: (group, its title, the fields)."""
        titles = group_titles()
        return [
            (group, titles[group], [o for o in self.options if o.group == group])
            for group, _keys in OPTION_GROUPS
            if any(o.group == group for o in self.options)
        ]


def default_layout(players: int) -> int:
    return 3 if players == 3 else 2


def default_side_names(count: int) -> list[str]:
    names = SIDE_NAMES.get(current_language(), SIDE_NAMES["en"])
    return [names[i] if i < len(names) else _("Side %(num)s", num=i + 1) for i in range(count)]


def option_rows(kind: str, value: Any) -> list[tuple[str, str]]:
    if kind == "table":
        return [("" if i == 0 else str(t), str(m)) for i, (t, m) in enumerate(value)] + [("", "")]
    return [(str(k), str(v)) for k, v in sorted(value.items())] + [("", "")]


def option_fields(base: RuleSet, values: dict[str, Any] | None = None) -> list[OptionField]:
    """The house-rule fields of ``base`` (:func:`shown_options`), group by group."""
    labels = option_labels()
    shown = shown_options(base)
    out = []
    for group, key in ((g, k) for g, keys in OPTION_GROUPS for k in keys if k in shown):
        spec = OPTION_SPECS[key]
        standard = getattr(base, key)
        value = (values or {}).get(key, standard)
        if spec.kind in ("int_map", "table") and not isinstance(value, list):
            value = option_rows(spec.kind, value)
        out.append(
            OptionField(key, spec.kind, labels[key], value, format_value(key, standard), group)
        )
    return out


def blank_new_game(
    ruleset: str = "german", players: int | None = None, layout: int | None = None
) -> NewGameForm:
    base = PRESETS[ruleset]
    count = players if players in base.players_allowed else base.default_players
    sides = layout if count == 6 and layout in (2, 3) else default_layout(count)
    per_side = count // sides
    names = default_side_names(sides) if per_side > 1 else ["" for _ in range(sides)]
    return NewGameForm(
        ruleset,
        count,
        sides,
        names,
        [["" for _ in range(per_side)] for _ in range(sides)],
        str(base.target_for(count)),
        option_fields(base),
        f"{ruleset}:{count}",
    )


def read_new_game(form: MultiDict[str, str]) -> tuple[NewGameForm, dict[str, Any], Notes]:
    """The new-game form as posted: the form to show again, the store's arguments, problems."""
    notes = Notes()
    ruleset = form.get("ruleset", "")
    if ruleset not in RULESET_IDS:
        # Only a hand-made request gets here: say so, and offer the reader's usual rules.
        notes.add(
            "form", problem_text(Problem("ruleset.unknown", "ruleset", {"ruleset": ruleset[:40]}))
        )
        ruleset = home_ruleset()
    base = PRESETS[ruleset]
    players = read_int(form.get("players", "")) or base.default_players
    if players not in base.players_allowed:
        players = base.default_players
    layout = read_int(form.get("layout", "")) or default_layout(players)
    if players != 6 or layout not in (2, 3):
        layout = default_layout(players)
    fresh = blank_new_game(ruleset, players, layout)
    per_side = players // layout
    opts_for = f"{ruleset}:{players}"
    same_basis = form.get("opts_for") == opts_for

    side_names = [
        form.get(f"side-{i}", fresh.side_names[i]).strip()
        if form.get("layout_for") == f"{opts_for}:{layout}"
        else fresh.side_names[i]
        for i in range(layout)
    ]
    player_names = [
        [form.get(f"player-{i}-{j}", "").strip() for j in range(per_side)] for i in range(layout)
    ]
    target_text = form.get("target", "") if same_basis else fresh.target

    values: dict[str, Any] = {}
    changes: dict[str, Any] = {}
    if same_basis:
        shown = shown_options(base)
        for key, spec in OPTION_SPECS.items():
            if key not in shown:  # not offered: stays as the ruleset has it
                continue
            name = f"opt-{key}"
            standard = getattr(base, key)
            if spec.kind == "bool":
                value: Any = form.get(name) == "1"
                values[key] = value
                if value != standard:
                    changes[key] = value
            elif spec.kind == "int":
                text = form.get(name, "").strip()
                parsed = read_int(text) if text else standard
                values[key] = text if text else standard
                if parsed is None:
                    notes.add(
                        f"opt-{key}",
                        problem_text(Problem("options.invalid", f"options.{key}", {"key": key})),
                    )
                elif parsed != standard:
                    changes[key] = parsed
            else:
                rows = list(zip(form.getlist(f"{name}-k"), form.getlist(f"{name}-v"), strict=False))
                values[key] = [(k.strip(), v.strip()) for k, v in rows] + [("", "")]
                parsed_rows, ok = _rows(rows, spec.kind, standard)
                if not ok:
                    notes.add(
                        f"opt-{key}",
                        problem_text(Problem("options.invalid", f"options.{key}", {"key": key})),
                    )
                elif parsed_rows != _jsonable(standard):
                    changes[key] = parsed_rows
    nf = NewGameForm(
        ruleset,
        players,
        layout,
        side_names,
        player_names,
        target_text,
        option_fields(base, values) if same_basis else fresh.options,
        opts_for,
        open_options=bool(changes) or any(k.startswith("opt-") for k in notes),
    )

    target = read_int(target_text)
    if target is None:
        notes.add("target", problem_text(Problem("request.type", "target", {})))
    if changes and not notes:
        _rs, problems = base.with_options(changes)
        for p in problems:
            notes.add("opt-" + p.where.removeprefix("options."), problem_text(p))
        nf.open_options = True
    nf.open_groups = {o.group for o in nf.options if o.key in changes or f"opt-{o.key}" in notes}
    sides = []
    for i in range(layout):
        names = []
        for j in range(per_side):
            seat = j * layout + i + 1
            names.append(player_names[i][j] or _("Player %(num)s", num=seat))
        sides.append({"name": side_names[i] if per_side > 1 else names[0], "players": names})
    args = {
        "ruleset": ruleset,
        "players": players,
        "sides": sides,
        "options": changes,
        "target": target,
    }
    return nf, args, notes


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): v for k, v in sorted(value.items())}
    return value


def _rows(rows: Iterable[tuple[str, str]], kind: str, standard: Any) -> tuple[Any, bool]:
    """Rows of two numbers as the option value: a minimum table or a map."""
    parsed: list[list[int]] = []
    for i, (k, v) in enumerate(rows):
        if not k.strip() and not v.strip():
            continue
        value = read_int(v)
        if kind == "table" and i == 0:
            key: int | None = standard[0][0]  # the first row covers every score below the next
        else:
            key = read_int(k)
        if key is None or value is None:
            return None, False
        parsed.append([key, value])
    if kind == "table":
        return parsed, bool(parsed)
    # A map the ruleset leaves empty (docs/rulebook.md §6: American threes table elsewhere) stays
    # empty.
    return {str(k): v for k, v in sorted(parsed)}, bool(parsed) or not standard


def where_slot_new_game(where: str) -> str:
    m = re.match(r"sides\[(\d+)\]\.players\[(\d+)\]", where)
    if m:
        return f"player-{m[1]}-{m[2]}"
    m = re.match(r"sides\[(\d+)\]", where)
    if m:
        return f"side-{m[1]}"
    if where.startswith("options."):
        return "opt-" + where.removeprefix("options.")
    return where if where in ("target", "players", "ruleset") else "form"
