"""The scorekeeper's pages (CONTRACT.md §4): a new game, the game page, entering or correcting a
hand with a live preview, and the read-only view that refreshes by itself.

Hypermedia throughout: every page is a plain HTML form that works without JavaScript (POST,
then 303 to the game page); htmx adds the live preview (a small fragment whose parts land next
to the fields they concern via out-of-band swaps), saving without a page load, and polling on
the view page. One score computation: the preview calls ``rules.scoring.score_hand`` and the
store re-scores stored hands with the same function.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..rules.api import Reader, read_sides
from ..rules.cards import Card, parse_cards
from ..rules.problems import Problem
from ..rules.ruleset import OPTION_SPECS, PRESETS, RULESET_IDS, RuleSet, resolve_ruleset
from ..rules.scoring import HandResult, SideEntry, score_hand, score_side
from ..store import games as store
from ..store.db import session_scope
from ..store.models import Game
from . import pages
from .i18n import current_language, home_ruleset, number
from .messages import canasta_kind, canastas_text, card_label, message, points_text
from .messages import cards_text as count_cards
from .options import format_value, house_rule_lines, option_labels

bp = Blueprint("games", __name__)

RECENT_COOKIE = "games"
PAD_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "X", "3r", "3b")
QUICK_FIELDS = ("natural_canastas", "mixed_canastas", "wild_canastas", "meld_points",
                "hand_points", "black_threes_in_hand")
CANASTA_FIELDS = QUICK_FIELDS[:3]
MIN_MELD_FIELDS = 3
# A long game shows its latest hands and a link to all of them, so the page stays light on a
# phone (issue: the game page's first load under 80 KB); short games show every hand.
HISTORY_SHOWN = 6
HISTORY_ALL_UP_TO = 8
MAX_MELD_FIELDS = 30
# Default side names by language (issue: "Wir/Ihr" de, "My/Wy" pl, "Us/Them" en), for two or
# three sides; they are names the players change, so they are data rather than UI strings.
SIDE_NAMES = {
    "de": ("Wir", "Ihr", "Sie"),
    "pl": ("My", "Wy", "Oni"),
    "en": ("Us", "Them", "Others"),
}


# ---- problems in words -------------------------------------------------------------------

def problem_text(problem: Problem) -> str:
    """The problem as a sentence in the reader's language."""
    if problem.code == "concealed.nobody_out":  # the form's own check, see build_entry
        return _("Only the player who went out can have gone out concealed: choose who went "
                 "out.")
    return message(problem)


@dataclass
class Note:
    """One line shown next to a field: a problem (blocks saving), a warning, or information."""

    kind: str  # "problem", "warning", "info"
    text: str


Notes = dict[str, list[Note]]


def _add(notes: Notes, slot: str, kind: str, text: str) -> None:
    notes.setdefault(slot, []).append(Note(kind, text))


# ---- loading a game -------------------------------------------------------------------------

@dataclass
class Loaded:
    """A stored game with its derived sheet and its rules (house rules applied)."""

    game_id: str
    game: Game
    state: store.GameState
    rs: RuleSet
    base: RuleSet

    @property
    def cutthroat(self) -> bool:
        return self.state.cutthroat


def game_rules(game: Game) -> tuple[RuleSet, RuleSet]:
    base = PRESETS.get(game.ruleset) or PRESETS["classic"]
    rs, _count, problems = resolve_ruleset(game.ruleset, game.players, game.options or {})
    return (rs if rs is not None and not problems else base), base


def load(game_id: str) -> Loaded:
    game, state = pages.find_game(game_id, store.game_state, store.get_game)
    rs, base = game_rules(game)
    return Loaded(game_id, game, state, rs, base)


def ruleset_title(ruleset_id: str) -> str:
    return {
        "german": _("Canasta (German rules)"),
        "polish": _("Canasta (Polish rules)"),
        "classic": _("Classic Canasta (international)"),
    }.get(ruleset_id, ruleset_id)


def remember_game(response: Response, game_id: str) -> Response:
    """Keep the editing keys of this browser's games in a cookie: the start page lists only
    those, since every key grants editing and must not be shown to strangers."""
    return pages.remember(response, RECENT_COOKIE, game_id)


def recent_ids() -> list[str]:
    return pages.recent_ids(RECENT_COOKIE)


# ---- a new game -----------------------------------------------------------------------------

@dataclass
class OptionField:
    key: str
    kind: str
    label: str
    value: Any  # int / bool, or a list of (key, value) text rows for maps and tables
    standard: str


