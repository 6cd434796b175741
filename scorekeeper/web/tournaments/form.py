"""The new-tournament form: what the director typed or ticked, read into the body the store takes
(the JSON API's, CONTRACT section 3), with a sentence per field for anything that cannot be read.

The form works without JavaScript: every choice is a radio button, and the stylesheet hides the
player counts the chosen ruleset (or format) does not allow and the fields of the choices not
taken. What the store refuses comes back as problems placed under the field they name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ...rules.problems import Problem
from ...rules.ruleset import PRESETS, RULESET_IDS
from ...store.tournaments import MAX_PARTICIPANTS, POINTS_MAX, ROUND_END_BOUNDS
from ...tournaments.model import Format, OddCount, RoundEnd, Scoring
from ..play.pages import read_int
from ..words.messages import message

NAME_MAX = 40
PARTICIPANTS_MAX = MAX_PARTICIPANTS
LINE_MAX = 90
#: the player counts a table may have in any ruleset, in the order the form shows them
SIZES = (2, 3, 4, 6)
#: a pair is one side of two players: only tables whose sides have two players
PAIR_SIZES = (4, 6)
ROUND_END_DEFAULTS = {RoundEnd.HANDS: 4, RoundEnd.TARGET: 3000, RoundEnd.MINUTES: 60}
#: the fields the form shows, for placing the store's problems (``where``) under them
FIELDS = (
    "name",
    "ruleset",
    "players",
    "format",
    "scoring",
    "points",
    "round_end",
    "odd",
    "participants",
)


@dataclass
class TournamentForm:
    """The form's values as shown again (strings, as typed) and its problems per field."""

    name: str = ""
    ruleset: str = "german"
    players: str = "4"
    format: str = Format.INDIVIDUAL.value
    scoring: str = Scoring.MATCH_POINTS.value
    win: str = "2"
    draw: str = "1"
    loss: str = "0"
    round_end: str = RoundEnd.HANDS.value
    hands: str = str(ROUND_END_DEFAULTS[RoundEnd.HANDS])
    target: str = str(ROUND_END_DEFAULTS[RoundEnd.TARGET])
    minutes: str = str(ROUND_END_DEFAULTS[RoundEnd.MINUTES])
    odd: str = OddCount.BYE.value
    participants: str = ""
    #: the editing key of this phone's table the players come from ("" = typed)
    table: str = ""
    #: the table's people, and which of them are ticked
    people: list[str] = field(default_factory=list)
    ticked: set[str] = field(default_factory=set)
    problems: dict[str, list[str]] = field(default_factory=dict)

    def add(self, where: str, text: str) -> None:
        self.problems.setdefault(where, []).append(text)

    @property
    def all_problems(self) -> list[str]:
        return [text for texts in self.problems.values() for text in texts]


def blank_form(ruleset: str) -> TournamentForm:
    return TournamentForm(ruleset=ruleset if ruleset in RULESET_IDS else "german")


def allowed_sizes(ruleset: str) -> tuple[int, ...]:
    """The table sizes of ``ruleset`` among the ones a tournament knows (no 5 players)."""
    preset = PRESETS.get(ruleset)
    return tuple(n for n in SIZES if preset is not None and n in preset.players_allowed)


def size_classes() -> dict[int, str]:
    """Per table size, the rulesets that do not allow it, as the classes that hide its chip."""
    return {
        n: " ".join(f"no-{rs}" for rs in RULESET_IDS if n not in allowed_sizes(rs)) for n in SIZES
    }


