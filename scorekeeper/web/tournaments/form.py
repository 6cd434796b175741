"""The new-tournament form: what the director typed or ticked, turned into the body of ``POST
/api/v1/tournaments`` (docs/api.md §5) and read once, by the edge's reader of that body
(:func:`...edge.tournaments.read_new_tournament`); its problems come back under the fields
they name, in the form's words (what to choose or type there).

The form works without JavaScript: every choice is a radio button, and the stylesheet hides the
player counts the chosen ruleset (or format) does not allow and the fields of the choices not
taken. What the store refuses comes back as problems placed under the field they name.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ...edge.tournaments import (
    MAX_PARTICIPANTS,
    POINTS_MAX,
    TournamentSetup,
    read_new_tournament,
)
from ...rules.problems import Problem
from ...rules.ruleset import PRESETS, RULESET_IDS
from ...rules.scoring import Rejected
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
#: the kinds of round end, as the form names their fields
ROUND_ENDS = frozenset(r.value for r in RoundEnd)
#: a participant's line in a problem's ``where`` (``participants[2]``, numbered from 0)
_LINE = re.compile(r"participants\[(\d+)\]")
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


def read_form(
    raw: MultiDict[str, str], people: Sequence[str]
) -> tuple[TournamentForm, TournamentSetup | None]:
    """The posted form (``people``: the chosen table's people): the values as typed, to show
    again, and the new tournament read by the edge's one reader
    (:func:`...edge.tournaments.read_new_tournament`, as ``POST /api/v1/tournaments`` reads
    it); None when it cannot be read, its problems then under their fields."""
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
    setup = read_new_tournament(body(form))
    if isinstance(setup, Rejected):
        place(form, setup.problems)
        return form, None
    return form, setup


def participant_lines(form: TournamentForm) -> list[str]:
    return [line.strip() for line in form.participants.splitlines() if line.strip()]


def _number(text: str) -> int | str:
    """A number as a person types it (spaces and separators ignored); else the text, for the
    reader to refuse."""
    read = read_int(text)
    return text if read is None else read


def _pairs(form: TournamentForm) -> bool:
    return form.format == Format.PAIRS


def body(form: TournamentForm) -> dict[str, Any]:
    """The form as the body of ``POST /api/v1/tournaments``: what was chosen and typed,
    numbers read as a person types them, each pair's line split at "&"; the table's ticked
    people when the players come from a table."""
    lines = participant_lines(form)
    end = form.round_end
    data: dict[str, Any] = {
        "name": form.name,
        "ruleset": form.ruleset,
        "options": {},
        "players": _number(form.players),
        "format": form.format,
        "scoring": form.scoring,
        "round_end": {end: _number(getattr(form, end)) if end in ROUND_ENDS else None},
        "odd": form.odd,
    }
    if form.scoring == Scoring.MATCH_POINTS:
        data["points"] = {
            "win": _number(form.win),
            "draw": _number(form.draw),
            "loss": _number(form.loss),
        }
    if _pairs(form):
        data["participants"] = [[n.strip() for n in line.split("&")] for line in lines]
    elif form.table:
        data["participants"] = [p for p in form.people if p in form.ticked]
    else:
        data["participants"] = lines
    if form.table:
        data["table"] = form.table
    return data


def _sizes(form: TournamentForm) -> tuple[int, ...]:
    sizes = allowed_sizes(form.ruleset)
    return tuple(n for n in sizes if n in PAIR_SIZES) if _pairs(form) else sizes


def _sentence(form: TournamentForm, field: str, problem: Problem) -> str:
    """A problem of the reader in the form's words for ``field`` (what to choose or type
    there); one the form has no words of its own for, as the API words it."""
    code, params = problem.code, problem.params
    if field == "name" and code == "name.invalid":
        tidied = " ".join(form.name.split())
        if not tidied:
            return _("Give the tournament a name.")
        if len(tidied) > NAME_MAX:
            return ngettext(
                "The name is too long (at most %(num)s character).",
                "The name is too long (at most %(num)s characters).",
                NAME_MAX,
            )
    if field == "ruleset" and code.startswith(("ruleset.", "request.")):
        return _("Choose the rules every table plays.")
    if field == "format" and code.startswith("request."):
        return _("Choose individual or pairs.")
    if field == "players" and form.ruleset in RULESET_IDS:
        sizes = ", ".join(str(n) for n in _sizes(form))
        return _("These rules allow tables of %(sizes)s players.", sizes=sizes)
    if field == "scoring" and code.startswith("request."):
        return _("Choose match points or points.")
    if code == "tournament.points":
        return _("Match points are whole numbers from 0 to %(num)s.", num=POINTS_MAX)
    if code == "tournament.points_order":
        return _("A win gives at least a draw, a draw at least a loss.")
    if code == "tournament.round_end_value":
        low, high = params.get("minimum"), params.get("maximum")
        return _("Type a whole number from %(low)s to %(high)s.", low=low, high=high)
    if field == "round_end":
        return _("Choose when a round ends.")
    if field == "odd" and code.startswith("request."):
        return _("Choose what happens to players left over.")
    if field == "participants":
        return _participant_sentence(form, problem)
    return message(problem)


def _participant_sentence(form: TournamentForm, problem: Problem) -> str:
    code, params = problem.code, problem.params
    line = _LINE.match(problem.where)
    number = int(line[1]) + 1 if line else 0
    if code == "tournament.pair" or (
        _pairs(form) and line and code == "name.invalid" and not _typed(form, problem.where)
    ):
        return _("Line %(num)s: a pair is two names joined by “&” (Anna & Ben).", num=number)
    if code == "name.invalid" and line and len(_typed(form, problem.where)) > NAME_MAX:
        return _("Line %(num)s: this name is too long.", num=number)
    if code == "tournament.player_twice":
        return _("“%(name)s” is named twice.", name=params.get("name", ""))
    if code == "tournament.participants":
        if params.get("have", 0) > PARTICIPANTS_MAX:
            return ngettext(
                "At most %(num)s participant.", "At most %(num)s participants.", PARTICIPANTS_MAX
            )
        return _too_few(int(params.get("minimum", 2)), _pairs(form))
    return message(problem)


def _typed(form: TournamentForm, where: str) -> str:
    """The name typed at ``where`` (``participants[2]``, a pair's ``participants[2][1]``),
    its spaces tidied."""
    sent = body(form).get("participants") or []
    found = re.findall(r"\[(\d+)\]", where)
    value: Any = sent
    for index in (int(i) for i in found):
        value = value[index] if isinstance(value, list) and index < len(value) else ""
    return " ".join(value.split()) if isinstance(value, str) else ""


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


def _field(where: str) -> str:
    """The form's field a problem's ``where`` names (else the name's)."""
    head = where.split(".")[0].split("[")[0]
    if head == "options":
        return "ruleset"
    if head == "table":
        return "participants"
    return head if head in FIELDS else "name"


def place(form: TournamentForm, problems: Sequence[Problem]) -> None:
    """Problems of the reader or the store, each under the field its ``where`` names, in the
    form's words (each sentence once under its field). Too few participants is said only when
    nothing else is wrong with them (a name twice counts once)."""
    few = []
    for problem in problems:
        field = _field(problem.where)
        text = _sentence(form, field, problem)
        if (
            field == "participants"
            and problem.code == "tournament.participants"
            and (problem.params.get("have", 0) <= PARTICIPANTS_MAX)
        ):
            few.append(text)
        elif text not in form.problems.get(field, []):
            form.add(field, text)
    if few and "participants" not in form.problems:
        form.add("participants", few[0])
