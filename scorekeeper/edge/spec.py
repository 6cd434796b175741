"""The edge's types described: :class:`Spec` marks a field's bounds and words (in
``typing.Annotated``), and :func:`json_schema` writes any of the edge's types as JSON Schema
2020-12, the dialect of OpenAPI 3.1 (docs/api.md §3).

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Ask:
    ...     count: Annotated[int, Spec(minimum=1, maximum=6)]
    ...     note: str = ""
    >>> schemas: dict[str, Any] = {}
    >>> json_schema(Ask, schemas)
    {'$ref': '#/components/schemas/Ask'}
    >>> schemas["Ask"]["properties"]["count"], schemas["Ask"]["required"]
    ({'type': 'integer', 'minimum': 1, 'maximum': 6}, ['count'])

Pure Python (the standard library's ``typing`` and ``dataclasses``): the phone's engine loads
the edge too.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

import dataclasses
import sys
import types
import typing
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

__all__ = [
    "CARDS",
    "CARD",
    "CARD_LISTS",
    "Spec",
    "field_spec",
    "is_strict",
    "json_schema",
    "strict",
]


@dataclass(frozen=True)
class Spec:
    """What a type alone does not say: the bounds the readers hold a value to, its words, an
    example, and (``kind``) a named value of its own such as cards."""

    description: str = ""
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    max_length: int | None = None
    #: the fewest characters a text takes (a name: after its spaces are tidied)
    min_length: int | None = None
    #: a name: spaces tidied, no control characters, at least one letter or digit that shows
    #: (``name.invalid``, ``name.not_visible``) rather than ``request.text_too_long``
    visible: bool = False
    pattern: str | None = None
    examples: tuple[Any, ...] = ()
    kind: str = ""
    #: required although the dataclass gives it a default (a field after the defaults of the
    #: fields every question shares)
    required: bool = False
    #: null is taken too (read as the default)
    nullable: bool = False
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


#: cards in the notation of docs/api.md §2: one text, or a list of single cards
CARDS = Spec(kind="cards", nullable=True)
#: exactly one card (docs/api.md §2)
CARD = Spec(kind="card", nullable=True)
#: groups of cards (melds), each as ``cards``
CARD_LISTS = Spec(kind="card_lists", max_items=30, nullable=True)

_CARDS_SCHEMA: dict[str, Any] = {
    "description": "Cards in the notation of docs/api.md §2: one text (`K K 2`, `KK2`, "
    "`D D B` in German) or a list of single cards.",
    "anyOf": [
        {"type": "string", "maxLength": 2000},
        {"type": "array", "items": {"type": ["string", "integer"]}, "maxItems": 200},
    ],
    "examples": ["K K K 2", ["A", "A", "X"]],
}
_CARD_SCHEMA: dict[str, Any] = {
    "description": "One card in the notation of docs/api.md §2 (`K`, `3h`, `X`).",
    "type": ["string", "integer"],
    "examples": ["K", "3h"],
}

#: the classes whose objects take no keys but their own (``request.unknown_key``)
_STRICT: set[type] = set()


def strict(cls: type) -> type:
    """Mark a dataclass whose JSON objects the readers refuse any other key of."""
    _STRICT.add(cls)
    return cls


def is_strict(cls: type) -> bool:
    """Whether the readers refuse keys of a dataclass's objects that are not its own."""
    return cls in _STRICT


