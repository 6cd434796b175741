"""The referee page: five rule questions, answered live as cards are tapped (``/referee``).

Each question is a plain form. ``POST /referee/<question>`` answers it: with htmx the verdict
fragment, without JavaScript the whole page with the verdict in place (hence ``Vary:
HX-Request``). The answers come from the same functions as the JSON API
(:mod:`scorekeeper.rules.api`), so page and API always agree.

Settings come from the query: ``?ruleset=polish&players=2&score=1500&options=<json>``; a game
page links here with ``game=<id>`` too (kept on every form; it adds a link back to the game).
``?q=<question>`` with that question's fields answers it on a plain GET (a shareable ruling).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from htmx_flask import request as htmx_request

from ..rules import api as rules_api
from ..rules.cards import parse_cards
from ..rules.explain import rule_item
from ..rules.problems import Problem
from ..rules.referee import rule_anchor
from ..rules.ruleset import PRESETS, RULESET_IDS, RuleSet
from . import rules_pages
from .i18n import home_ruleset, number
from .messages import message

bp = Blueprint("referee", __name__)

QUESTIONS = ("meld", "initial-meld", "discard-pile", "go-out", "minimum")
MAX_SCORE = rules_api.MAX_SCORE
MAX_FIELD = 600  # characters kept of any one text field
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
MELD_SEPARATOR = re.compile(r"[/|\n]")
CANASTA_KINDS = ("natural", "mixed", "wild")


# ---- settings -------------------------------------------------------------------------------

@dataclass
class Settings:
    """What the questions are asked against: ruleset (with house rules), players, score."""

    base: RuleSet
    ruleset: RuleSet
    players: int
    house: rules_pages.HouseRules
    score: int = 0
    game: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def options(self) -> dict[str, Any] | None:
        return self.house.options

    def link(self, **changes: Any) -> str:
        """This page with other settings (``None`` drops a parameter)."""
        args: dict[str, Any] = {"ruleset": self.base.id, "players": self.players,
                                "options": self.house.text or None,
                                "score": self.score or None, "game": self.game}
        args.update(changes)
        return url_for("referee.page", **{k: v for k, v in args.items() if v is not None})

    def rules_url(self, anchor: str | None = None) -> str:
        return url_for("rules_pages.show", ruleset_id=self.base.id,
                       options=self.house.text or None, _anchor=anchor)

    @property
    def game_url(self) -> str | None:
        return f"/games/{quote(self.game)}" if self.game else None


def parse_score(text: Any) -> int | None:
    """A score as typed: ``1500``, ``1.500``, ``1 500``, ``−100``; None when unreadable."""
    if text is None:
        return 0
    value = str(text).strip()
    if not value:
        return 0
    value = value.replace("\u2212", "-").replace("\u2013", "-")
    value = re.sub(r"[\s\u00a0\u202f.,'’]", "", value)
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", value):
        return None
    number_ = int(value)
    return number_ if abs(number_) <= MAX_SCORE else None


def read_settings(values: Mapping[str, str]) -> Settings:
    """Settings from query or form values; anything unusable is noted and replaced."""
    notes: list[str] = []
    ruleset_id = values.get("ruleset") or home_ruleset()
    if ruleset_id not in PRESETS:
        notes.append(rules_pages.unknown_ruleset_note(ruleset_id))
        ruleset_id = home_ruleset()
    base = PRESETS[ruleset_id]
    house = rules_pages.read_house_rules(base, values.get("options"))
    notes.extend(house.notes)
    players = base.default_players
    raw_players = values.get("players")
    if raw_players:
        asked = int(raw_players) if re.fullmatch(r"[0-9]{1,2}", raw_players) else None
        if asked in base.players_allowed:
            players = asked
        else:
            notes.append(message(Problem("players.not_allowed", "players", {
                "players": raw_players[:10], "allowed": list(base.players_allowed)})))
    score = parse_score(values.get("score"))
    game = values.get("game") or None
    if game is not None and not GAME_ID.match(game):
        game = None
    return Settings(base, house.ruleset, players, house, score or 0, game, notes)


# ---- answers --------------------------------------------------------------------------------

@dataclass
class Quote:
    """A rule quoted from the ruleset's page, with the link to it."""

    text: str
    title: str
    url: str
    changed: bool = False