@dataclass
class NewGameForm:
    ruleset: str
    players: int
    layout: int  # number of sides
    side_names: list[str]
    player_names: list[list[str]]
    target: str
    options: list[OptionField]
    opts_for: str
    open_options: bool = False

    @property
    def base(self) -> RuleSet:
        return PRESETS[self.ruleset]

    @property
    def per_side(self) -> int:
        return self.players // self.layout


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
    labels = option_labels()
    out = []
    for key, spec in OPTION_SPECS.items():
        if key == "target":  # the target has its own field on the form
            continue
        standard = getattr(base, key)
        value = (values or {}).get(key, standard)
        if spec.kind in ("int_map", "table") and not isinstance(value, list):
            value = option_rows(spec.kind, value)
        out.append(OptionField(key, spec.kind, labels[key], value,
                               format_value(key, standard)))
    return out


def blank_new_game(ruleset: str = "german", players: int | None = None,
                   layout: int | None = None) -> NewGameForm:
    base = PRESETS[ruleset]
    count = players if players in base.players_allowed else base.default_players
    sides = layout if count == 6 and layout in (2, 3) else default_layout(count)
    per_side = count // sides
    names = default_side_names(sides) if per_side > 1 else ["" for _ in range(sides)]
    return NewGameForm(ruleset, count, sides, names, [["" for _ in range(per_side)]
                                                      for _ in range(sides)],
                       str(base.target_for(count)), option_fields(base), f"{ruleset}:{count}")


def read_new_game(form: MultiDict[str, str]) -> tuple[NewGameForm, dict[str, Any], Notes]:
    """The new-game form as posted: the form to show again, the store's arguments, problems."""
    notes: Notes = {}
    ruleset = form.get("ruleset", "")
    if ruleset not in RULESET_IDS:
        # Only a hand-made request gets here: say so, and offer the reader's usual rules.
        _add(notes, "form", "problem", problem_text(
            Problem("ruleset.unknown", "ruleset", {"ruleset": ruleset[:40]})))
        ruleset = home_ruleset()
    base = PRESETS[ruleset]
    players = pages.read_int(form.get("players", "")) or base.default_players
    if players not in base.players_allowed:
        players = base.default_players
    layout = pages.read_int(form.get("layout", "")) or default_layout(players)
    if players != 6 or layout not in (2, 3):
        layout = default_layout(players)
    fresh = blank_new_game(ruleset, players, layout)
    per_side = players // layout
    opts_for = f"{ruleset}:{players}"
    same_basis = form.get("opts_for") == opts_for

    side_names = [form.get(f"side-{i}", fresh.side_names[i]).strip()
                  if form.get("layout_for") == f"{opts_for}:{layout}" else fresh.side_names[i]
                  for i in range(layout)]
    player_names = [[form.get(f"player-{i}-{j}", "").strip() for j in range(per_side)]
                    for i in range(layout)]
    target_text = form.get("target", "") if same_basis else fresh.target

    values: dict[str, Any] = {}
    changes: dict[str, Any] = {}
    if same_basis:
        for key, spec in OPTION_SPECS.items():
            if key == "target":
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
                parsed = pages.read_int(text) if text else standard
                values[key] = text if text else standard
                if parsed is None:
                    _add(notes, f"opt-{key}", "problem",
                         problem_text(Problem("options.invalid", f"options.{key}", {"key": key})))
                elif parsed != standard:
                    changes[key] = parsed
            else:
                rows = list(zip(form.getlist(f"{name}-k"), form.getlist(f"{name}-v"),
                                strict=False))
                values[key] = [(k.strip(), v.strip()) for k, v in rows] + [("", "")]
                parsed_rows, ok = _rows(rows, spec.kind, standard)
                if not ok:
                    _add(notes, f"opt-{key}", "problem",
                         problem_text(Problem("options.invalid", f"options.{key}", {"key": key})))
                elif parsed_rows != _jsonable(standard):
                    changes[key] = parsed_rows
    nf = NewGameForm(ruleset, players, layout, side_names, player_names, target_text,
                     option_fields(base, values) if same_basis else fresh.options, opts_for,
                     open_options=bool(changes) or any(k.startswith("opt-") for k in notes))

    target = pages.read_int(target_text)
    if target is None:
        _add(notes, "target", "problem", problem_text(Problem("request.type", "target", {})))
    if changes and not notes:
        _rs, problems = base.with_options(changes)
        for p in problems:
            _add(notes, "opt-" + p.where.removeprefix("options."), "problem", problem_text(p))
        nf.open_options = True
    sides = []
    for i in range(layout):
        names = []
        for j in range(per_side):
            seat = j * layout + i + 1
            names.append(player_names[i][j] or _("Player %(num)s", num=seat))
        sides.append({"name": side_names[i] if per_side > 1 else names[0], "players": names})
    args = {"ruleset": ruleset, "players": players, "sides": sides, "options": changes,
            "target": target}
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
        value = pages.read_int(v)
        if kind == "table" and i == 0:
            key: int | None = standard[0][0]  # the first row covers every score below the next
        else:
            key = pages.read_int(k)
        if key is None or value is None:
            return None, False
        parsed.append([key, value])
    if kind == "table":
        return parsed, bool(parsed)
    return {str(k): v for k, v in sorted(parsed)}, bool(parsed)


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


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Response | str | tuple[str, int]:
    """The new-game form; posting it re-renders it (``action=refresh``: ruleset or players
    changed) or creates the game and redirects to its page."""
    if request.method == "GET":
        asked = request.args.get("ruleset")
        nf = blank_new_game(asked if asked in RULESET_IDS else home_ruleset(),
                            request.args.get("players", type=int))
        return render_template("games/new.html", form=nf, notes={})
    nf, args, notes = read_new_game(request.form)
    if request.form.get("action") != "create":
        return _new_game_page(nf, notes, 200)
    if notes:
        return _new_game_page(nf, notes, 422)
    try:
        with session_scope() as session:
            game = store.create_game(session, **args)
            game_id = game.id
    except store.GameProblems as error:
        for p in error.problems:
            _add(notes, where_slot_new_game(p.where), "problem", problem_text(p))
        return _new_game_page(nf, notes, 422)
    return remember_game(pages.see_other(url_for("games.show", game_id=game_id)), game_id)


