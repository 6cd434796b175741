"""The referee page: five rule questions, answered live as cards are tapped (``/referee``).

Each question is a plain form. ``POST /referee/<question>`` answers it: with htmx the verdict
fragment, without JavaScript the whole page with the verdict in place (hence ``Vary:
HX-Request``). The forms are read in :mod:`.referee_forms`; the answers come from the rules
engine's referee (:mod:`scorekeeper.rules.referee`), the same functions the JSON API asks, so
page and API always agree. "3 ist 50" asks its own question on this blueprint
(:mod:`.fifty`, ``GET /fifty/referee``).

Settings come from the query: ``?ruleset=polish&players=2&score=1500&options=<json>``; a game
page links here with ``game=<id>`` too (kept on every form; it adds a link back to the game).
``?q=<question>`` with that question's fields answers it on a plain GET (a shareable ruling).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, make_response, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ...rules.explain import rule_item
from ...rules.problems import Problem
from ...rules.referee import Verdict, rule_anchor
from ...rules.ruleset import PRESETS, RULESET_IDS
from ..app import htmx
from ..rulebook.book import rule_items, section_titles
from ..rulebook.rule_map import referee_kinds
from ..rulebook.score_tables import minimum_table
from ..rulebook.search import PAGE_FOUND, search_rules
from ..rulebook.search import read_question as read_typed_question
from ..rulebook.sources import Shown, answers
from ..words.i18n import current_language, number
from ..words.messages import message
from ..words.names import ruleset_title
from .disputes import DISPUTE_QUESTIONS, DisputeAnswer, ask_dispute
from .forms import Settings, read_question, read_settings, score_or_problem
from .moves import OptionsAnswer, ask_options, options_words

bp = Blueprint("referee", __name__)


QUESTIONS = (
    "meld",
    "initial-meld",
    "discard-pile",
    "go-out",
    "minimum",
    "options",
    *DISPUTE_QUESTIONS,
)
#: Questions whose answer depends on the number of players (compared at the same count).
PLAYERS_MATTER = frozenset({"initial-meld", "discard-pile", "go-out", "minimum"})


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
        return url_for("rulebook.show", ruleset_id=self.ruleset_id, _anchor=self.anchor)


@dataclass
class Answer:
    """The answer to one question. ``state``: empty, problems, yes, no or info."""

    question: str
    state: str = "empty"
    reasons: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    quotes: list[Quote] = field(default_factory=list)
    verdict: Verdict | None = None  # the engine's answer (questions other than "minimum")
    read: list[list[str]] = field(default_factory=list)  # the cards read (meld question)
    required: int = 0  # the minimum question: the minimum, the score and the table
    score: int = 0
    table: Any = None
    others: list[Other] = field(default_factory=list)  # every ruleset compared with
    options: OptionsAnswer | None = None  # "What may I do?": the moves

    @property
    def differs(self) -> bool:
        """Some other ruleset answers differently (the "under other rules" line is shown)."""
        return any(o.differs for o in self.others)

    @property
    def points_text(self) -> str:
        """The meld's worth ("70 points"), plural forms of the reader's language."""
        total = (self.verdict.total if self.verdict else None) or 0
        return ngettext("%(points)s point", "%(points)s points", total, points=number(total))

    @property
    def same(self) -> list[str]:
        return [o.label for o in self.others if not o.differs]

    @property
    def answered(self) -> bool:
        return self.state in ("yes", "no", "info")


# ---- asking ----------------------------------------------------------------------------------


def _compare_key(question: str, verdict: Verdict) -> tuple[Any, ...]:
    """What must match for two rulesets to answer a question the same way."""
    if question == "meld":
        return (verdict.allowed, verdict.total if verdict.allowed else None)
    if question == "initial-meld":
        return (verdict.allowed, verdict.required, verdict.counted)
    return (verdict.allowed,)


def _detail(question: str, verdict: Verdict) -> str:
    """A few words that say why another ruleset's answer differs."""
    if question == "meld" and verdict.allowed:
        return _("worth %(points)s", points=number(verdict.total or 0))
    if question == "initial-meld" and verdict.required is not None:
        return _(
            "counts %(counted)s of %(required)s",
            counted=number(verdict.counted or 0),
            required=number(verdict.required),
        )
    if question == "go-out" and verdict.needed is not None:
        return ngettext("needs %(num)s canasta", "needs %(num)s canastas", verdict.needed)
    return ""