@dataclass
class Other:
    """How another ruleset answers the same question."""

    ruleset_id: str
    label: str
    answer: str
    detail: str = ""
    anchor: str = "overview"
    differs: bool = True

    @property
    def url(self) -> str:
        return url_for("rules_pages.show", ruleset_id=self.ruleset_id, _anchor=self.anchor)


@dataclass
class Answer:
    """The answer to one question. ``state``: empty, problems, yes, no or info."""

    question: str
    state: str = "empty"
    reasons: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    quotes: list[Quote] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    others: list[Other] = field(default_factory=list)  # every ruleset compared with

    @property
    def differs(self) -> bool:
        """Some other ruleset answers differently (the "under other rules" line is shown)."""
        return any(o.differs for o in self.others)

    @property
    def points_text(self) -> str:
        """The meld's worth ("70 points"), plural forms of the reader's language."""
        total = int(self.extra.get("total", 0))
        return ngettext("%(points)s point", "%(points)s points", total, points=number(total))

    @property
    def same(self) -> list[str]:
        return [o.label for o in self.others if not o.differs]

    @property
    def answered(self) -> bool:
        return self.state in ("yes", "no", "info")


def _text(values: Mapping[str, str], key: str) -> str:
    return (values.get(key) or "").strip()[:MAX_FIELD]


def _flag(values: Mapping[str, str], key: str) -> bool:
    return values.get(key) in ("1", "on", "true", "yes")


def _melds(text: str) -> list[str]:
    """Melds typed in one field, separated by ``/``: ``K K K 2 / 4 4 4``."""
    return [part.strip() for part in MELD_SEPARATOR.split(text) if part.strip()]


def _score_or_problem(values: Mapping[str, str], answer: Answer) -> int:
    score = parse_score(values.get("score"))
    if score is None:
        answer.state = "problems"
        answer.problems.append(_("Enter your side's score as a whole number, such as 1500."))
        return 0
    return score


# A question's request builder: the form values → the JSON request of CONTRACT.md §3, or None
# when there is nothing to answer yet.
Builder = Callable[[Mapping[str, str], Answer], dict[str, Any] | None]


def _meld_request(values: Mapping[str, str], answer: Answer) -> dict[str, Any] | None:
    cards = _text(values, "cards")
    if not cards:
        return None
    answer.extra["read"] = [_read(cards)]
    return {"cards": cards, "going_out": _flag(values, "going_out")}


def _initial_meld_request(values: Mapping[str, str], answer: Answer) -> dict[str, Any] | None:
    melds = _melds(_text(values, "melds"))
    score = _score_or_problem(values, answer)
    if not melds or answer.state == "problems":
        return None
    return {"cumulative_score": score, "melds": melds,
            "top_card": _text(values, "top_card") or None}


def _discard_pile_request(values: Mapping[str, str], answer: Answer) -> dict[str, Any] | None:
    top = _text(values, "top_card")
    score = _score_or_problem(values, answer)
    if not top or answer.state == "problems":
        return None
    return {
        "top_card": top,
        "pile_has_wild": _flag(values, "pile_has_wild"),
        "red_three_upcard": _flag(values, "red_three_upcard"),
        "side_has_melded": values.get("side_has_melded", "yes") != "no",
        "side_melds": _melds(_text(values, "side_melds")),
        "hand": _text(values, "hand"),
        "cumulative_score": score,
        "going_out": _flag(values, "going_out"),
    }


def _go_out_request(values: Mapping[str, str], answer: Answer) -> dict[str, Any] | None:
    canastas = {}
    for kind in CANASTA_KINDS:
        raw = _text(values, kind) or "0"
        if not re.fullmatch(r"[0-9]{1,2}", raw) or int(raw) > 30:
            answer.state = "problems"
            answer.problems.append(_("Enter the number of canastas as a whole number."))
            return None
        canastas[kind] = int(raw)
    return {"side_canastas": canastas, "concealed": _flag(values, "concealed"),
            "player_melded_before": _flag(values, "melded_before"),
            "melds": _melds(_text(values, "melds"))}