def _new_game_page(nf: NewGameForm, notes: Notes, status: int) -> tuple[str, int]:
    template = "games/_new_form.html" if request.htmx else "games/new.html"
    return render_template(template, form=nf, notes=notes), status


# ---- the game page and the view ---------------------------------------------------------------

def qr_svg(url: str) -> str:
    """The view link as a QR code: inline SVG made by segno from our own URL (no user text)."""
    return segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True,
                                                  dark="#1d1b16", svgclass="qr")


def board_context(loaded: Loaded) -> dict[str, Any]:
    state = loaded.state
    count = len(state.hands)
    show_all = request.args.get("all") == "1" or count <= HISTORY_ALL_UP_TO
    return {
        "hands_from": 0 if show_all else count - HISTORY_SHOWN,
        "show_all": request.args.get("all") == "1",
        "state": state,
        "rs": loaded.rs,
        "ruleset_name": ruleset_title(state.ruleset),
        "house_rules": house_rule_lines(loaded.rs, loaded.base),
        "standard_target": loaded.base.target_for(state.players),
        "item_labels": item_labels(),
        "item_order": ITEM_ORDER,
        "problem_text": problem_text,
    }


@bp.get("/games/<game_id>")
def show(game_id: str) -> Response:
    """The scorekeeper's page: board, hands, sharing, referee and PDF links."""
    loaded = load(game_id)
    state = loaded.state
    view_url = url_for("games.view", view_id=state.view_id, _external=True)
    referee = []
    if "referee.page" in _url_rules():
        for column in state.columns:
            referee.append((column.name, url_for("referee.page", ruleset=state.ruleset,
                                                 players=state.players, score=column.total)))
    pdfs = []
    if "sheets.game_sheet" in _url_rules():
        pdfs = pages.pdf_links("sheets.game_sheet", game_id)
    html = render_template("games/show.html", game_id=game_id, view_url=view_url,
                           qr=qr_svg(view_url), referee=referee, pdfs=pdfs,
                           **board_context(loaded))
    response = make_response(html)
    response.headers["Cache-Control"] = "no-store"
    return remember_game(response, game_id)


def _url_rules() -> frozenset[str]:
    return current_app.jinja_env.globals.get("url_rules", frozenset())  # type: ignore[return-value]


@bp.get("/view/<view_id>")
def view(view_id: str) -> Response:
    """The read-only view. htmx polls it for the ``#live`` fragment (204 while ``since`` is the
    current version); without JavaScript a meta refresh reloads the page."""
    game, state = pages.find_game(view_id, store.game_state, store.get_by_view)
    rs, base = game_rules(game)
    loaded = Loaded("", game, state, rs, base)
    return pages.live_view(state.version, "games/view.html", "games/_live.html",
                           view_id=view_id, **board_context(loaded))


