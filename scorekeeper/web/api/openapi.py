"""The API described: ``GET /api/v1/openapi.json`` (the OpenAPI 3.1 description made from the
edge's types, :mod:`scorekeeper.edge.openapi`) and ``GET /api-reference``, the same description
as a page to read (outside ``/api/``, where every answer is JSON), rendered here by our own
template: no script, nothing from another origin."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, render_template
from markupsafe import Markup, escape

from ..words.messages import MESSAGES

#: its own blueprint: reads only, no body
bp = Blueprint("openapi_api", __name__)


def document() -> dict[str, Any]:
    """The OpenAPI description, every problem code taken from the app's catalogue. Made from the
    edge's answer types (``edge.responses``, some 70 dataclasses no request reads), imported the
    first time the description is asked for."""
    from ...edge import openapi as described

    return described.description(tuple(sorted(MESSAGES)))


@lru_cache(maxsize=1)
def _document() -> bytes:
    return json.dumps(document(), ensure_ascii=False, separators=(",", ":")).encode()


@bp.get("/api/v1/openapi.json")
def description() -> Response:
    """The OpenAPI 3.1 description of every operation of ``/api/v1``."""
    response = Response(_document(), mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=300"
    response.headers["Access-Control-Allow-Origin"] = "*"  # a public, read-only document
    return response


# ---- the page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One field of a request or an answer, as the page lists it."""

    name: str
    kind: Markup
    required: bool
    notes: str


@dataclass(frozen=True)
class Shown:
    """One operation as the page shows it."""

    anchor: str
    method: str
    path: str
    summary: str
    description: str
    parameters: list[Row]
    body: Markup
    body_rows: list[Row]
    example: str
    answers: list[tuple[str, str, Markup, list[Row], str]]  # status, words, type, fields, example
    codes: list[str]


def _ref_name(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).rsplit("/", 1)[-1]


def _alternatives(schema: dict[str, Any]) -> bool:
    """Whether :func:`kind_of` writes ``schema`` as several alternatives ("a or b")."""
    return len(schema.get("anyOf", ())) > 1 or (
        isinstance(schema.get("type"), list) and len(schema["type"]) > 1
    )


def _inner(schema: dict[str, Any]) -> Markup:
    """The kind of a list's items or an object's values, in brackets when it has alternatives,
    so that "list of (string or integer) or null" reads one way only."""
    kind = kind_of(schema)
    return Markup("({})").format(kind) if _alternatives(schema) else kind


