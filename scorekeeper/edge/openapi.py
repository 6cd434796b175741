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
from typing import Annotated, Any

from . import requests as rq
from . import responses as rs
from .spec import Spec, json_schema
from .stored_format import (
    MAX_IMPORTED_GAMES,
    ROOTS,
    BackupFile,
    BackupOfBefore,
    TableFile,
    TableOfBefore,
)

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
    """One parameter of an operation: its name, in the path or the query, and its schema."""

    name: str
    where: str  # path or query
    schema: dict[str, Any]
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class Operation:
    """One operation as the description writes it (made by :func:`op` from a row of
    :data:`OPERATIONS`)."""

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
    parameters: tuple[Param, ...] = ()  # the path's, in its order, then the query's
    media: str = "application/json"
    description: str = ""


#: a character that is not white space, as Python's str.split() sees it (listed, so that every
#: regex engine reads it alike)
VISIBLE = "[^\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"


def _key(of: str) -> Param:
    return Param("key", "path", {"type": "string", "maxLength": 64}, of, True)


#: every path parameter, by the path's segment it follows and its name: a row's path names its
#: parameters, and the description takes them from here
PATH_PARAMS: dict[tuple[str, str], Param] = {
    ("games", "key"): _key("A game's editing key, a side's key or its view id."),
    ("tables", "key"): _key("A table's editing key (or, to read, its view id)."),
    ("tournaments", "key"): _key("A tournament's editing key (or, to read, its view id)."),
    ("hands", "number"): Param(
        "number", "path", {"type": "string", "pattern": "^[0-9]{1,6}$"}, "A hand's number, from 1."
    ),
    ("rounds", "number"): Param(
        "number", "path", {"type": "integer", "minimum": 0}, "A round's number."
    ),
    ("participants", "number"): Param(
        "number", "path", {"type": "integer", "minimum": 0}, "A participant's number."
    ),
    ("parts", "side"): Param(
        "side", "path", {"type": "string", "pattern": "^[0-9]{1,3}$"}, "A side's index, from 0."
    ),
    ("players", "player"): Param(
        "player", "path", {"type": "string", "maxLength": 64}, "The person's id."
    ),
    ("merges", "merge_id"): Param(
        "merge_id", "path", {"type": "string", "maxLength": 64}, "The merge (`merges[].id`)."
    ),
    ("rulesets", "ruleset_id"): Param(
        "ruleset_id", "path", {"type": "string", "maxLength": 64}, "The ruleset's id."
    ),
}
VERSION_QUERY = Param(
    "version",
    "query",
    {"type": "integer", "minimum": 0, "maximum": 9_999_999_999},
    "The game's version, when the body does not carry it.",
)
PLAYERS_QUERY = Param(
    "players",
    "query",
    {"type": "integer", "minimum": 1},
    "Sizes the deck and the tables for this many players.",
)
SEARCH_QUERY = (
    Param(
        "q",
        "query",
        {"type": "string", "minLength": 1, "maxLength": 200, "pattern": VISIBLE},
        "The question, in words.",
        True,
    ),
    Param("lang", "query", {"enum": ["de", "pl", "en"]}, "Its language."),
)
PAGE_QUERY = Param(
    "page",
    "query",
    {"type": "integer", "minimum": 1, "maximum": 999_999},
    "A page of the games, newest first.",
)

#: what ``POST /api/v1/games/import`` takes: a backup in the stored-game format, or a file of
#: before (``{"games": [...]}`` in the games API's shape, or one game as that API gives it)
BACKUP_IMPORT = (
    Annotated[
        BackupFile,
        Spec(
            description="A backup in the stored-game format (a game's, a phone's, "
            f"`scorekeeper export`), at most {MAX_IMPORTED_GAMES} games a request.",
            extra={"properties": {"games": {"minItems": 1, "maxItems": MAX_IMPORTED_GAMES}}},
        ),
    ]
    | BackupOfBefore
)
#: what ``POST /api/v1/tables/import`` takes: a table's export in the stored-game format, or
#: an export of before (its games in the games API's shape)
TABLE_IMPORT = (
    Annotated[TableFile, Spec(description="A table's export in the stored-game format.")]
    | TableOfBefore
)

#: the tag of an operation by the first segment of its path (its area), where they differ
TAG_OF_AREA = {"openapi.json": "reference"}
#: the problem families every referee question may meet
REFEREE = ("ruleset", "players", "options", "card")