# ---- entering a hand: the form ------------------------------------------------------------------

@dataclass
class SideForm:
    """One side of the hand being entered, with the text exactly as typed."""

    index: int
    name: str
    players: list[str]  # player names on this side in this hand
    columns: list[int]  # score columns this side scores for
    mode: str = "quick"
    melds: list[str] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)
    red: list[str] = field(default_factory=list)  # one per player where players score their own
    quick: dict[str, str] = field(default_factory=dict)
    meld_counts: dict[int, str] = field(default_factory=dict)
    hand_counts: dict[int, str] = field(default_factory=dict)
    minimums: list[int] = field(default_factory=list)  # per column
    totals_before: list[int] = field(default_factory=list)  # per column

    @property
    def prefix(self) -> str:
        return f"t{self.index}"


@dataclass
class HandForm:
    sides: list[SideForm]
    out: str = ""  # side index, "stock", or "" (not chosen)
    concealed: bool = False
    lone: str = ""  # cutthroat: the lone player's column, or "all"
    version: int = 0
    number: int | None = None  # the hand being corrected, None for a new hand
    dealer: str = ""


def card_token(rank: str) -> str:
    """A card as the pad writes it into a field, in the reader's letters (CONTRACT.md §2)."""
    return {"3r": "3\u2665", "3b": "3\u2660"}.get(rank, card_label(rank))


def cards_text(cards: Iterable[str]) -> str:
    return " ".join(card_token(str(c)) for c in cards)


def count_values(rs: RuleSet) -> list[int]:
    """The distinct card values players count with (50s, 20s, 10s, 5s)."""
    values = {rs.joker_value, rs.two_value, rs.ace_value, rs.high_value, rs.low_value,
              rs.black_three_value}
    return sorted((v for v in values if v > 0), reverse=True)


def hand_sides(loaded: Loaded, lone: str) -> list[tuple[str, list[str], list[int]]]:
    """The sides of a hand: (name, player names, columns). In 3-player cutthroat they change
    from hand to hand: the lone player against the other two, or everyone alone."""
    columns = loaded.state.columns
    if not loaded.cutthroat:
        return [(c.name, list(c.players), [i]) for i, c in enumerate(columns)]
    if lone == "all" or not lone.isdigit() or int(lone) >= len(columns):
        return [(c.name, [c.name], [i]) for i, c in enumerate(columns)]
    k = int(lone)
    pair = [i for i in range(len(columns)) if i != k]
    return [(columns[k].name, [columns[k].name], [k]),
            (" & ".join(columns[i].name for i in pair), [columns[i].name for i in pair], pair)]


def _context_for(loaded: Loaded, number: int | None) -> tuple[list[int], list[int], str]:
    """Minimums and totals per column before the hand, and who deals it."""
    state = loaded.state
    if number is None:
        return ([c.minimum_meld for c in state.columns], [c.total for c in state.columns],
                state.next_dealer.name)
    row = state.hands[number - 1]
    return ([s.minimum_meld for s in row.scores], [s.total - s.score for s in row.scores],
            row.dealer.name)


def _make_sides(loaded: Loaded, lone: str, number: int | None) -> tuple[list[SideForm], str]:
    minimums, totals, dealer = _context_for(loaded, number)
    sides = []
    for i, (name, players, cols) in enumerate(hand_sides(loaded, lone)):
        sides.append(SideForm(i, name, players, cols,
                              minimums=[minimums[c] for c in cols],
                              totals_before=[totals[c] for c in cols]))
    return sides, dealer


def _last_modes(loaded: Loaded) -> list[str]:
    """Each side enters the way it did last time (quick or in detail)."""
    if not loaded.state.hands:
        return []
    return ["quick" if isinstance(t, dict) and "quick" in t else "detail"
            for t in loaded.state.hands[-1].teams]


def blank_hand(loaded: Loaded) -> HandForm:
    lone = "0" if loaded.cutthroat else ""
    if loaded.cutthroat and loaded.state.hands:
        last = loaded.state.hands[-1]
        lone = "all" if last.lone_player is None else str(last.lone_player)
    sides, dealer = _make_sides(loaded, lone, None)
    modes = _last_modes(loaded)
    for side in sides:
        if len(modes) == len(sides):
            side.mode = modes[side.index]
        _pad_fields(side)
    return HandForm(sides, lone=lone, version=loaded.state.version, dealer=dealer)