def _read(text: str) -> list[str]:
    """The cards the server read from a field (shown as chips, so a typo is seen at once)."""
    return [c.rank for c in parse_cards(text)[0]][:60]


@dataclass(frozen=True)
class Question:
    id: str
    api: Callable[[Any], tuple[int, dict[str, Any]]] | None
    build: Builder | None
    players_matter: bool


QUESTION_SPECS: dict[str, Question] = {
    "meld": Question("meld", rules_api.referee_meld, _meld_request, False),
    "initial-meld": Question("initial-meld", rules_api.referee_initial_meld,
                             _initial_meld_request, True),
    "discard-pile": Question("discard-pile", rules_api.referee_discard_pile,
                             _discard_pile_request, True),
    "go-out": Question("go-out", rules_api.referee_go_out, _go_out_request, True),
    "minimum": Question("minimum", None, None, True),
}


def _compare_key(question: str, body: dict[str, Any]) -> tuple[Any, ...]:
    """What must match for two rulesets to answer a question the same way."""
    if question == "meld":
        return (body["allowed"], body.get("total") if body["allowed"] else None)
    if question == "initial-meld":
        return (body["allowed"], body.get("required"), body.get("counted"))
    return (body["allowed"],)


def _detail(question: str, body: dict[str, Any]) -> str:
    """A few words that say why another ruleset's answer differs."""
    if question == "meld" and body["allowed"]:
        return _("worth %(points)s", points=number(body.get("total", 0)))
    if question == "initial-meld" and "required" in body:
        return _("counts %(counted)s of %(required)s", counted=number(body.get("counted", 0)),
                 required=number(body["required"]))
    if question == "go-out" and "needed" in body:
        return ngettext("needs %(num)s canasta", "needs %(num)s canastas", int(body["needed"]))
    return ""


def _yes_no(allowed: bool) -> str:
    return _("Yes") if allowed else _("No")


def _other_rulesets(settings: Settings, players_matter: bool) -> list[tuple[str, str, int]]:
    """(id, label, players) of the rulesets to compare with: the other presets and, with house
    rules, the game's own ruleset without them."""
    out = []
    if settings.options:
        out.append((settings.base.id, _("%(ruleset)s without house rules",
                                        ruleset=rules_pages.ruleset_label(settings.base.id)),
                    settings.players))
    for rid in RULESET_IDS:
        if rid == settings.base.id:
            continue
        preset = PRESETS[rid]
        if settings.players in preset.players_allowed:
            out.append((rid, rules_pages.ruleset_label(rid), settings.players))
        elif not players_matter:
            out.append((rid, rules_pages.ruleset_label(rid), preset.default_players))
    return out


def _quotes(settings: Settings, reasons: list[Problem], *, frozen: bool = False,
            concealed: bool = False) -> list[Quote]:
    items = rules_pages.rule_items(settings.ruleset, settings.players,
                                   set(settings.ruleset.options_against(settings.base)))
    titles = rules_pages.section_titles()
    quotes: list[Quote] = []
    seen: set[str] = set()
    for reason in reasons:
        key = rule_item(reason.code, reason.params, frozen=frozen, concealed=concealed)
        if key in seen or key not in items:
            continue
        seen.add(key)
        anchor = rule_anchor(reason.code)
        item = items[key]
        quotes.append(Quote(item.text, titles.get(anchor, anchor),
                            settings.rules_url(anchor), item.changed))
        if len(quotes) == 2:
            break
    return quotes


