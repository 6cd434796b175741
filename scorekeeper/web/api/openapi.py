"""The API described: ``GET /api/v1/openapi.json`` (the OpenAPI 3.1 description made from the
edge's types, :mod:`scorekeeper.edge.openapi`) and ``GET /api-reference``, the same description
as a page to read (outside ``/api/``, where every answer is JSON), rendered here by our own
template: no script, nothing from another origin."""

from __future__ import annotations

import json
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
    answers: list[tuple[str, str, Markup, list[Row]]]  # status, words, type, fields
    codes: list[str]


def _ref_name(schema: dict[str, Any]) -> str:
    return str(schema["$ref"]).rsplit("/", 1)[-1]


def kind_of(schema: dict[str, Any]) -> Markup:
    """A schema in a few words, each named type a link to its entry on the page: ``integer``,
    ``list of Side``, ``Quick or null`` … (escaped: enum values are shown as JSON)."""
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
        return Markup("list of ") + kind_of(schema.get("items", {}))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return Markup("object of ") + kind_of(schema["additionalProperties"])
    return escape(str(kind or "any JSON"))


def _notes(schema: dict[str, Any]) -> str:
    parts = []
    if schema.get("description"):
        parts.append(str(schema["description"]))
    if "minimum" in schema or "maximum" in schema:
        parts.append(f"{schema.get('minimum', '…')} to {schema.get('maximum', '…')}")
    if "maxItems" in schema:
        parts.append(f"at most {schema['maxItems']} entries")
    if "maxLength" in schema:
        parts.append(f"at most {schema['maxLength']} characters")
    if "default" in schema:
        parts.append(f"default {json.dumps(schema['default'])}")
    return "; ".join(parts)


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
    answers: list[tuple[str, str, Markup, list[Row]]] = []
    for status, answer in op["responses"].items():
        if "$ref" in answer:
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
        answers.append((status, answer.get("description", ""), kind, answer_rows))
    return Shown(
        anchor=op["operationId"],
        method=method.upper(),
        path=path,
        summary=op.get("summary", ""),
        description=op.get("description", "").split("\n\nProblem codes:")[0],
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
        count=sum(len(ops) for ops in groups.values()),
    )