def _pad_fields(side: SideForm) -> None:
    """Enough empty fields to type into: one spare meld field (at least three in all), a hand
    field per player, a red-three field per player who scores their own."""
    while len(side.melds) < MIN_MELD_FIELDS or (side.melds and side.melds[-1].strip()
                                                 and len(side.melds) < MAX_MELD_FIELDS):
        side.melds.append("")
    while len(side.hands) < len(side.players):
        side.hands.append("")
    del side.hands[len(side.players):]
    wanted = len(side.players) if _per_player_red(side) else 1
    while len(side.red) < wanted:
        side.red.append("")
    del side.red[wanted:]


def _per_player_red(side: SideForm) -> bool:
    # RULES.md §4 "3 players": partners combine melds but not red threes. Only a cutthroat
    # partnership spans several score columns.
    return len(side.columns) > 1


def hand_from_stored(loaded: Loaded, number: int) -> HandForm:
    row = loaded.state.hands[number - 1]
    lone = ""
    if loaded.cutthroat:
        lone = "all" if row.lone_player is None else str(row.lone_player)
    sides, dealer = _make_sides(loaded, lone, number)
    for side, team in zip(sides, row.teams, strict=False):
        if not isinstance(team, dict):
            continue
        red = team.get("red_threes", 0)
        side.red = [str(r) for r in red] if isinstance(red, list) else [str(red)]
        quick = team.get("quick")
        if isinstance(quick, dict):
            side.mode = "quick"
            side.quick = {k: str(quick.get(k, 0)) for k in QUICK_FIELDS}
        else:
            side.mode = "detail"
            side.melds = [cards_text(m) for m in team.get("melds") or []]
            side.hands = [cards_text(h) for h in team.get("hands") or []]
        _pad_fields(side)
    out = "stock" if row.stock_out else ""
    concealed = False
    for i, team in enumerate(row.teams):
        if isinstance(team, dict) and (team.get("went_out") or team.get("concealed")):
            out = str(i)
            concealed = bool(team.get("concealed"))
    return HandForm(sides, out=out, concealed=concealed, lone=lone,
                    version=loaded.state.version, number=number, dealer=dealer)


def read_hand(loaded: Loaded, form: MultiDict[str, str], number: int | None) -> HandForm:
    """The hand form as posted (everything kept as typed, so nothing is lost on a re-render)."""
    lone = form.get("lone", "") if loaded.cutthroat else ""
    if loaded.cutthroat and lone != "all" and not (lone.isdigit() and int(lone) < 3):
        lone = "0"
    sides, dealer = _make_sides(loaded, lone, number)
    values = count_values(loaded.rs)
    for side in sides:
        p = side.prefix
        side.mode = "detail" if form.get(f"{p}-mode") == "detail" else "quick"
        side.melds = [m[:400] for m in form.getlist(f"{p}-meld")][:MAX_MELD_FIELDS]
        side.hands = [h[:400] for h in form.getlist(f"{p}-hand")]
        side.red = [r[:12] for r in form.getlist(f"{p}-red")]
        side.quick = {k: form.get(f"{p}-{k}", "")[:12] for k in QUICK_FIELDS}
        side.meld_counts = {v: form.get(f"{p}-mc-{v}", "")[:6] for v in values}
        side.hand_counts = {v: form.get(f"{p}-hc-{v}", "")[:6] for v in values}
        _pad_fields(side)
    version = pages.read_int(form.get("version", "")) or 0
    return HandForm(sides, out=form.get("out", "")[:8], concealed=form.get("concealed") == "1",
                    lone=lone, version=version, number=number, dealer=dealer)


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
    value = pages.read_int(text)
    if value is None:
        problems.append(Problem("request.type", where, {"expected": "integer"}))
        return 0
    return value


