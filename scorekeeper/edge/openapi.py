"""The OpenAPI 3.1 description of every ``/api/v1`` operation, written from the edge's types
(:mod:`.requests`, :mod:`.responses`): served at ``GET /api/v1/openapi.json`` and rendered as
the API reference page (docs/api.md).

:data:`OPERATIONS` lists each operation once: its method and path, the Flask endpoint that
answers it (a test holds the two lists together), the request's type, the answers' types by
status, and the problem codes it may answer with (by their families, taken from the catalogue of
messages the caller passes, so a new code of a family is described at once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import requests as rq
from . import responses as rs
from .spec import json_schema

VERSION = "1"

#: the problem families every request may meet: an unreadable body, the guards
COMMON_CODES = ("request",)
CANASTA_CODES = (
    "ruleset",
    "players",
    "options",
    "card",
    "meld",
    "quick",
    "total",
    "red_threes",
    "black_threes",
    "special_hand",
    "going_out",
    "teams",
    "hands",
    "hand",
    "sides",
    "name",
)
FIFTY_CODES = ("players", "options", "card", "piles", "middle", "hand", "three_is_fifty")
GAME_CODES = (*CANASTA_CODES, "game", "entry", "view", "side", "piles", "three_is_fifty")


@dataclass(frozen=True)
class Param:
    name: str
    where: str  # path or query
    schema: dict[str, Any]
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    endpoint: str
    summary: str
    tag: str
    request: Any = None  # a type of .requests, or None for no body
    body_required: bool = True
    answers: dict[int, Any] = field(default_factory=dict)
    problems: tuple[int, ...] = (400, 422)
    codes: tuple[str, ...] = ()
    query: tuple[Param, ...] = ()
    media: str = "application/json"
    description: str = ""


#: a character that is not white space, as Python's str.split() sees it (listed, so that every
#: regex engine reads it alike)
VISIBLE = "[^\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"

KEY = Param(
    "key",
    "path",
    {"type": "string", "maxLength": 64},
    "A game's editing key, a side's key or its view id.",
    True,
)
TABLE_KEY = Param(
    "key",
    "path",
    {"type": "string", "maxLength": 64},
    "A table's editing key (or, to read, its view id).",
    True,
)
TOURNAMENT_KEY = Param(
    "key",
    "path",
    {"type": "string", "maxLength": 64},
    "A tournament's editing key (or, to read, its view id).",
    True,
)
NUMBER = Param(
    "number",
    "path",
    {"type": "string", "pattern": "^[0-9]{1,6}$"},
    "A hand's number, from 1.",
    True,
)
ROUND = Param("number", "path", {"type": "integer", "minimum": 0}, "A round's number.", True)
PARTICIPANT = Param(
    "number", "path", {"type": "integer", "minimum": 0}, "A participant's number.", True
)
SIDE = Param(
    "side", "path", {"type": "string", "pattern": "^[0-9]{1,3}$"}, "A side's index, from 0.", True
)
VERSION_QUERY = Param(
    "version",
    "query",
    {"type": "integer", "minimum": 0, "maximum": 9_999_999_999},
    "The game's version, when the body does not carry it.",
)


def _referee(
    path: str,
    endpoint: str,
    summary: str,
    request: Any,
    codes: tuple[str, ...],
    answer: Any = rs.Verdict,
) -> Operation:
    return Operation(
        "post",
        f"/api/v1/referee/{path}",
        f"api.{endpoint}",
        summary,
        "referee",
        request,
        answers={200: answer},
        codes=("ruleset", "players", "options", "card", *codes),
    )


OPERATIONS: tuple[Operation, ...] = (
    # ---- stateless ----
    Operation(
        "post",
        "/api/v1/score",
        "api.score",
        "Score one hand",
        "score",
        rq.ScoreRequest | rq.FiftyScoreRequest,
        answers={200: rs.ScoreAnswer | rs.FiftyScoreAnswer, 422: rs.RefusedScore},
        codes=(*CANASTA_CODES, *FIFTY_CODES),
        description="Every side of one hand scored (docs/api.md §3). 3 ist 50: every "
        "minus pile counted.",
    ),
    _referee("meld", "referee_meld", "Is this a legal meld?", rq.MeldQuestion, ("meld",)),
    _referee(
        "initial-meld",
        "referee_initial_meld",
        "Does the initial meld reach the minimum?",
        rq.InitialMeldQuestion,
        ("meld", "initial_meld"),
    ),
    _referee(
        "discard-pile",
        "referee_discard_pile",
        "May the player take the discard pile?",
        rq.DiscardPileQuestion,
        ("meld", "discard_pile", "initial_meld"),
    ),
    _referee(
        "go-out", "referee_go_out", "May the side go out?", rq.GoOutQuestion, ("meld", "going_out")
    ),
    _referee(
        "options",
        "referee_options",
        "What may I do? Every legal move of the turn",
        rq.OptionsQuestion,
        ("meld", "going_out", "discard_pile", "initial_meld"),
        rs.TurnOptions,
    ),
    Operation(
        "post",
        "/api/v1/referee/three-is-fifty",
        "api.referee_three_is_fifty",
        "3 ist 50: every legal move of the turn",
        "referee",
        rq.FiftyMovesQuestion,
        answers={200: rs.FiftyMoves},
        codes=FIFTY_CODES,
    ),
    _referee(
        "partner-permission",
        "referee_partner_permission",
        "May I go out? (the partner asked)",
        rq.PartnerPermissionQuestion,
        ("permission",),
        rs.Ruling,
    ),
    _referee(
        "end-of-stock",
        "referee_end_of_stock",
        "The last cards of the stock",
        rq.StockQuestion,
        ("stock", "draw"),
        rs.Ruling,
    ),
    _referee(
        "black-three-block",
        "referee_black_three_block",
        "What a black three blocks",
        rq.BlackThreeQuestion,
        ("pile_block",),
        rs.Ruling,
    ),
    _referee(
        "red-three-from-pile",
        "referee_red_three_from_pile",
        "A red three taken with the pile",
        rq.RedThreeQuestion,
        ("pile_red_three",),
        rs.Ruling,
    ),
    Operation(
        "post",
        "/api/v1/referee/three-is-fifty-deal",
        "api.referee_three_is_fifty_deal",
        "3 ist 50: the deal, the middle, the dealer and the turn",
        "referee",
        rq.FiftyDealQuestion,
        answers={200: rs.Ruling},
        codes=("fifty_deal",),
    ),
    _referee(
        "two-player-draw",
        "referee_two_player_draw",
        "Two-player draws",
        rq.TwoPlayerDrawQuestion,
        ("draw", "stock"),
        rs.Ruling,
    ),
    Operation(
        "get",
        "/api/v1/rulesets",
        "api.ruleset_list",
        "Every ruleset",
        "rulesets",
        answers={200: rs.Rulesets},
        problems=(),
    ),
    Operation(
        "get",
        "/api/v1/rulesets/{ruleset_id}",
        "api.ruleset_detail",
        "A ruleset's every parameter",
        "rulesets",
        answers={200: rs.RulesetDetail},
        problems=(404, 422),
        codes=("ruleset", "players"),
        query=(
            Param(
                "ruleset_id", "path", {"type": "string", "maxLength": 64}, "The ruleset's id.", True
            ),
            Param(
                "players",
                "query",
                {"type": "integer", "minimum": 1},
                "Sizes the deck and the tables for this many players.",
            ),
        ),
    ),
    Operation(
        "get",
        "/api/v1/rules/search",
        "rulebook_api.rules_search",
        "The rule paragraphs that answer a dispute asked in words",
        "rules",
        answers={200: rs.RuleSearch},
        problems=(400,),
        query=(
            Param(
                "q",
                "query",
                {"type": "string", "minLength": 1, "maxLength": 200, "pattern": VISIBLE},
                "The question, in words.",
                True,
            ),
            Param("lang", "query", {"enum": ["de", "pl", "en"]}, "Its language."),
        ),
    ),
    # ---- games ----
    Operation(
        "post",
        "/api/v1/games",
        "games_api.create",
        "Create a game",
        "games",
        rq.NewGame,
        answers={201: rs.Game},
        codes=(*GAME_CODES, "table"),
    ),
    Operation(
        "post",
        "/api/v1/games/import",
        "games_api.import_games",
        "Import games",
        "games",
        rq.GamesImport,
        answers={201: rs.GamesImported},
        codes=GAME_CODES,
    ),
    Operation(
        "get",
        "/api/v1/games/{key}",
        "games_api.detail",
        "A game's sheet",
        "games",
        answers={200: rs.Game},
        problems=(404,),
        codes=("game",),
        query=(KEY,),
    ),
    Operation(
        "post",
        "/api/v1/games/{key}/hands",
        "games_api.add_hand",
        "Add the next hand",
        "games",
        rq.HandEntry,
        answers={200: rs.Game, 201: rs.Game},
        problems=(400, 403, 404, 409, 410, 422),
        codes=GAME_CODES,
        query=(KEY,),
    ),
    Operation(
        "get",
        "/api/v1/games/{key}/hands/{number}",
        "games_api.hand_detail",
        "One hand of the sheet",
        "games",
        answers={200: rs.HandDetail},
        problems=(404,),
        codes=("game", "hand"),
        query=(KEY, NUMBER),
    ),
    Operation(
        "put",
        "/api/v1/games/{key}/hands/{number}",
        "games_api.replace_hand",
        "Correct a hand",
        "games",
        rq.HandEntry,
        answers={200: rs.Game, 201: rs.Game},
        problems=(400, 403, 404, 409, 410, 422),
        codes=GAME_CODES,
        query=(KEY, NUMBER),
    ),
    Operation(
        "delete",
        "/api/v1/games/{key}/hands/{number}",
        "games_api.delete_hand",
        "Delete the last hand",
        "games",
        rq.VersionOnly,
        body_required=False,
        answers={200: rs.Game},
        problems=(400, 403, 404, 409, 422),
        codes=("game", "hand", "request"),
        query=(KEY, NUMBER, VERSION_QUERY),
    ),
    Operation(
        "post",
        "/api/v1/games/{key}/undo",
        "games_api.undo_delete",
        "Bring back the hand deleted last",
        "games",
        rq.UndoDelete,
        answers={200: rs.Game},
        problems=(400, 403, 404, 409, 422),
        codes=("game", "hand"),
        query=(KEY, VERSION_QUERY),
    ),
    Operation(
        "get",
        "/api/v1/games/{key}/events",
        "live.game_events",
        "The game's changes as they happen (server-sent events)",
        "live",
        answers={200: None},
        problems=(404, 429),
        codes=("game", "stream"),
        query=(KEY,),
        media="text/event-stream",
    ),
    # ---- parts ----
    Operation(
        "get",
        "/api/v1/games/{key}/parts",
        "parts_api.show",
        "The parts of the open hand",
        "parts",
        answers={200: rs.Parts},
        problems=(404,),
        codes=("game",),
        query=(KEY,),
    ),
    Operation(
        "put",
        "/api/v1/games/{key}/parts/{side}",
        "parts_api.put",
        "Enter or correct a side's part",
        "parts",
        rq.PartPut,
        answers={200: rs.Parts, 201: rs.Parts, 409: rs.PartConflict},
        problems=(400, 403, 404, 422),
        codes=(*GAME_CODES, "part"),
        query=(KEY, SIDE),
    ),
    Operation(
        "delete",
        "/api/v1/games/{key}/parts/{side}",
        "parts_api.delete",
        "Take a side's part back",
        "parts",
        rq.PartDelete,
        body_required=False,
        answers={200: rs.Parts, 409: rs.PartConflict},
        problems=(400, 403, 404, 422),
        codes=("game", "side", "part"),
        query=(KEY, SIDE),
    ),
    # ---- tables ----
    Operation(
        "post",
        "/api/v1/tables",
        "tables_api.create",
        "Create a table",
        "tables",
        rq.NewTable,
        answers={201: rs.Table},
        codes=("table", "name"),
    ),
    Operation(
        "post",
        "/api/v1/tables/import",
        "tables_api.import_table",
        "Import a table",
        "tables",
        rq.TableImport,
        answers={201: rs.Table},
        codes=("table", *GAME_CODES),
    ),
    Operation(
        "get",
        "/api/v1/tables/{key}",
        "tables_api.detail",
        "A table, its games and statistics",
        "tables",
        answers={200: rs.Table},
        problems=(400, 404),
        codes=("table",),
        query=(
            TABLE_KEY,
            Param(
                "page",
                "query",
                {"type": "integer", "minimum": 1, "maximum": 999_999},
                "A page of the games, newest first.",
            ),
        ),
    ),
    Operation(
        "delete",
        "/api/v1/tables/{key}",
        "tables_api.delete",
        "Delete a table and its games",
        "tables",
        answers={204: None},
        problems=(404,),
        codes=("table",),
        query=(TABLE_KEY,),
    ),
    Operation(
        "get",
        "/api/v1/tables/{key}/export",
        "tables_api.export",
        "Export a table",
        "tables",
        answers={200: rs.TableExport},
        problems=(404,),
        codes=("table",),
        query=(TABLE_KEY,),
    ),
    Operation(
        "put",
        "/api/v1/tables/{key}/players/{player}",
        "tables_api.rename",
        "Rename a person",
        "tables",
        rq.Rename,
        answers={200: rs.Table},
        problems=(400, 404, 422),
        codes=("table", "name"),
        query=(
            TABLE_KEY,
            Param("player", "path", {"type": "string", "maxLength": 64}, "The person's id.", True),
        ),
    ),
    Operation(
        "post",
        "/api/v1/tables/{key}/merge",
        "tables_api.merge",
        "Two entries of one person become one",
        "tables",
        rq.Merge,
        answers={200: rs.Table},
        problems=(400, 404, 409, 422),
        codes=("table",),
        query=(TABLE_KEY,),
    ),
    Operation(
        "post",
        "/api/v1/tables/{key}/merges/{merge_id}/undo",
        "tables_api.undo_merge",
        "Take a merge back",
        "tables",
        rq.NoBody,
        answers={200: rs.Table},
        problems=(400, 404, 409, 422),
        codes=("table",),
        query=(
            TABLE_KEY,
            Param(
                "merge_id",
                "path",
                {"type": "string", "maxLength": 64},
                "The merge (`merges[].id`).",
                True,
            ),
        ),
    ),
    Operation(
        "get",
        "/api/v1/tables/{key}/events",
        "live.table_events",
        "The table's changes as they happen (server-sent events)",
        "live",
        answers={200: None},
        problems=(404, 429),
        codes=("table", "stream"),
        query=(TABLE_KEY,),
        media="text/event-stream",
    ),
    # ---- tournaments ----
    Operation(
        "post",
        "/api/v1/tournaments",
        "tournaments_api.create",
        "Create a tournament",
        "tournaments",
        rq.NewTournament,
        answers={201: rs.TournamentCreated},
        codes=("tournament", "ruleset", "players", "options", "name", "table"),
    ),
    Operation(
        "get",
        "/api/v1/tournaments/{key}",
        "tournaments_api.detail",
        "A tournament: rounds and standings",
        "tournaments",
        answers={200: rs.Tournament},
        problems=(404,),
        codes=("tournament",),
        query=(TOURNAMENT_KEY,),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds",
        "tournaments_api.start_round",
        "Seat and start the next round",
        "tournaments",
        rq.NoBody,
        answers={201: rs.RoundStarted},
        problems=(400, 404, 409, 422),
        codes=("tournament", "seating"),
        query=(TOURNAMENT_KEY,),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds/proposal",
        "tournaments_api.propose_round",
        "Draw the next round's seating",
        "tournaments",
        rq.NoBody,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament", "seating"),
        query=(TOURNAMENT_KEY,),
    ),
    Operation(
        "put",
        "/api/v1/tournaments/{key}/rounds/{number}/seating",
        "tournaments_api.set_seating",
        "Seat a proposed round by hand",
        "tournaments",
        rq.Seating,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament", "seating"),
        query=(TOURNAMENT_KEY, ROUND),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds/{number}/swap",
        "tournaments_api.swap",
        "Two participants change places",
        "tournaments",
        rq.Swap,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament", "seating"),
        query=(TOURNAMENT_KEY, ROUND),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds/{number}/confirm",
        "tournaments_api.confirm_round",
        "Create a proposed round's games",
        "tournaments",
        rq.NoBody,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament", "seating"),
        query=(TOURNAMENT_KEY, ROUND),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds/{number}/time",
        "tournaments_api.call_time",
        "Call time",
        "tournaments",
        rq.NoBody,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament",),
        query=(TOURNAMENT_KEY, ROUND),
    ),
    Operation(
        "post",
        "/api/v1/tournaments/{key}/rounds/{number}/close",
        "tournaments_api.close_round",
        "Close a round",
        "tournaments",
        rq.NoBody,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament",),
        query=(TOURNAMENT_KEY, ROUND),
    ),
    Operation(
        "put",
        "/api/v1/tournaments/{key}/participants/{number}",
        "tournaments_api.set_absent",
        "A participant absent (or back)",
        "tournaments",
        rq.Absence,
        answers={200: rs.Tournament},
        problems=(400, 404, 409, 422),
        codes=("tournament",),
        query=(TOURNAMENT_KEY, PARTICIPANT),
    ),
    Operation(
        "get",
        "/api/v1/tournaments/{key}/events",
        "live.tournament_events",
        "The tournament's changes as they happen (server-sent events)",
        "live",
        answers={200: None},
        problems=(404, 429),
        codes=("tournament", "stream"),
        query=(TOURNAMENT_KEY,),
        media="text/event-stream",
    ),
    # ---- this description ----
    Operation(
        "get",
        "/api/v1/openapi.json",
        "openapi_api.description",
        "This description (OpenAPI 3.1)",
        "reference",
        answers={200: None},
        problems=(),
    ),
)

STATUS_WORDS = {
    200: "OK",
    201: "Created",
    204: "No content",
    400: "The request cannot be read",
    403: "Not with this key",
    404: "Not found",
    409: "A conflict: a stale version, or a change made meanwhile",
    410: "Gone: the entry's hand was deleted since",
    415: "The body is not JSON (`Content-Type: application/json`)",
    422: "The request breaks a rule",
    429: "Too many requests: wait and send again (`Retry-After`)",
    500: "An internal failure (a fault of the server, never of the request): nothing was changed",
    503: "Busy for a moment: send again",
}


def codes_of(families: tuple[str, ...], catalogue: tuple[str, ...]) -> list[str]:
    """Every code of ``catalogue`` in these families (``meld`` gives ``meld.*``)."""
    wanted = set(families) | set(COMMON_CODES)
    return sorted(code for code in catalogue if code.split(".", 1)[0] in wanted)


def _problem_responses() -> dict[str, Any]:
    """One shared answer per problem status (the codes are listed per operation)."""
    return {
        f"Problem{status}": {
            "description": STATUS_WORDS[status],
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/Problems"},
                    "example": {
                        "problems": [
                            {
                                "code": PROBLEM_EXAMPLES[status],
                                "message": "…",
                                "where": "",
                            }
                        ]
                    },
                }
            },
        }
        for status in PROBLEM_EXAMPLES
    }


PROBLEM_EXAMPLES = {
    400: "request.missing",
    403: "side.read_only",
    404: "game.not_found",
    409: "game.version_conflict",
    410: "entry.deleted",
    415: "request.content_type",
    422: "meld.too_small",
    429: "request.rate_limited",
    500: "request.invalid",
    503: "service.unavailable",
}


def _content(tp: Any, schemas: dict[str, Any], media: str) -> dict[str, Any]:
    if tp is None:
        if media == "text/event-stream":
            return {media: {"schema": {"type": "string"}}}
        if media == "text/html":
            return {media: {"schema": {"type": "string"}}}
        return {"application/json": {"schema": {"type": "object"}}}
    schema = json_schema(tp, schemas)
    content: dict[str, Any] = {"schema": schema}
    example = _example(tp)
    if example is not None:
        content["example"] = example
    return {"application/json": content}


def _example(tp: Any) -> Any:
    for option in getattr(tp, "__args__", (tp,)):
        example = getattr(option, "EXAMPLE", None)
        if example is not None:
            return example
    return None


def _operation(
    op: Operation, schemas: dict[str, Any], catalogue: tuple[str, ...]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "operationId": op.endpoint.replace(".", "_"),
        "summary": op.summary,
        "tags": [op.tag],
    }
    if op.description:
        out["description"] = op.description
    if op.query:
        out["parameters"] = [
            {
                "name": p.name,
                "in": p.where,
                "required": p.required or p.where == "path",
                "schema": p.schema,
                **({"description": p.description} if p.description else {}),
            }
            for p in op.query
        ]
    if op.request is not None:
        out["requestBody"] = {
            "required": op.body_required,
            "content": _content(op.request, schemas, op.media),
        }
    responses: dict[str, Any] = {}
    for status, tp in sorted(op.answers.items()):
        if status == 204:
            responses["204"] = {"description": STATUS_WORDS[204]}
            continue
        responses[str(status)] = {
            "description": STATUS_WORDS.get(status, "Answer"),
            "content": _content(tp, schemas, op.media),
        }
    # the stored games' API takes JSON bodies only (the stateless questions read any body)
    json_only = op.request is not None and op.tag in ("games", "parts", "tables", "tournaments")
    for status in (*op.problems, *((415,) if json_only else ()), 429, 500, 503):
        if str(status) not in responses:
            responses[str(status)] = {"$ref": f"#/components/responses/Problem{status}"}
    out["responses"] = responses
    codes = codes_of(op.codes, catalogue)
    out["x-problem-codes"] = codes
    families = sorted({c.split(".", 1)[0] for c in codes})
    listed = ", ".join(f"`{f}.*`" for f in families)
    out["description"] = (
        out.get("description", "")
        + f"\n\nProblem codes: {listed} (each listed in `x-problem-codes`)."
    ).strip()
    return out


@lru_cache(maxsize=2)
def description(catalogue: tuple[str, ...]) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document, the problem codes taken from ``catalogue`` (every code
    the app words; the web layer passes its catalogue of messages). Built once per process:
    the types do not change."""
    schemas: dict[str, Any] = {}
    json_schema(rs.Problems, schemas)
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        paths.setdefault(op.path, {})[op.method] = _operation(op, schemas, catalogue)
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Canasta scorekeeper API",
            "version": VERSION,
            "summary": "Score Canasta hands, ask the referee, keep games, tables and tournaments.",
            "description": "Requests and answers are JSON. A request that cannot be read "
            'answers 400, one that breaks a rule 422, both as `{"problems": [{"code", '
            '"message", "where"}]}`; `code` is stable, `message` is in the language of '
            "`Accept-Language` (de, pl, en). Keys of games, tables and tournaments are "
            "unguessable: whoever holds one may do what it grants. The reference in words: "
            "docs/api.md.",
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/"}],
        "tags": [
            {"name": "score", "description": "Score one hand (stateless)."},
            {"name": "referee", "description": "Rule questions and table disputes (stateless)."},
            {"name": "rulesets", "description": "The rulesets and their numbers."},
            {"name": "rules", "description": "The rules searched in words."},
            {"name": "games", "description": "Stored games and their hands."},
            {"name": "parts", "description": "A hand entered by its sides, each on its own phone."},
            {"name": "tables", "description": "Tables of regular players."},
            {"name": "tournaments", "description": "Club tournaments."},
            {"name": "live", "description": "Changes as they happen."},
            {"name": "reference", "description": "This description."},
        ],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "responses": _problem_responses(),
        },
    }