def read_form(raw: MultiDict[str, str], people: Sequence[str]) -> TournamentForm:
    """The posted form, checked field by field; ``people``: the chosen table's people."""
    form = TournamentForm(
        name=raw.get("name", "")[: NAME_MAX * 2],
        ruleset=raw.get("ruleset", ""),
        players=raw.get("players", ""),
        format=raw.get("format", ""),
        scoring=raw.get("scoring", ""),
        win=raw.get("win", "")[:12],
        draw=raw.get("draw", "")[:12],
        loss=raw.get("loss", "")[:12],
        round_end=raw.get("round_end", ""),
        hands=raw.get("hands", "")[:12],
        target=raw.get("target", "")[:12],
        minutes=raw.get("minutes", "")[:12],
        odd=raw.get("odd", ""),
        participants=raw.get("participants", "")[: PARTICIPANTS_MAX * (LINE_MAX + 2)],
        table=raw.get("table", "")[:64] if people else "",
        people=list(people),
        ticked={p for p in raw.getlist("person") if p in people},
    )
    if not form.name.strip():
        form.add("name", _("Give the tournament a name."))
    elif len(form.name.strip()) > NAME_MAX:
        form.add(
            "name",
            ngettext(
                "The name is too long (at most %(num)s character).",
                "The name is too long (at most %(num)s characters).",
                NAME_MAX,
            ),
        )
    if form.ruleset not in RULESET_IDS:
        form.add("ruleset", _("Choose the rules every table plays."))
    if form.format not in {f.value for f in Format}:
        form.add("format", _("Choose individual or pairs."))
    size = read_int(form.players)
    if form.ruleset in RULESET_IDS and form.format in {f.value for f in Format}:
        sizes = allowed_sizes(form.ruleset)
        if form.format == Format.PAIRS:
            sizes = tuple(n for n in sizes if n in PAIR_SIZES)
        if size not in sizes:
            form.add(
                "players",
                _(
                    "These rules allow tables of %(sizes)s players.",
                    sizes=", ".join(str(n) for n in sizes),
                ),
            )
    if form.scoring not in {s.value for s in Scoring}:
        form.add("scoring", _("Choose match points or points."))
    elif form.scoring == Scoring.MATCH_POINTS:
        values = [read_int(v) for v in (form.win, form.draw, form.loss)]
        if any(v is None or not 0 <= v <= POINTS_MAX for v in values):
            form.add(
                "points",
                _("Match points are whole numbers from 0 to %(num)s.", num=POINTS_MAX),
            )
        elif not values[0] >= values[1] >= values[2]:  # type: ignore[operator]
            form.add("points", _("A win gives at least a draw, a draw at least a loss."))
    if form.round_end not in {r.value for r in RoundEnd}:
        form.add("round_end", _("Choose when a round ends."))
    else:
        end = RoundEnd(form.round_end)
        value = read_int(getattr(form, end.value))
        low, high = ROUND_END_BOUNDS[end]
        if value is None or not low <= value <= high:
            form.add(
                "round_end",
                _("Type a whole number from %(low)s to %(high)s.", low=low, high=high),
            )
    if form.odd not in {o.value for o in OddCount}:
        form.add("odd", _("Choose what happens to players left over."))
    _read_participants(form)
    return form


def participant_lines(form: TournamentForm) -> list[str]:
    return [line.strip() for line in form.participants.splitlines() if line.strip()]


def _read_participants(form: TournamentForm) -> None:
    pairs = form.format == Format.PAIRS
    lines = participant_lines(form)
    if form.table and not pairs:  # the ticked people of the table, nobody typed
        lines = [p for p in form.people if p in form.ticked]
    if len(lines) > PARTICIPANTS_MAX:
        form.add(
            "participants",
            ngettext(
                "At most %(num)s participant.", "At most %(num)s participants.", PARTICIPANTS_MAX
            ),
        )
        return
    seen: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        names = [n.strip() for n in line.split("&")] if pairs else [line]
        if pairs and (len(names) != 2 or not all(names)):
            form.add(
                "participants",
                _(
                    "Line %(num)s: a pair is two names joined by “&” (Anna & Ben).",
                    num=number,
                ),
            )
            continue
        for name in names:
            if len(name) > NAME_MAX:
                form.add(
                    "participants",
                    _("Line %(num)s: this name is too long.", num=number),
                )
            elif name.casefold() in seen:
                form.add(
                    "participants",
                    _("“%(name)s” is named twice.", name=name),
                )
            seen.setdefault(name.casefold(), name)
    size = read_int(form.players) or 4
    least = size // 2 if pairs else size
    if len(lines) < least and "participants" not in form.problems:
        form.add("participants", _too_few(least, pairs))


def _too_few(least: int, pairs: bool) -> str:
    if pairs:
        return ngettext(
            "Enter at least %(num)s pair, one per line.",
            "Enter at least %(num)s pairs, one per line.",
            least,
        )
    return ngettext(
        "Enter at least %(num)s player, one per line.",
        "Enter at least %(num)s players, one per line.",
        least,
    )


def body(form: TournamentForm) -> dict[str, Any]:
    """The store's body (the JSON API's) from a form without problems."""
    end = RoundEnd(form.round_end)
    pairs = form.format == Format.PAIRS
    lines = participant_lines(form)
    data: dict[str, Any] = {
        "name": form.name.strip(),
        "ruleset": form.ruleset,
        "options": {},
        "players": read_int(form.players),
        "format": form.format,
        "scoring": form.scoring,
        "round_end": {end.value: read_int(getattr(form, end.value))},
        "odd": form.odd,
    }
    if form.scoring == Scoring.MATCH_POINTS:
        data["points"] = {
            "win": read_int(form.win),
            "draw": read_int(form.draw),
            "loss": read_int(form.loss),
        }
    if pairs:
        data["participants"] = [[n.strip() for n in line.split("&")] for line in lines]
    elif form.table:
        data["participants"] = [p for p in form.people if p in form.ticked]
    else:
        data["participants"] = lines
    if form.table:
        data["table"] = form.table
    return data


def place(form: TournamentForm, problems: Sequence[Problem]) -> None:
    """The store's problems, each under the field its ``where`` names (else under the name)."""
    for problem in problems:
        head = problem.where.split(".")[0].split("[")[0]
        where = head if head in FIELDS else "participants" if head == "table" else "name"
        if head == "options":
            where = "ruleset"
        form.add(where, message(problem))