def build_entry(loaded: Loaded, hf: HandForm) -> Entry:
    """The form as the API's ``teams`` list: only the mode each side chose counts, cards in
    English notation, problems for what cannot be read (placed by their ``where``)."""
    problems: list[Problem] = []
    teams: list[dict[str, Any]] = []
    meld_fields: list[list[int]] = []
    sums: list[dict[str, int]] = []
    for side in hf.sides:
        w = f"teams[{side.index}]"
        team: dict[str, Any] = {}
        fields_sent: list[int] = []
        side_sums: dict[str, int] = {}
        if side.mode == "quick":
            quick: dict[str, int] = {}
            for key in QUICK_FIELDS:
                quick[key] = _number_field(side.quick.get(key, ""), f"{w}.quick.{key}", problems)
            for kind, counts in (("meld_points", side.meld_counts),
                                 ("hand_points", side.hand_counts)):
                total = sum(v * _number_field(t, f"{w}.quick.{kind}", problems)
                            for v, t in counts.items())
                if any(t.strip() for t in counts.values()):
                    side_sums[kind] = total
                    if not side.quick.get(kind, "").strip():
                        quick[kind] = total
            team["quick"] = quick
        else:
            melds = []
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
        reds = [_number_field(t, f"{w}.red_threes", problems) for t in side.red] or [0]
        team["red_threes"] = reds if _per_player_red(side) else reds[0]
        team["went_out"] = hf.out == str(side.index)
        team["concealed"] = hf.concealed and team["went_out"]
        teams.append(team)
        meld_fields.append(fields_sent)
        sums.append(side_sums)
    if hf.concealed and not hf.out.isdigit():
        problems.append(Problem("concealed.nobody_out", "concealed", {}))
    lone_player = int(hf.lone) if loaded.cutthroat and hf.lone.isdigit() else None
    stock_out = hf.out == "stock" or (loaded.cutthroat and hf.lone == "all")
    return Entry(teams, lone_player, stock_out, problems, meld_fields, sums)


# ---- entering a hand: the preview ----------------------------------------------------------------

@dataclass
class SidePreview:
    score: int | None
    items: dict[str, int]
    canastas: dict[str, int]
    player_scores: list[int] | None
    totals_after: list[int]


@dataclass
class Preview:
    sides: list[SidePreview]
    notes: Notes
    blocked: bool


ITEM_ORDER = ("melded_cards", "canasta_bonus", "red_threes", "going_out", "in_hand")


def item_labels() -> dict[str, str]:
    return {
        "melded_cards": _("Melded cards"),
        "canasta_bonus": _("Canastas"),
        "red_threes": _("Red threes"),
        "going_out": _("Going out"),
        "in_hand": _("Left in hand"),
    }


_SIDE_WHERE = re.compile(r"^teams\[(\d+)\](.*)$")
_INDEX = re.compile(r"^\.(melds|hands)\[(\d+)\]")


def slot_for(where: str, hf: HandForm, entry: Entry) -> str:
    """The field a problem's ``where`` points at (its note slot in the form)."""
    m = _SIDE_WHERE.match(where)
    if not m:
        if where.startswith("lone_player"):
            return "lone"
        if where.startswith(("stock_out", "concealed")):
            return "out"
        return "hand"
    i, rest = int(m[1]), m[2]
    if i >= len(hf.sides):
        return "hand"
    p = f"t{i}"
    index = _INDEX.match(rest)
    if index and index[1] == "melds":
        sent = entry.meld_fields[i]
        k = int(index[2])
        return f"{p}-m{sent[k]}" if k < len(sent) else p
    if index and index[1] == "hands":
        return f"{p}-h{index[2]}" if int(index[2]) < len(hf.sides[i].hands) else p
    if rest.startswith(".red_threes"):
        return f"{p}-red"
    if rest.startswith(".quick."):
        key = rest[len(".quick."):].split(".")[0]
        if key in CANASTA_FIELDS:
            return f"{p}-q-canastas"
        if key in QUICK_FIELDS:
            return f"{p}-q-{key}"
    if rest.startswith((".went_out", ".concealed")):
        return "out"
    return p


def slot_ids(hf: HandForm) -> list[str]:
    ids = ["hand", "out"] + (["lone"] if hf.lone else [])
    for side in hf.sides:
        p = side.prefix
        ids += [p, f"{p}-red", f"{p}-q-canastas", f"{p}-q-meld_points", f"{p}-q-hand_points",
                f"{p}-q-black_threes_in_hand"]
        ids += [f"{p}-m{f}" for f in range(len(side.melds))]
        ids += [f"{p}-h{h}" for h in range(len(side.hands))]
    return ids