def _yes_no(allowed: bool) -> str:
    return _("Yes") if allowed else _("No")


def _other_rulesets(settings: Settings, players_matter: bool) -> list[tuple[str, str, int]]:
    """(id, label, players) of the rulesets to compare with: the other presets and, with house
    rules, the game's own ruleset without them."""
    out = []
    if settings.options:
        out.append(
            (
                settings.base.id,
                _(
                    "%(ruleset)s without house rules",
                    ruleset=ruleset_title(settings.base.id, short=True),
                ),
                settings.players,
            )
        )
    for rid in RULESET_IDS:
        if rid == settings.base.id:
            continue
        preset = PRESETS[rid]
        if settings.players in preset.players_allowed:
            out.append((rid, ruleset_title(rid, short=True), settings.players))
        elif not players_matter:
            out.append((rid, ruleset_title(rid, short=True), preset.default_players))
    return out


def _quotes(
    settings: Settings, reasons: list[Problem], *, frozen: bool = False, concealed: bool = False
) -> list[Quote]:
    items = rule_items(
        settings.ruleset, settings.players, set(settings.ruleset.options_against(settings.base))
    )
    titles = section_titles()
    quotes: list[Quote] = []
    seen: set[str] = set()
    for reason in reasons:
        key = rule_item(reason.code, reason.params, frozen=frozen, concealed=concealed)
        if key in seen or key not in items:
            continue
        seen.add(key)
        anchor = rule_anchor(reason.code)
        item = items[key]
        quotes.append(
            Quote(item.text, titles.get(anchor, anchor), settings.rules_url(anchor), item.changed)
        )
        if len(quotes) == 2:
            break
    return quotes


def ask(question: str, settings: Settings, values: Mapping[str, str]) -> Answer | DisputeAnswer:
    """Answer one question for the form ``values`` (empty answer when nothing is entered)."""
    if question in DISPUTE_QUESTIONS:
        return ask_dispute(question, settings, values)
    if question == "minimum":
        return _ask_minimum(settings, values)
    if question == "options":
        return _ask_options(settings, values)
    answer = Answer(question)
    asked = read_question(question, values)
    answer.read = asked.read
    if asked.problems:
        answer.state = "problems"
        answer.problems = asked.problems
        return answer
    if asked.ask is None:
        return answer
    refused = settings.players_refused()
    if refused:
        answer.state = "problems"
        answer.problems = refused
        return answer
    verdict = asked.ask(settings.ruleset, settings.players)
    answer.verdict = verdict
    answer.state = "yes" if verdict.allowed else "no"
    reasons = list(verdict.reasons)
    answer.reasons = [message(p) for p in reasons]
    answer.quotes = _quotes(settings, reasons, frozen=asked.frozen, concealed=asked.concealed)
    key = _compare_key(question, verdict)
    anchor = rule_anchor(reasons[0].code) if reasons else "overview"
    for rid, label, players in _other_rulesets(settings, question in PLAYERS_MATTER):
        other = asked.ask(PRESETS[rid], players)
        answer.others.append(
            Other(
                rid,
                label,
                _yes_no(other.allowed),
                _detail(question, other),
                anchor,
                _compare_key(question, other) != key,
            )
        )
    return answer