def op(
    route: str,
    endpoint: str,
    summary: str,
    request: Any,
    answers: dict[int, Any],
    problems: tuple[int, ...],
    codes: tuple[str, ...],
    *,
    query: tuple[Param, ...] = (),
    body_required: bool = True,
    description: str = "",
) -> Operation:
    """One row of :data:`OPERATIONS` as an :class:`Operation`: ``route`` is ``"METHOD
    path"``; what the path says is not written again (its parameters, from
    :data:`PATH_PARAMS`; its tag, from its area: ``parts`` under a game, ``live`` for the
    server-sent events; their media type)."""
    method, path = route.split(" ")
    segments = path.removeprefix("/api/v1/").split("/")
    parameters = tuple(
        PATH_PARAMS[segments[i - 1], name[1:-1]]
        for i, name in enumerate(segments)
        if name.startswith("{")
    )
    events = segments[-1] == "events"
    if events:
        tag = "live"
    elif "parts" in segments:
        tag = "parts"
    else:
        tag = TAG_OF_AREA.get(segments[0], segments[0])
    return Operation(
        method.lower(),
        path,
        endpoint,
        summary,
        tag,
        request,
        body_required,
        answers,
        problems,
        codes,
        parameters + query,
        "text/event-stream" if events else "application/json",
        description,
    )