def preview(loaded: Loaded, hf: HandForm) -> tuple[Preview, Entry]:
    """Score the hand as typed so far, and place every problem next to its field."""
    rs, players = loaded.rs, loaded.state.players
    entry = build_entry(loaded, hf)
    notes: Notes = {}
    reader = Reader()
    sides = read_sides(reader, {"teams": entry.teams})
    result: HandResult | None = None
    if len(sides) == len(hf.sides):
        result = score_hand(rs, players, sides)
    _stock, store_problems = store.check_hand(loaded.game, entry.teams, entry.lone_player,
                                              entry.stock_out)
    problems = _unique(entry.problems + store_problems)
    for p in problems:
        slot = slot_for(p.where, hf, entry)
        text = problem_text(p)
        if slot == "out" and p.where.startswith("teams["):
            text = f"{hf.sides[int(_SIDE_WHERE.match(p.where)[1])].name}: {text}"  # type: ignore[index]
        _add(notes, slot, "problem", text)
    for w in (result.warnings if result else []):
        _add(notes, slot_for(w.where, hf, entry), "warning", problem_text(w))

    side_previews = []
    for side, scored in zip(hf.sides, result.sides if result else [None] * len(hf.sides),
                            strict=False):
        if scored is None:
            side_previews.append(SidePreview(None, {}, {}, None, []))
            continue
        per_player = scored.player_scores if len(side.columns) > 1 else None
        scores = per_player or [scored.score] * len(side.columns)
        side_previews.append(SidePreview(scored.score, scored.items, scored.canastas,
                                         per_player,
                                         [t + s for t, s in zip(side.totals_before, scores,
                                                                strict=False)]))
        _field_info(rs, players, side, scored, entry, notes)
    return Preview(side_previews, notes, bool(problems)), entry


def _unique(problems: list[Problem]) -> list[Problem]:
    seen = set()
    out = []
    for p in problems:
        key = (p.code, p.where, repr(sorted(p.params.items(), key=str)))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _field_info(rs: RuleSet, players: int, side: SideForm, scored: Any, entry: Entry,
                notes: Notes) -> None:
    """Quiet information under the fields: what each meld and hand is worth."""
    p = side.prefix
    if side.mode == "detail":
        for meld, f in zip(scored.melds, entry.meld_fields[side.index], strict=False):
            slot = f"{p}-m{f}"
            if slot in notes or not meld.legal:
                continue
            if meld.is_canasta:
                text = _("%(cards)s · %(kind)s canasta: %(points)s + %(bonus)s",
                         cards=count_cards(len(meld.cards)), kind=canasta_kind(meld.kind),
                         points=number(meld.points), bonus=number(meld.bonus))
            else:
                text = f"{count_cards(len(meld.cards))} · {points_text(meld.points)}"
            _add(notes, slot, "info", text)
        team = entry.teams[side.index]
        for h, cards in enumerate(team.get("hands") or []):
            slot = f"{p}-h{h}"
            if slot in notes or not cards:
                continue
            alone = score_side(rs, players, SideEntry(melds=[], hands=[[Card(r) for r in cards]]))
            _add(notes, slot, "info",
                 f"{count_cards(len(cards))} · {number(alone.items['in_hand'])}")
    else:
        total = sum(scored.canastas.values())
        if total and f"{p}-q-canastas" not in notes:
            _add(notes, f"{p}-q-canastas", "info", canastas_text(total))
        for kind, total in entry.sums[side.index].items():
            slot = f"{p}-q-{kind}"
            if slot not in notes:
                _add(notes, slot, "info", _("Counted: %(points)s", points=number(total)))


# ---- entering a hand: routes ---------------------------------------------------------------------

def _hand_page(loaded: Loaded, hf: HandForm, pv: Preview | None, status: int = 200,
               conflict: bool = False) -> tuple[str, int]:
    context = {
        "game_id": loaded.game_id, "loaded": loaded, "state": loaded.state, "rs": loaded.rs,
        "hf": hf, "pv": pv, "notes": pv.notes if pv else {}, "conflict": conflict,
        "values": count_values(loaded.rs), "item_labels": item_labels(),
        "item_order": ITEM_ORDER, "pad": [(r, card_token(r)) for r in PAD_RANKS],
        "ruleset_name": ruleset_title(loaded.state.ruleset),
    }
    template = "games/_hand_form.html" if request.htmx else "games/hand.html"
    return render_template(template, **context), status


def _hand_number(loaded: Loaded, number: int) -> int:
    if not 1 <= number <= len(loaded.state.hands):
        abort(404)
    return number


@bp.post("/games/<game_id>/again")
def play_again(game_id: str) -> Response:
    """A new game with the same players, seats, rules and house rules."""
    return pages.start_again(game_id, store.get_game, "games.show", remember_game)