def _ask_options(settings: Settings, values: Mapping[str, str]) -> Answer:
    answer = Answer("options")
    result = ask_options(settings, values)
    answer.options = result
    if result.problems:
        answer.state = "problems"
        answer.problems = result.problems
    elif result.asked:
        answer.state = "info"
    return answer


def _ask_minimum(settings: Settings, values: Mapping[str, str]) -> Answer:
    answer = Answer("minimum")
    score = settings.score
    if "score" in values:
        score, problems = score_or_problem(values)
        if problems:
            answer.state = "problems"
            answer.problems = problems
            return answer
    rs = settings.ruleset
    required = rs.initial_meld_minimum(score, settings.players)
    answer.state = "info"
    answer.required = required
    answer.score = score
    answer.table = minimum_table(rs, settings.players, score)
    if required:
        answer.reasons = [
            _(
                "With %(score)s points, a side needs at least %(minimum)s for its initial meld.",
                score=number(score),
                minimum=number(required),
            )
        ]
    else:
        answer.reasons = [
            _(
                "With %(score)s points, a side needs no minimum for its initial meld.",
                score=number(score),
            )
        ]
    answer.quotes = _quotes(settings, [Problem("initial_meld.reached")])
    for rid, label, players in _other_rulesets(settings, True):
        other = PRESETS[rid].initial_meld_minimum(score, players)
        answer.others.append(
            Other(
                rid,
                label,
                number(other) if other else _("none"),
                anchor="initial-meld",
                differs=other != required,
            )
        )
    return answer


# ---- views ----------------------------------------------------------------------------------


def _values() -> Mapping[str, str]:
    """Form values (POST) over query values: the settings may come in either."""
    merged = dict(request.args.items())
    if request.method == "POST":
        merged.update(request.form.items())
    return merged


def _render_page(
    settings: Settings,
    answers: dict[str, Answer | DisputeAnswer],
    values: dict[str, Mapping[str, str]],
    status: int = 200,
) -> Response:
    if "minimum" not in answers:
        answers["minimum"] = _ask_minimum(settings, {})
    ruleset_links = [
        (
            rid,
            ruleset_title(rid, short=True),
            settings.link(
                ruleset=rid,
                options=None,
                players=settings.players
                if settings.players in PRESETS[rid].players_allowed
                else None,
            ),
        )
        for rid in RULESET_IDS
    ]
    player_links = [(n, settings.link(players=n)) for n in settings.base.players_allowed]
    words = read_words(request.args.get("words"))
    html = render_template(
        "referee/page.html",
        settings=settings,
        rules=settings.ruleset,
        answers=answers,
        values=values,
        ruleset_links=ruleset_links,
        player_links=player_links,
        words_question=words[0],
        words_results=words[1],
        options_words=options_words(settings),
        dispute_questions=DISPUTE_QUESTIONS,  # answered by .disputes, with their own template
    )
    return make_response(html, status)


def read_words(raw: str | None) -> tuple[str, list[Shown]]:
    """A question asked in words with the page's link (``?words=``) and its answers."""
    asked = read_typed_question(raw)
    if asked.problem is not None:
        return "", []
    lang = current_language()
    kinds = referee_kinds()
    settings_ruleset = request.args.get("ruleset") or None
    ruleset = settings_ruleset if settings_ruleset in PRESETS else None
    return asked.question, answers(
        search_rules(asked.question, lang, PAGE_FOUND), lang, kinds, ruleset
    )


@bp.get("/referee")
def page() -> Response:
    values = _values()
    settings = read_settings(values)
    answers: dict[str, Answer | DisputeAnswer] = {}
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
    if htmx.wants_fragment():
        html = render_template(
            "referee/_answer.html",
            answer=result,
            settings=settings,
            question=question,
            dispute_questions=DISPUTE_QUESTIONS,
        )
        response = make_response(html, 200)
    else:
        status = 422 if result.state == "problems" else 200
        response = _render_page(settings, {question: result}, {question: values}, status)
    response.vary.add("HX-Request")
    return response