def ask(question: str, settings: Settings, values: Mapping[str, str]) -> Answer:
    """Answer one question for the form ``values`` (empty answer when nothing is entered)."""
    if question == "minimum":
        return _ask_minimum(settings, values)
    spec = QUESTION_SPECS[question]
    assert spec.build is not None and spec.api is not None
    answer = Answer(question)
    request_body = spec.build(values, answer)
    if request_body is None:
        return answer
    base_request = {"ruleset": settings.base.id, "players": settings.players,
                    "options": settings.options, **request_body}
    status, body = spec.api(base_request)
    if status != 200:
        answer.state = "problems"
        answer.problems = [message(p) for p in body.get("problems", [])][:6]
        return answer
    answer.state = "yes" if body["allowed"] else "no"
    reasons: list[Problem] = list(body["reasons"])
    answer.reasons = [message(p) for p in reasons]
    answer.extra.update({k: v for k, v in body.items() if k not in ("allowed", "reasons")})
    frozen = question == "discard-pile" and bool(
        request_body.get("pile_has_wild") or request_body.get("red_three_upcard")
        or not request_body.get("side_has_melded", True))
    answer.quotes = _quotes(settings, reasons, frozen=frozen,
                            concealed=bool(request_body.get("concealed")))
    key = _compare_key(question, body)
    anchor = rule_anchor(reasons[0].code) if reasons else "overview"
    for rid, label, players in _other_rulesets(settings, spec.players_matter):
        other_status, other = spec.api({**base_request, "ruleset": rid, "players": players,
                                        "options": None})
        if other_status != 200:
            continue
        answer.others.append(Other(rid, label, _yes_no(other["allowed"]),
                                   _detail(question, other), anchor,
                                   _compare_key(question, other) != key))
    return answer


def _ask_minimum(settings: Settings, values: Mapping[str, str]) -> Answer:
    answer = Answer("minimum")
    score = _score_or_problem(values, answer) if "score" in values else settings.score
    if answer.state == "problems":
        return answer
    rs = settings.ruleset
    required = rs.initial_meld_minimum(score, settings.players)
    answer.state = "info"
    answer.extra = {"required": required, "score": score,
                    "table": rules_pages.minimum_table(rs, settings.players, score)}
    if required:
        answer.reasons = [_("With %(score)s points, a side needs at least %(minimum)s for its "
                            "initial meld.", score=number(score), minimum=number(required))]
    else:
        answer.reasons = [_("With %(score)s points, a side needs no minimum for its initial "
                            "meld.", score=number(score))]
    answer.quotes = _quotes(settings, [Problem("initial_meld.reached")])
    for rid, label, players in _other_rulesets(settings, True):
        other = PRESETS[rid].initial_meld_minimum(score, players)
        answer.others.append(Other(rid, label, number(other) if other else _("none"),
                                   anchor="initial-meld", differs=other != required))
    return answer


# ---- views ----------------------------------------------------------------------------------

def _values() -> Mapping[str, str]:
    """Form values (POST) over query values: the settings may come in either."""
    merged = dict(request.args.items())
    if request.method == "POST":
        merged.update(request.form.items())
    return merged


def _render_page(settings: Settings, answers: dict[str, Answer],
                 values: dict[str, Mapping[str, str]], status: int = 200) -> Response:
    if "minimum" not in answers:
        answers["minimum"] = _ask_minimum(settings, {})
    ruleset_links = [(rid, rules_pages.ruleset_label(rid),
                      settings.link(ruleset=rid, options=None,
                                    players=settings.players
                                    if settings.players in PRESETS[rid].players_allowed
                                    else None))
                     for rid in RULESET_IDS]
    player_links = [(n, settings.link(players=n)) for n in settings.base.players_allowed]
    html = render_template(
        "referee/page.html", settings=settings, rs=settings.ruleset, answers=answers,
        values=values, ruleset_links=ruleset_links, player_links=player_links,
    )
    return make_response(html, status)


@bp.get("/referee")
def page() -> Response:
    values = _values()
    settings = read_settings(values)
    answers: dict[str, Answer] = {}
    filled: dict[str, Mapping[str, str]] = {}
    question = values.get("q")
    if question in QUESTIONS:
        answers[question] = ask(question, settings, values)
        filled[question] = values
    return _render_page(settings, answers, filled)


@bp.post("/referee/<question>")
def answer(question: str) -> Response:
    if question not in QUESTIONS:
        abort(404)
    values = _values()
    settings = read_settings(values)
    result = ask(question, settings, values)
    if htmx_request.htmx and not htmx_request.htmx.history_restore_request:
        html = render_template("referee/_answer.html", answer=result, settings=settings,
                               question=question)
        response = make_response(html, 200)
    else:
        status = 422 if result.state == "problems" else 200
        response = _render_page(settings, {question: result}, {question: values}, status)
    response.vary.add("HX-Request")
    return response


# "3 ist 50" asks its own question on this blueprint: importing the module adds its route.
from . import referee_fifty  # noqa: E402,F401