@bp.get("/games/<game_id>/hands/new")
def new_hand(game_id: str) -> Response | tuple[str, int]:
    """An empty entry form for the next hand (each side in the mode it used last time)."""
    loaded = load(game_id)
    if loaded.state.finished:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    hf = blank_hand(loaded)
    return _hand_page(loaded, hf, None)


@bp.get("/games/<game_id>/hands/<int:number>/edit")
def edit_hand(game_id: str, number: int) -> tuple[str, int]:
    """The entry form filled with a stored hand, to correct it."""
    loaded = load(game_id)
    hf = hand_from_stored(loaded, _hand_number(loaded, number))
    pv, _entry = preview(loaded, hf)
    return _hand_page(loaded, hf, pv)


@bp.post("/games/<game_id>/hands")
def add_hand(game_id: str) -> Response | tuple[str, int]:
    return _save(game_id, None)


@bp.post("/games/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> Response | tuple[str, int]:
    return _save(game_id, number)


def _save(game_id: str, number: int | None) -> Response | tuple[str, int]:
    """Save a new or corrected hand; ``action=check`` or ``refresh`` only re-renders the form
    (the no-JavaScript preview, a changed cutthroat partnership). Impossible hands: 422 with
    every problem next to its field; a stale version: 409."""
    loaded = load(game_id)
    if number is not None:
        _hand_number(loaded, number)
    hf = read_hand(loaded, request.form, number)
    pv, entry = preview(loaded, hf)
    if request.form.get("action") != "save":
        return _hand_page(loaded, hf, pv)  # "check" or a changed cutthroat partnership
    if pv.blocked:
        return _hand_page(loaded, hf, pv, 422)
    try:
        with pages.stored_game(game_id, store.get_game) as (session, game):
            if number is None:
                store.add_hand(session, game, hf.version, entry.teams, entry.lone_player,
                               entry.stock_out)
            else:
                store.replace_hand(session, game, number, hf.version, entry.teams,
                                   entry.lone_player, entry.stock_out)
    except (store.VersionConflict, store.HandNotFound):
        return _conflict(game_id, hf, number)
    except store.GameProblems as error:
        for p in error.problems:
            _add(pv.notes, slot_for(p.where, hf, entry), "problem", problem_text(p))
        return _hand_page(loaded, hf, pv, 422)
    return pages.see_other(url_for("games.show", game_id=game_id))


def _conflict(game_id: str, hf: HandForm, number: int | None) -> tuple[str, int]:
    """Someone else saved first: show the game as it is now with this entry kept, ready to be
    saved again on top of the other change (409)."""
    loaded = load(game_id)
    if number is not None and number > len(loaded.state.hands):
        number = None  # the hand being corrected was deleted meanwhile: enter it anew
    kept = read_hand(loaded, request.form, number)
    kept.version = loaded.state.version
    pv, _entry = preview(loaded, kept)
    return _hand_page(loaded, kept, pv, 409, conflict=True)


@bp.post("/games/<game_id>/preview")
def hand_preview(game_id: str) -> str:
    """The live preview: a small fragment; its parts find their fields out of band."""
    loaded = load(game_id)
    number = pages.read_int(request.form.get("number", "") or "")
    if number is not None and not 1 <= number <= len(loaded.state.hands):
        number = None
    hf = read_hand(loaded, request.form, number)
    pv, _entry = preview(loaded, hf)
    return render_template("games/_preview.html", hf=hf, pv=pv, notes=pv.notes,
                           slots=slot_ids(hf), item_labels=item_labels(),
                           item_order=ITEM_ORDER, state=loaded.state)


@bp.post("/games/<game_id>/hands/<int:number>/delete")
def delete_hand(game_id: str, number: int) -> Response | tuple[str, int]:
    """Delete the last hand (the store refuses any other)."""
    loaded = load(game_id)
    version = pages.read_int(request.form.get("version", "")) or 0
    try:
        with pages.stored_game(game_id, store.get_game) as (session, game):
            store.delete_hand(session, game, number, version)
    except store.HandNotFound:
        abort(404)
    except store.VersionConflict:
        return render_template("games/conflict.html", game_id=game_id,
                               **board_context(load(game_id))), 409
    except store.GameProblems as error:
        return render_template("games/conflict.html", game_id=game_id,
                               problems=[problem_text(p) for p in error.problems],
                               **board_context(loaded)), 422
    return pages.see_other(url_for("games.show", game_id=game_id))