#: every operation of /api/v1, one row each: route, the Flask endpoint that answers it, summary;
#: the request's type (None: no body), the answers' types by status (None: not JSON), the
#: problem statuses and the problem families it may answer with; then what only some have
# fmt: off
OPERATIONS: tuple[Operation, ...] = (
    # ---- stateless ----
    op("POST /api/v1/score", "api.score", "Score one hand",
       rq.ScoreRequest | rq.FiftyScoreRequest,
       {200: rs.ScoreAnswer | rs.FiftyScoreAnswer, 422: rs.RefusedScore}, (400, 422),
       (*CANASTA_CODES, *FIFTY_CODES),
       description="Every side of one hand scored (docs/api.md §3). 3 ist 50: every minus "
       "pile counted."),
    op("POST /api/v1/referee/meld", "api.referee_meld", "Is this a legal meld?",
       rq.MeldQuestion, {200: rs.Verdict}, (400, 422), (*REFEREE, "meld")),
    op("POST /api/v1/referee/initial-meld", "api.referee_initial_meld",
       "Does the initial meld reach the minimum?",
       rq.InitialMeldQuestion, {200: rs.Verdict}, (400, 422), (*REFEREE, "meld", "initial_meld")),
    op("POST /api/v1/referee/discard-pile", "api.referee_discard_pile",
       "May the player take the discard pile?",
       rq.DiscardPileQuestion, {200: rs.Verdict}, (400, 422),
       (*REFEREE, "meld", "discard_pile", "initial_meld")),
    op("POST /api/v1/referee/go-out", "api.referee_go_out", "May the side go out?",
       rq.GoOutQuestion, {200: rs.Verdict}, (400, 422), (*REFEREE, "meld", "going_out")),
    op("POST /api/v1/referee/options", "api.referee_options",
       "What may I do? Every legal move of the turn",
       rq.OptionsQuestion, {200: rs.TurnOptions}, (400, 422),
       (*REFEREE, "meld", "going_out", "discard_pile", "initial_meld")),
    op("POST /api/v1/referee/three-is-fifty", "api.referee_three_is_fifty",
       "3 ist 50: every legal move of the turn",
       rq.FiftyMovesQuestion, {200: rs.FiftyMoves}, (400, 422), FIFTY_CODES),
    op("POST /api/v1/referee/partner-permission", "api.referee_partner_permission",
       "May I go out? (the partner asked)",
       rq.PartnerPermissionQuestion, {200: rs.Ruling}, (400, 422), (*REFEREE, "permission")),
    op("POST /api/v1/referee/end-of-stock", "api.referee_end_of_stock",
       "The last cards of the stock",
       rq.StockQuestion, {200: rs.Ruling}, (400, 422), (*REFEREE, "stock", "draw")),
    op("POST /api/v1/referee/black-three-block", "api.referee_black_three_block",
       "What a black three blocks",
       rq.BlackThreeQuestion, {200: rs.Ruling}, (400, 422), (*REFEREE, "pile_block")),
    op("POST /api/v1/referee/red-three-from-pile", "api.referee_red_three_from_pile",
       "A red three taken with the pile",
       rq.RedThreeQuestion, {200: rs.Ruling}, (400, 422), (*REFEREE, "pile_red_three")),
    op("POST /api/v1/referee/three-is-fifty-deal", "api.referee_three_is_fifty_deal",
       "3 ist 50: the deal, the middle, the dealer and the turn",
       rq.FiftyDealQuestion, {200: rs.Ruling}, (400, 422), ("fifty_deal",)),
    op("POST /api/v1/referee/two-player-draw", "api.referee_two_player_draw",
       "Two-player draws",
       rq.TwoPlayerDrawQuestion, {200: rs.Ruling}, (400, 422), (*REFEREE, "draw", "stock")),
    op("GET /api/v1/rulesets", "api.ruleset_list", "Every ruleset",
       None, {200: rs.Rulesets}, (), ()),
    op("GET /api/v1/rulesets/{ruleset_id}", "api.ruleset_detail",
       "A ruleset's every parameter",
       None, {200: rs.RulesetDetail}, (404, 422), ("ruleset", "players"),
       query=(PLAYERS_QUERY,)),
    op("GET /api/v1/rules/search", "rulebook_api.rules_search",
       "The rule paragraphs that answer a dispute asked in words",
       None, {200: rs.RuleSearch}, (400,), (), query=SEARCH_QUERY),
    # ---- games ----
    op("POST /api/v1/games", "games_api.create", "Create a game",
       rq.NewGame, {201: rs.Game}, (400, 422), (*GAME_CODES, "table")),
    op("POST /api/v1/games/import", "games_api.import_games", "Import games",
       BACKUP_IMPORT, {201: rs.GamesImported}, (400, 422), GAME_CODES,
       description="A backup file in the stored-game format (`BackupFile`, "
       "docs/stored-format.md); files of format version 1 import too, and games in "
       "this API's shape (`BackupOfBefore`; one such game alone, not wrapped in `games`, "
       "imports too)."),
    op("GET /api/v1/games/{key}", "games_api.detail", "A game's sheet",
       None, {200: rs.Game}, (404,), ("game",)),
    op("POST /api/v1/games/{key}/hands", "games_api.add_hand", "Add the next hand",
       rq.HandEntry, {201: rs.Game}, (400, 403, 404, 409, 410, 422), GAME_CODES,
       description="Send `version` from the last answer. Answers 201 with the sheet at its "
       "new `version` (send that with the next change), the new hand's number as `hand` and "
       "its address in `Location`. The same `entry_id` again answers as the first time, "
       "without a second hand; a stale `version` answers 409 with the current one."),
    op("GET /api/v1/games/{key}/hands/{number}", "games_api.hand_detail",
       "One hand of the sheet",
       None, {200: rs.HandDetail}, (404,), ("game", "hand")),
    op("PUT /api/v1/games/{key}/hands/{number}", "games_api.replace_hand", "Correct a hand",
       rq.HandEntry, {200: rs.Game}, (400, 403, 404, 409, 410, 422), GAME_CODES,
       description="Any hand, not only the last: send the whole hand again (every side) with "
       "the game's `version`. Answers 200 with the sheet from the corrected hand on (the "
       "running totals after it moved)."),
    op("DELETE /api/v1/games/{key}/hands/{number}", "games_api.delete_hand",
       "Delete the last hand",
       rq.VersionOnly, {200: rs.Game}, (400, 403, 404, 409, 422), ("game", "hand", "request"),
       query=(VERSION_QUERY,), body_required=False),
    op("POST /api/v1/games/{key}/undo", "games_api.undo_delete",
       "Bring back the hand deleted last",
       rq.UndoDelete, {200: rs.Game}, (400, 403, 404, 409, 422), ("game", "hand"),
       query=(VERSION_QUERY,)),
    op("GET /api/v1/games/{key}/events", "live.game_events",
       "The game's changes as they happen (server-sent events)",
       None, {200: None}, (404, 429), ("game", "stream")),
    # ---- parts ----
    op("GET /api/v1/games/{key}/parts", "parts_api.show", "The parts of the open hand",
       None, {200: rs.Parts}, (404,), ("game",)),
    op("PUT /api/v1/games/{key}/parts/{side}", "parts_api.put", "Enter or correct a side's part",
       rq.PartPut, {200: rs.Parts, 201: rs.Parts, 409: rs.PartConflict}, (400, 403, 404, 422),
       (*GAME_CODES, "part")),
    op("DELETE /api/v1/games/{key}/parts/{side}", "parts_api.delete", "Take a side's part back",
       rq.PartDelete, {200: rs.Parts, 409: rs.PartConflict}, (400, 403, 404, 422),
       ("game", "side", "part"), body_required=False),
    # ---- tables ----
    op("POST /api/v1/tables", "tables_api.create", "Create a table",
       rq.NewTable, {201: rs.Table}, (400, 422), ("table", "name")),
    op("POST /api/v1/tables/import", "tables_api.import_table", "Import a table",
       TABLE_IMPORT, {201: rs.Table}, (400, 422), ("table", *GAME_CODES),
       description="A table's export in the stored-game format (`TableFile`, "
       "docs/stored-format.md), as a new table; an export of before imports too "
       "(`TableOfBefore`)."),
    op("GET /api/v1/tables/{key}", "tables_api.detail", "A table, its games and statistics",
       None, {200: rs.Table}, (400, 404), ("table",), query=(PAGE_QUERY,)),
    op("DELETE /api/v1/tables/{key}", "tables_api.delete", "Delete a table and its games",
       None, {204: None}, (404,), ("table",)),
    op("GET /api/v1/tables/{key}/export", "tables_api.export", "Export a table",
       None, {200: TableFile}, (404,), ("table",),
       description="Every game of the table, both kinds, in the stored-game format "
       "(docs/stored-format.md): what `POST /api/v1/tables/import` takes."),
    op("PUT /api/v1/tables/{key}/players/{player}", "tables_api.rename", "Rename a person",
       rq.Rename, {200: rs.Table}, (400, 404, 422), ("table", "name")),
    op("POST /api/v1/tables/{key}/merge", "tables_api.merge",
       "Two entries of one person become one",
       rq.Merge, {200: rs.Table}, (400, 404, 409, 422), ("table",)),
    op("POST /api/v1/tables/{key}/merges/{merge_id}/undo", "tables_api.undo_merge",
       "Take a merge back",
       rq.NoBody, {200: rs.Table}, (400, 404, 409, 422), ("table",)),
    op("GET /api/v1/tables/{key}/events", "live.table_events",
       "The table's changes as they happen (server-sent events)",
       None, {200: None}, (404, 429), ("table", "stream")),
    # ---- tournaments ----
    op("POST /api/v1/tournaments", "tournaments_api.create", "Create a tournament",
       rq.NewTournament, {201: rs.TournamentCreated}, (400, 422),
       ("tournament", "ruleset", "players", "options", "name", "table")),
    op("GET /api/v1/tournaments/{key}", "tournaments_api.detail",
       "A tournament: rounds and standings",
       None, {200: rs.Tournament}, (404,), ("tournament",)),
    op("POST /api/v1/tournaments/{key}/rounds", "tournaments_api.start_round",
       "Seat and start the next round",
       rq.NoBody, {201: rs.RoundStarted}, (400, 404, 409, 422), ("tournament", "seating")),
    op("POST /api/v1/tournaments/{key}/rounds/proposal", "tournaments_api.propose_round",
       "Draw the next round's seating",
       rq.NoBody, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament", "seating")),
    op("PUT /api/v1/tournaments/{key}/rounds/{number}/seating", "tournaments_api.set_seating",
       "Seat a proposed round by hand",
       rq.Seating, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament", "seating")),
    op("POST /api/v1/tournaments/{key}/rounds/{number}/swap", "tournaments_api.swap",
       "Two participants change places",
       rq.Swap, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament", "seating")),
    op("POST /api/v1/tournaments/{key}/rounds/{number}/confirm", "tournaments_api.confirm_round",
       "Create a proposed round's games",
       rq.NoBody, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament", "seating")),
    op("POST /api/v1/tournaments/{key}/rounds/{number}/time", "tournaments_api.call_time",
       "Call time",
       rq.NoBody, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament",)),
    op("POST /api/v1/tournaments/{key}/rounds/{number}/close", "tournaments_api.close_round",
       "Close a round",
       rq.NoBody, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament",)),
    op("PUT /api/v1/tournaments/{key}/participants/{number}", "tournaments_api.set_absent",
       "A participant absent (or back)",
       rq.Absence, {200: rs.Tournament}, (400, 404, 409, 422), ("tournament",)),
    op("GET /api/v1/tournaments/{key}/events", "live.tournament_events",
       "The tournament's changes as they happen (server-sent events)",
       None, {200: None}, (404, 429), ("tournament", "stream")),
    # ---- this description ----
    op("GET /api/v1/openapi.json", "openapi_api.description", "This description (OpenAPI 3.1)",
       None, {200: None}, (), ()),
)
# fmt: on

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
    if op.parameters:
        out["parameters"] = [
            {
                "name": p.name,
                "in": p.where,
                "required": p.required or p.where == "path",
                "schema": p.schema,
                **({"description": p.description} if p.description else {}),
            }
            for p in op.parameters
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
    for root in ROOTS:  # the stored-game format, whole (docs/stored-format.md)
        json_schema(root, schemas)
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