def kind_of(schema: dict[str, Any]) -> Markup:
    """A schema in a few words, each named type a link to its entry on the page: ``integer``,
    ``list of Side``, ``Quick or null``, ``list of (string or integer)`` … (escaped: enum values
    are shown as JSON)."""
    if "$ref" in schema:
        name = _ref_name(schema)
        return Markup('<a href="#type-{0}">{0}</a>').format(name)
    if "allOf" in schema:
        return Markup(" & ").join(kind_of(s) for s in schema["allOf"])
    if "anyOf" in schema:
        return Markup(" or ").join(kind_of(s) for s in schema["anyOf"])
    if "enum" in schema:
        return escape(" | ".join(json.dumps(v) for v in schema["enum"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return escape(" or ".join(kind))
    if kind == "array":
        return Markup("list of ") + _inner(schema.get("items", {}))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return Markup("object of ") + _inner(schema["additionalProperties"])
    return escape(str(kind or "any JSON"))


def _described(schema: dict[str, Any]) -> list[str]:
    """What a field is, in words: its own description, that of the alternative it comes in (a
    nullable field's words sit on its non-null branch), and that of its items ("each: …")."""
    words = [str(schema["description"])] if schema.get("description") else []
    for branch in schema.get("anyOf", ()):
        if branch.get("type") != "null" and "$ref" not in branch:
            words += [w for w in _described(branch) if w not in words]
    items = schema.get("items")
    if isinstance(items, dict) and "$ref" not in items and items.get("description"):
        words.append(f"each: {items['description']}")
    return words


def _bounded(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the bounds of its one non-null alternative (a nullable field's bounds
    sit on that branch)."""
    branches = [b for b in schema.get("anyOf", ()) if b.get("type") != "null"]
    if len(branches) != 1:
        return schema
    return {**branches[0], **{k: v for k, v in schema.items() if k != "anyOf"}}


def _notes(field: dict[str, Any]) -> str:
    # a description's closing full stop gives way to the "; " between the notes
    parts = [words.removesuffix(".") for words in _described(field)]
    schema = _bounded(field)
    if "minimum" in schema or "maximum" in schema:
        parts.append(f"{schema.get('minimum', '…')} to {schema.get('maximum', '…')}")
    if "maxItems" in schema:
        parts.append(f"at most {schema['maxItems']} entries")
    if "minLength" in schema and "maxLength" in schema and schema["minLength"] > 1:
        parts.append(f"{schema['minLength']} to {schema['maxLength']} characters")
    elif "maxLength" in schema:
        parts.append(f"at most {schema['maxLength']} characters")
    pattern = str(schema.get("pattern", ""))
    if pattern.startswith("^") and pattern.endswith("$"):
        # a whole value's form (an entry id); an unanchored "contains a visible character"
        # is said by the description in words
        parts.append(f"matches `{pattern}`")
    if "default" in schema:
        parts.append(f"default {json.dumps(schema['default'])}")
    return "; ".join(parts)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> Markup:
    """The description's words with its Markdown code spans (`x`) shown as code, the rest
    escaped: the description is written for Markdown renderers, the page shows no backticks."""
    escaped = str(escape(text))
    return Markup(_CODE_SPAN.sub(r"<code>\1</code>", escaped))


def _without_codes(description: str) -> str:
    """An operation's description without its "Problem codes: …" paragraph (the page lists
    the codes themselves under the answers)."""
    if description.startswith("Problem codes:"):
        return ""
    return description.split("\n\nProblem codes:")[0]


def rows_of(schema: dict[str, Any], schemas: dict[str, Any]) -> list[Row]:
    """The fields of an object schema (followed through ``$ref``)."""
    if "$ref" in schema:
        schema = schemas.get(_ref_name(schema), {})
    required = set(schema.get("required", []))
    return [
        Row(name, kind_of(sub), name in required, _notes(sub))
        for name, sub in schema.get("properties", {}).items()
    ]


def _shown(path: str, method: str, op: dict[str, Any], doc: dict[str, Any]) -> Shown:
    schemas = doc["components"]["schemas"]
    shared = doc["components"]["responses"]
    body, body_rows, example = Markup(""), [], ""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content:
        body = kind_of(content["schema"])
        if "anyOf" not in content["schema"]:
            body_rows = rows_of(content["schema"], schemas)
        if "example" in content:
            example = json.dumps(content["example"], ensure_ascii=False, indent=2)
    answers: list[tuple[str, str, Markup, list[Row], str]] = []
    for status, answer in op["responses"].items():
        own = "$ref" not in answer  # not one of the problem answers every operation shares
        if not own:
            answer = shared[_ref_name(answer)]
        media = answer.get("content", {})
        json_content = media.get("application/json")
        kind = (
            kind_of(json_content["schema"])
            if json_content
            else escape(", ".join(media) or "no body")
        )
        answer_rows = (
            rows_of(json_content["schema"], schemas)
            if json_content and "$ref" in json_content["schema"] and not status.startswith("4")
            else []
        )
        shown = (
            json.dumps(json_content["example"], ensure_ascii=False, indent=2)
            if own and json_content and "example" in json_content and not status.startswith("4")
            else ""
        )
        answers.append((status, answer.get("description", ""), kind, answer_rows, shown))
    return Shown(
        anchor=op["operationId"],
        method=method.upper(),
        path=path,
        summary=op.get("summary", ""),
        description=_without_codes(op.get("description", "")),
        parameters=[
            Row(
                p["name"],
                Markup("{}: ").format(p["in"]) + kind_of(p["schema"]),
                bool(p.get("required")),
                p.get("description", ""),
            )
            for p in op.get("parameters", [])
        ],
        body=body,
        body_rows=body_rows,
        example=example,
        answers=answers,
        codes=op.get("x-problem-codes", []),
    )


@bp.get("/api-reference")
def reference() -> str:
    """Every operation of the description, grouped by its tag, with its fields, an example and
    the problem codes it may answer with; and every type the operations name."""
    doc = document()
    groups: dict[str, list[Shown]] = {t["name"]: [] for t in doc["tags"]}
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            groups.setdefault(op["tags"][0], []).append(_shown(path, method, op, doc))
    schemas = doc["components"]["schemas"]
    types = [
        (name, schema.get("description", ""), rows_of(schema, schemas))
        for name, schema in schemas.items()
    ]
    return render_template(
        "api/reference.html",
        info=doc["info"],
        tags=doc["tags"],
        groups=groups,
        types=types,
        code=code_spans,
        count=sum(len(ops) for ops in groups.values()),
    )
