"""The OpenAPI description (``GET /api/v1/openapi.json``, docs/api.md §3): a valid OpenAPI 3.1
document, made from the edge's types, that lists every operation the app answers under
``/api/v1``; and the reference page made from it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from scorekeeper.edge import openapi
from scorekeeper.edge import requests as rq
from scorekeeper.edge.openapi import OPERATIONS, codes_of
from scorekeeper.edge.spec import Spec, json_schema
from scorekeeper.stateless.messages import MESSAGES
from scorekeeper.web.api.openapi import document as description


def _flask_operations(app: Flask) -> set[tuple[str, str, str]]:
    """(method, path in OpenAPI's spelling, endpoint) of every /api/v1 route."""
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                found.add((method.lower(), path, rule.endpoint))
    return found


def test_the_description_is_valid_openapi_3_1(client: FlaskClient) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    doc = json.loads(response.get_data())
    assert doc["openapi"] == "3.1.0"
    validate(doc)  # openapi-spec-validator: the document and every schema in it
    for name, schema in doc["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema), name


def test_every_route_under_api_v1_is_described_and_nothing_else(app: Flask) -> None:
    routes = _flask_operations(app)
    described = {(op.method, op.path, op.endpoint) for op in OPERATIONS}
    assert routes - described == set(), "routes missing from the description"
    assert described - routes == set(), "described operations no route answers"
    paths = description()["paths"]
    assert sum(len(methods) for methods in paths.values()) == len(routes) == 49


def test_the_check_fails_for_a_route_left_out(app: Flask) -> None:
    """A new route under /api/v1 that the description lacks is found by the test above."""
    app.add_url_rule("/api/v1/extra", "extra", lambda: "")
    missing = _flask_operations(app) - {(op.method, op.path, op.endpoint) for op in OPERATIONS}
    assert missing == {("get", "/api/v1/extra", "extra")}


def test_every_request_body_and_answer_has_a_schema_and_the_bodies_an_example() -> None:
    doc = description()
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None and op["operationId"] not in (
                "parts_api_delete",
                "games_api_delete_hand",
                "games_api_undo_delete",
                "tables_api_rename",
                "tables_api_merge",
                "tournaments_api_set_seating",
                "tournaments_api_swap",
                "tournaments_api_set_absent",
            ):
                assert "example" in body, f"{method} {path}: no example"
            for status, answer in op["responses"].items():
                assert "$ref" in answer or "description" in answer, (method, path, status)
            assert op["x-problem-codes"], (method, path)
            assert all(code in MESSAGES for code in op["x-problem-codes"])


def test_the_examples_validate_against_their_schemas() -> None:
    doc = description()
    checked = 0
    for methods in doc["paths"].values():
        for op in methods.values():
            parts = [op.get("requestBody", {}).get("content", {}).get("application/json")]
            parts += [
                a.get("content", {}).get("application/json") for a in op["responses"].values()
            ]
            for content in parts:
                if content and "example" in content:
                    schema = {**content["schema"], "components": doc["components"]}
                    Draft202012Validator(schema).validate(content["example"])
                    checked += 1
    assert checked >= 20


def test_the_examples_are_answered_as_described(client: FlaskClient) -> None:
    """Each stateless operation's example request, sent as it stands, is answered 200 (the
    answer is checked against the description by the API tests' hook)."""
    for op in OPERATIONS:
        if op.endpoint.startswith("api.") and op.request is not None:
            example = next(t.EXAMPLE for t in getattr(op.request, "__args__", (op.request,)))
            response = client.post(op.path, json=example)
            assert response.status_code == 200, (op.path, response.get_json())


def test_problem_codes_come_from_the_catalogue_by_family() -> None:
    codes = codes_of(("meld",), tuple(MESSAGES))
    assert "meld.too_small" in codes and "request.missing" in codes
    assert "going_out.not_enough_canastas" not in codes


def test_a_field_spec_becomes_bounds_in_the_schema() -> None:
    @dataclass
    class Asked:
        count: Annotated[int, Spec(minimum=1, maximum=6, description="How many.")]
        cards: rq.Cards = ""
        maybe: bool | None = None

    schemas: dict[str, Any] = {}
    assert json_schema(Asked, schemas) == {"$ref": "#/components/schemas/Asked"}
    shape = schemas["Asked"]
    assert shape["required"] == ["count"]
    assert shape["properties"]["count"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 6,
        "description": "How many.",
    }
    assert shape["properties"]["maybe"] == {"type": ["boolean", "null"], "default": None}
    cards, null = shape["properties"]["cards"]["anyOf"]  # cards, or null for none
    assert {"type": "string", "maxLength": 2000} in cards["anyOf"] and null == {"type": "null"}


def test_the_side_schema_refuses_what_the_reader_refuses() -> None:
    """The side of a hand takes no unknown key and holds the reader's bounds (docs/api.md §3
    "Adjustments": at most 5, points within ±10,000, a note of at most 80 characters)."""
    doc = description()
    side = {"$ref": "#/components/schemas/Side", "components": doc["components"]}
    check = Draft202012Validator(side)
    assert check.is_valid({"total": 120, "adjustments": [{"points": -100, "note": "late"}]})
    assert not check.is_valid({"totl": 120})
    assert not check.is_valid({"adjustments": [{"points": 10_001}]})
    assert not check.is_valid({"adjustments": [{"points": 1, "note": "x" * 81}]})
    assert not check.is_valid({"adjustments": [{"points": 1}] * 6})


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_reference_page_lists_every_operation(client: FlaskClient, lang: str) -> None:
    response = client.get("/api-reference", headers={"Accept-Language": lang})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for op in OPERATIONS:
        assert f'id="{op.endpoint.replace(".", "_")}"' in page
    assert "/api/v1/openapi.json" in page
    assert "<script" not in page.split("</head>", 1)[1]  # nothing runs on the page itself
    assert "Side" in page and "request.unknown_key" in page


def test_the_reference_page_links_each_type_and_escapes_what_it_shows(client: FlaskClient) -> None:
    page = client.get("/api-reference").get_data(as_text=True)
    assert '<a href="#type-Side">Side</a>' in page and 'id="type-Side"' in page
    # every type named on the page has its entry
    for name in set(re.findall(r'href="#type-([A-Za-z]+)"', page)):
        assert f'id="type-{name}"' in page, name
    assert '"deal" | "refill"' not in page and "&#34;deal&#34; | &#34;refill&#34;" in page


def test_a_row_takes_its_parameters_tag_and_media_from_its_path() -> None:
    """Adding an operation is one row of OPERATIONS: what its path says is not written again."""
    row = openapi.op(
        "PUT /api/v1/games/{key}/hands/{number}", "x.y", "Correct", None, {}, (404,), ("game",)
    )
    assert (row.method, row.tag, row.media) == ("put", "games", "application/json")
    assert [(p.name, p.where, p.schema.get("type")) for p in row.parameters] == [
        ("key", "path", "string"),
        ("number", "path", "string"),
    ]
    assert openapi.op("GET /api/v1/games/{key}/parts", "x.y", "", None, {}, (), ()).tag == "parts"
    events = openapi.op("GET /api/v1/tables/{key}/events", "x.y", "", None, {}, (), ())
    assert (events.tag, events.media) == ("live", "text/event-stream")
    assert openapi.op("GET /api/v1/openapi.json", "x.y", "", None, {}, (), ()).tag == "reference"
    # a parameter the table does not know is an error at import, not a silent gap
    with pytest.raises(KeyError):
        openapi.op("GET /api/v1/games/{key}/sides/{who}", "x.y", "", None, {}, (), ())


def test_the_reference_page_shows_an_answer_s_example(client: FlaskClient) -> None:
    """The table's export answers a file of the stored-game format (docs/stored-format.md):
    its example is on the page, under the answer, escaped; the shared problem answers show
    none."""
    page = client.get("/api-reference").get_data(as_text=True)
    export = page.split('id="tables_api_export"', 1)[1].split("</article>", 1)[0]
    assert '<a href="#type-TableFile">TableFile</a>' in export
    assert "&#34;format&#34;: &#34;scorekeeper-table&#34;" in export
    assert export.count('class="api-example"') == 1