def _is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _apply(schema: dict[str, Any], spec: Spec) -> dict[str, Any]:
    """``schema`` with the spec's marks; a named kind (cards) replaces the Python type's schema
    by the JSON the readers take for it (the type is the value read, in the engine's terms)."""
    nullable = schema.get("type") == "null"
    if spec.kind == "cards":
        schema = dict(_CARDS_SCHEMA)
    elif spec.kind == "card":
        schema = dict(_CARD_SCHEMA)
    elif spec.kind == "card_lists":
        schema = {
            "description": "Groups of cards (melds), each as cards in the notation of "
            "docs/api.md §2.",
            "type": "array",
            "items": {k: v for k, v in _CARDS_SCHEMA.items() if k != "examples"},
            "examples": [["K K K", "A A 2"]],
        }
    if (spec.kind and nullable) or spec.nullable:
        schema = _nullable(schema)
    if spec.description:
        schema["description"] = spec.description
    for key, value in (
        ("minimum", spec.minimum),
        ("maximum", spec.maximum),
        ("minItems", spec.min_items),
        ("maxItems", spec.max_items),
        ("maxLength", spec.max_length),
        ("minLength", spec.min_length),
        ("pattern", spec.pattern),
    ):
        if value is not None:
            schema[key] = value
    if spec.examples:
        schema["examples"] = list(spec.examples)
    schema.update(spec.extra)
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str) and set(schema) <= {"type", "description", "examples"}:
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def json_schema(tp: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    """``tp`` (a type of the edge) as JSON Schema; each dataclass lands once in ``schemas``
    under its name and is referred to from there."""
    origin = get_origin(tp)
    if origin is Annotated:
        base, *marks = get_args(tp)
        if any(isinstance(m, Spec) and m.kind for m in marks):
            # a named kind: the JSON it is read from, not the engine's value it is read into
            options = get_args(base) if get_origin(base) in (Union, types.UnionType) else ()
            schema: dict[str, Any] = {"type": "null"} if type(None) in options else {}
        else:
            schema = json_schema(base, schemas)
        for mark in marks:
            if isinstance(mark, Spec):
                if "$ref" in schema and (mark.description or mark.examples):
                    schema = {"allOf": [schema]}
                schema = _apply(schema, mark)
        return schema
    if tp is Any or tp is object:
        return {}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if origin is Literal:
        values = list(get_args(tp))
        return {"enum": values}
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        rest = [o for o in options if o is not type(None)]
        inner = (
            json_schema(rest[0], schemas)
            if len(rest) == 1
            else {"anyOf": [json_schema(o, schemas) for o in rest]}
        )
        return _nullable(inner) if len(rest) < len(options) else inner
    if (
        origin in (list, tuple, typing.Sequence, set, frozenset)
        or origin is not None
        and (getattr(origin, "__name__", "") == "Sequence")
    ):
        args = get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return {
                "type": "array",
                "prefixItems": [json_schema(a, schemas) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        return {"type": "array", "items": json_schema(args[0], schemas) if args else {}}
    if origin is dict or (origin is not None and getattr(origin, "__name__", "") == "Mapping"):
        args = get_args(tp)
        return {"type": "object", "additionalProperties": json_schema(args[1], schemas)}
    if _is_dataclass_type(tp):
        name = tp.__name__
        if name not in schemas:
            schemas[name] = {}  # taken: a type that refers to itself ends here
            schemas[name] = _object(tp, schemas)
        return {"$ref": f"#/components/schemas/{name}"}
    raise TypeError(f"no JSON Schema for {tp!r}")


def _object(cls: type, schemas: dict[str, Any]) -> dict[str, Any]:
    module = sys.modules[cls.__module__]
    hints = get_type_hints(cls, globalns=vars(module), include_extras=True)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("skip"):
            continue
        name = f.metadata.get("name", f.name)
        schema = json_schema(hints[f.name], schemas)
        spec = field_spec(hints[f.name])
        needed = spec is not None and spec.required
        if f.default is not dataclasses.MISSING and _plain(f.default) and not needed:
            if "$ref" in schema:
                schema = {"allOf": [schema]}
            schema["default"] = f.default
        if (
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ) or needed:
            required.append(name)
        # the field's own words and bounds, as JSON Schema keywords (the stored-game format's
        # dataclasses say them so: edge/stored_format.py)
        words = {k: v for k, v in f.metadata.items() if k not in ("skip", "name")}
        if words:
            if "$ref" in schema:
                schema = {"allOf": [schema]}
            schema.update(words)
        properties[name] = schema
    out: dict[str, Any] = {"type": "object"}
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(cls.__name__ + "("):
        out["description"] = " ".join(doc.split())
    out["properties"] = properties
    if required:
        out["required"] = required
    if cls in _STRICT:
        out["additionalProperties"] = False
    # what the fields alone cannot say: which of them a request needs, by the others' values
    out.update(getattr(cls, "SCHEMA_EXTRA", {}))
    example = getattr(cls, "EXAMPLE", None)
    if example is not None:
        out["examples"] = [example]
    return out


def field_spec(tp: Any) -> Spec | None:
    """The :class:`Spec` a field's type is annotated with (the last one), if any."""
    if get_origin(tp) is Annotated:
        marks = [m for m in get_args(tp)[1:] if isinstance(m, Spec)]
        return marks[-1] if marks else None
    return None


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | str | float)
