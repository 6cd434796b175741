"""Every JSON answer of the API tests checked against the OpenAPI description
(``GET /api/v1/openapi.json``, docs/api.md §3): the answer's status must be one its operation
describes, and its body must validate against that status's schema (JSON Schema 2020-12, by
``jsonschema``)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from flask import Flask
from jsonschema import Draft202012Validator
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse

from scorekeeper.edge.openapi import OPERATIONS
from scorekeeper.web.api.openapi import document as description

#: answers checked so far in this test run, by "METHOD path" of the description
CHECKED: dict[str, int] = {}


@lru_cache(maxsize=1)
def _by_endpoint() -> dict[str, tuple[str, str]]:
    return {op.endpoint: (op.method, op.path) for op in OPERATIONS}


@lru_cache(maxsize=256)
def validator(method: str, path: str, status: str) -> Draft202012Validator | None:
    """The validator of one answer (None: the answer is not JSON)."""
    doc = description()
    answer = doc["paths"][path][method]["responses"][status]
    if "$ref" in answer:
        answer = doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[-1]]
    content = answer.get("content", {}).get("application/json")
    if content is None:
        return None
    # the operation's schema, with the components its $refs point into
    return Draft202012Validator({**content["schema"], "components": doc["components"]})


def check_answer(app: Flask, response: TestResponse) -> None:
    """Fail unless ``response`` (to a request under /api/v1) is one its operation describes."""
    request = response.request
    if not request.path.startswith("/api/v1/"):
        return
    adapter = app.url_map.bind("localhost")
    try:
        endpoint, _args = adapter.match(request.path, request.method)
    except HTTPException:
        return  # no operation: the blueprint's 404 or 405 answer
    if request.method == "HEAD":
        return
    found = _by_endpoint().get(str(endpoint))
    assert found is not None, f"{request.method} {request.path}: no operation in the description"
    method, path = found
    status = str(response.status_code)
    responses = description()["paths"][path][method]["responses"]
    assert status in responses, (
        f"{method.upper()} {path} answered {status}, which the description does not list "
        f"({', '.join(responses)})"
    )
    check = validator(method, path, status)
    if check is None or response.mimetype != "application/json":
        return
    body: Any = json.loads(response.get_data())
    errors = sorted(check.iter_errors(body), key=lambda e: list(e.absolute_path))
    assert not errors, (
        f"{method.upper()} {path} {status}: the answer breaks the description: "
        + "; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:5])
    )
    key = f"{method.upper()} {path}"
    CHECKED[key] = CHECKED.get(key, 0) + 1
