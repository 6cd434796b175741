"""The edge's reader: loose JSON values (whatever ``json.loads`` produced) read into the typed
values the engine and the store take, with every problem as data (today's codes, ``where``
paths), never an exception.

- :func:`read_into` reads any dataclass of :mod:`.requests` by its type hints and the
  :class:`~.spec.Spec` each field is annotated with, the same types the OpenAPI description is
  written from; :class:`Reader` collects the problems, and its methods read the values every
  reader shares (numbers, yes or no, cards, lists); :func:`name_text` reads a name.
- A hand's side (:func:`read_side`, :func:`read_sides`, and :func:`side_json`, the side written
  back as it is stored), read by hand: every entry of a hand reads it, the score question, a
  save, a side's part, an imported file.

The stateless questions (``POST /api/v1/score``, ``/api/v1/referee/…``) are read by
:mod:`.stateless`, with these.

>>> r = Reader()
>>> [c.rank for c in r.cards("K K 2", "cards")], name_text(r, "  Anna  ", "name")
(['K', 'K', '2'], 'Anna')
"""

from __future__ import annotations

import sys
import types
import unicodedata
from collections import Counter
from dataclasses import MISSING, dataclass, fields, is_dataclass, replace
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from ..rules.cards import Card, parse_cards
from ..rules.problems import Problem
from ..rules.scoring import (
    MAX_ADJUSTMENT_NOTE,
    MAX_ADJUSTMENTS,
    SPECIAL_QUICK_FIELDS,
    Adjustment,
    QuickEntry,
    Rejected,
    SideEntry,
)
from . import requests as rq
from .spec import Spec, field_spec, is_strict

MAX_CARDS = 200


def whole(value: Any) -> Any:
    """A number JSON wrote with a point (``6.0``) as the integer it is (JSON Schema counts it an
    integer too); any other value as it is."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


#: the most of one rank the largest decks hold (three packs, docs/rulebook.md §1)
LARGEST = {"X": 6, "3r": 6, "3b": 6}
MAX_MELDS = 30
MAX_SIDES = 6
MAX_SCORE = 10**7


def _spec_bounds(cls: type) -> dict[str, tuple[int, int]]:
    """Each bounded field of a request class: its (minimum, maximum) as its Spec states them,
    read from the fields' annotations at every start. .requests is written without ``from
    __future__ import annotations``, so they are the objects themselves; an annotation written
    as text is evaluated in its module's names, as ``typing.get_type_hints`` would, without its
    ``ForwardRef`` for every annotation, the class variables' too (docs/measurements.md,
    "Third round")."""
    names = vars(sys.modules[cls.__module__])
    out = {}
    for f in fields(cls):
        spec = field_spec(eval(f.type, names) if isinstance(f.type, str) else f.type)
        if spec is not None and spec.minimum is not None and spec.maximum is not None:
            out[f.name] = (spec.minimum, spec.maximum)
    return out


# A side of a hand is described and read by the same classes of .requests: its keys (any other
# is refused with ``request.unknown_key`` naming it, so nothing unread is ever stored) and its
# numbers' bounds are the ones the OpenAPI description states.
#: The keys a side of a score request may have (docs/api.md §3).
SIDE_KEYS: frozenset[str] = frozenset(f.name for f in fields(rq.Side))
#: The keys a side given as its total may have besides it: the rest of a side describes the
#: hand the total already counts.
TOTAL_SIDE_KEYS: frozenset[str] = frozenset({"total", "went_out", "concealed", "adjustments"})
#: The keys of one of a side's ``adjustments``.
ADJUSTMENT_KEYS: frozenset[str] = frozenset(f.name for f in fields(rq.Adjustment))
#: The keys of a side's ``quick`` entry (with the special canastas and penalties of
#: docs/rulebook.md §6, :data:`~.scoring.SPECIAL_QUICK_FIELDS`).
QUICK_KEYS: frozenset[str] = frozenset(f.name for f in fields(rq.Quick))
SIDE_BOUNDS = _spec_bounds(rq.Side)
QUICK_BOUNDS = _spec_bounds(rq.Quick)
ADJUSTMENT_BOUNDS = _spec_bounds(rq.Adjustment)
#: At most this many unknown keys are named per object (the rest are not listed).
UNKNOWN_KEYS_NAMED = 5


class Reader:
    """Collects problems while reading typed values out of a JSON object."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, code: str, where: str, **params: Any) -> None:
        self.problems.append(Problem(code, where, params))

    def obj(self, value: Any, where: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.fail("request.type", where, expected="object")
            return None
        return value

    def integer(
        self,
        data: dict[str, Any],
        key: str,
        where: str,
        default: int | None = 0,
        low: int = 0,
        high: int = MAX_SCORE,
    ) -> int:
        value = whole(data.get(key, default))
        if value is None and default is None:
            self.fail("request.missing", where)
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail("request.type", where, expected="integer")
            return 0
        if not low <= value <= high:
            self.fail("request.value", where, minimum=low, maximum=high)
            return 0
        return value

    def boolean(self, data: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
        value = data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail("request.type", where, expected="boolean")
            return default
        return value

    def cards(self, value: Any, where: str, allow_string: bool = True) -> list[Card]:
        if value is None:
            return []
        if isinstance(value, list) and len(value) > MAX_CARDS:
            self.fail("request.too_large", where, limit=MAX_CARDS)
            return []
        if not isinstance(value, list) and not (allow_string and isinstance(value, str)):
            self.fail("request.type", where, expected="cards")
            return []
        cards, problems = parse_cards(value, where)
        self.problems.extend(problems)
        if len(cards) > MAX_CARDS:
            # a text of the allowed length (or entries of several cards each): more cards than
            # any decks hold (docs/rulebook.md §1), so some rank is seen too often
            rank, count = Counter(card.rank for card in cards).most_common(1)[0]
            self.fail("card.too_many", where, rank=rank, count=count, maximum=LARGEST.get(rank, 12))
            return []
        return cards

    def card(self, value: Any, where: str) -> Card | None:
        if value is None:
            return None
        if not isinstance(value, str | int) or isinstance(value, bool):
            self.fail("request.type", where, expected="card")
            return None
        cards, problems = parse_cards(str(value), where)
        self.problems.extend(problems)
        if problems:
            return None
        if len(cards) != 1:
            self.fail("card.unknown", where, token=str(value)[:20])
            return None
        return cards[0]

    def items(self, value: Any, where: str, limit: int, expected: str = "list") -> list[Any]:
        """A JSON list of at most ``limit`` entries (missing: empty); else a problem and []."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail("request.type", where, expected=expected)
            return []
        if len(value) > limit:
            self.fail("request.too_large", where, limit=limit)
            return []
        return value

    def card_lists(
        self, value: Any, where: str, limit: int = MAX_MELDS, nulls: bool = False
    ) -> list[list[Card]]:
        """Groups of cards; a null group is refused (a meld of nothing means nothing) unless
        ``nulls`` (a player's hand: null is an empty hand)."""
        lists = self.items(value, where, limit, expected="list of card lists")
        read: list[list[Card]] = []
        for i, v in enumerate(lists):
            if v is None and not nulls:
                self.fail("request.type", f"{where}[{i}]", expected="cards")
                continue
            read.append(self.cards(v, f"{where}[{i}]"))
        return read

    def known_keys(self, data: dict[str, Any], allowed: frozenset[str], where: str) -> None:
        """Refuse every key of ``data`` that is not ``allowed``, naming it."""
        unknown = [k for k in data if k not in allowed]
        for key in unknown[:UNKNOWN_KEYS_NAMED]:
            name = str(key)[:40]
            self.fail("request.unknown_key", f"{where}.{name}" if where else name, key=name)

    def rejected(self) -> Rejected:
        """The problems found so far, as the answer."""
        return Rejected(tuple(self.problems))


#: what :func:`read_into` fills
Read = TypeVar("Read")

_NONE = type(None)
#: letters that show nothing (Hangul fillers): a name of these alone looks empty
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
#: characters no name may hold: controls, formats (bidi overrides), surrogates, private use
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co"))


def visible(text: str) -> bool:
    """Whether ``text`` has a letter or digit that shows (not only accents, spaces or blank
    letters)."""
    return any(unicodedata.category(ch)[0] in "LN" and ch not in BLANK_LETTERS for ch in text)


def name_text(reader: Reader, value: Any, where: str, maximum: int = 40, minimum: int = 1) -> str:
    """A name (of a player, a side, a game): its spaces tidied, ``minimum`` to ``maximum``
    characters, no control characters, something that shows; else a problem and ``""``."""
    if not isinstance(value, str):
        reader.fail("request.type", where, expected="string")
        return ""
    text = " ".join(value.split())
    if not minimum <= len(text) <= maximum or any(
        unicodedata.category(ch) in _HIDDEN for ch in text
    ):
        reader.fail("name.invalid", where, maximum=maximum)
        return ""
    if not visible(text):
        reader.fail("name.not_visible", where)
        return ""
    return text


def read_into(
    cls: type[Read],
    data: dict[str, Any],
    reader: Reader,
    skip: frozenset[str] = frozenset(),
    where: str = "",
) -> Read:
    """A request's fields read into ``cls`` (a dataclass of :mod:`.requests`), in the order it
    declares them, each by its type hint and the :class:`~.spec.Spec` it is annotated with: the
    bounds the OpenAPI description states are the ones read here. Problems go to ``reader``
    (today's codes: ``request.missing``, ``request.type``, ``request.value``,
    ``request.too_large``, ``request.text_too_long``, ``request.unknown_key``, ``name.*``,
    ``card.*``), worded as :class:`Reader`'s own methods word them, each at its path from
    ``where`` (``sides[0].players[1]``). A field that cannot be read takes its default (or an
    empty value), so the caller reads on and reports every problem at once.

    What each type reads (docs/api.md §3):

    - ``bool``, ``int`` (within the Spec's minimum and maximum, else 0 to 10,000,000), ``str``
      (at most ``max_length`` characters once trimmed; a ``visible`` Spec: a name, see
      :func:`name_text`), ``Literal`` (one of its values), ``X | None`` (null or left out: the
      default), other unions (the member the JSON value's type fits), ``list[X]`` (within
      ``min_items`` and ``max_items``, each item read as ``X``), a nested dataclass (an object;
      a :func:`~.spec.strict` one refuses keys of its own), ``dict`` and ``Any`` (kept as sent,
      checked by who takes them);
    - a Spec's ``kind``: ``cards``, ``card`` and ``card_lists`` read into the engine's cards.

    ``skip``: the fields read (and checked) elsewhere, such as the ruleset, kept as sent.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Ask:
    ...     count: Annotated[int, Spec(minimum=1, maximum=6)]
    ...     names: list[str] | None = None
    >>> r = Reader()
    >>> read_into(Ask, {"count": 7, "names": ["a", 1]}, r)
    Ask(count=0, names=['a', ''])
    >>> [(p.code, p.where) for p in r.problems]
    [('request.value', 'count'), ('request.type', 'names[1]')]
    """
    values: dict[str, Any] = {}
    for f in _plan(cls):  # type: ignore[arg-type]
        if f.name in skip:
            values[f.name] = data.get(f.key)  # read, and checked, by the caller
            continue
        path = f"{where}.{f.key}" if where else f.key
        values[f.name] = _field(f, data, path, reader)
    return cls(**values)


@dataclass(frozen=True)
class _Field:
    """One field of a request class as the reader reads it."""

    name: str  # the attribute
    key: str  # the JSON key
    tp: Any  # the type under its marks
    spec: Spec  # its marks, merged
    default: Any  # MISSING: none (the field must be given)
    factory: Any  # MISSING, or what makes the default


@lru_cache(maxsize=256)
def _plan(cls: type) -> tuple[_Field, ...]:
    """A request class's fields with their types and Specs, worked out once per class."""
    hints = _hints(cls)
    out = []
    for f in fields(cls):
        tp, spec = _unwrap(hints[f.name])
        out.append(
            _Field(f.name, f.metadata.get("name", f.name), tp, spec, f.default, f.default_factory)
        )
    return tuple(out)


def _default(f: _Field) -> Any:
    if f.factory is not MISSING:
        return f.factory()
    return None if f.default is MISSING else f.default


def _field(f: _Field, data: dict[str, Any], where: str, reader: Reader) -> Any:
    tp, spec = f.tp, f.spec
    raw = data.get(f.key)
    if spec.kind == "cards":
        cards = reader.cards(raw, where)
        if spec.required and f.key not in data:
            reader.fail("request.missing", where)
        return cards
    if spec.kind or tp is int or tp is bool:
        # one card, groups of cards, a number, a yes or no: as the Reader's own methods read
        # them (a number's null where it has a default is a wrong type; missing, it is missing)
        return _value(tp, spec, raw, where, reader, _default(f), f.key in data)
    if raw is None:
        if f.default is MISSING and f.factory is MISSING or spec.required:
            reader.fail("request.missing", where)
            return _empty(tp, spec)
        return _default(f)
    return _value(tp, spec, raw, where, reader, _default(f), True)


def _value(
    tp: Any, spec: Spec, raw: Any, where: str, reader: Reader, default: Any, given: bool
) -> Any:
    """``raw`` (given, or left out: ``given``) read as ``tp``; ``default``: what a value left
    out (or null, where null is taken) reads as."""
    if spec.kind == "cards":
        return reader.cards(raw, where)
    if spec.kind == "card":
        return reader.card(raw, where)
    if spec.kind == "card_lists":
        return reader.card_lists(raw, where, spec.max_items or MAX_MELDS)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if raw is None and _NONE in options:
            return default
        for option in options:
            if option is not _NONE and _fits(option, raw):
                inner, inner_spec = _unwrap(option)
                return _value(inner, _merged(spec, inner_spec), raw, where, reader, default, given)
        reader.fail("request.type", where, expected=_expected(options[0]))
        return default
    if tp is bool:
        if raw is None:
            return bool(default)
        if not isinstance(raw, bool):
            reader.fail("request.type", where, expected="boolean")
            return bool(default)
        return raw
    if tp is int:
        value = whole(raw if given else default)
        if value is None:
            if default is None:
                reader.fail("request.missing", where)
                return 0
            value = raw
        if isinstance(value, bool) or not isinstance(value, int):
            reader.fail("request.type", where, expected="integer")
            return 0
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else MAX_SCORE
        if not low <= value <= high:
            reader.fail("request.value", where, minimum=low, maximum=high)
            return 0
        return value
    if tp is str:
        if spec.visible:
            return name_text(reader, raw, where, spec.max_length or 40, spec.min_length or 1)
        if not isinstance(raw, str):
            reader.fail("request.type", where, expected="string")
            return ""
        if spec.max_length is None:
            return raw
        text = raw.strip()
        if len(text) > spec.max_length:
            reader.fail("request.text_too_long", where, maximum=spec.max_length)
            return ""
        return text
    if origin is Literal:
        allowed = get_args(tp)
        if raw in allowed and type(raw) in {type(a) for a in allowed}:
            return raw
        reader.fail("request.value", where, allowed=list(allowed))
        return default if default in allowed else allowed[0]
    if origin is list:
        return _items(get_args(tp)[0], spec, raw, where, reader)
    if tp is Any or origin is dict or tp is dict:
        return raw  # kept as sent: read by who takes it (house rules, a stored game)
    if isinstance(tp, type) and is_dataclass(tp):
        obj = reader.obj(raw, where)
        if obj is None:
            return None
        if is_strict(tp):
            reader.known_keys(obj, _keys(tp), where)
        return read_into(tp, obj, reader, where=where)
    raise TypeError(f"{where}: no reader for {tp!r}")


def _items(tp: Any, spec: Spec, raw: Any, where: str, reader: Reader) -> list[Any]:
    """A JSON list within the Spec's ``min_items`` and ``max_items``, each item read as
    ``tp`` at ``where[i]`` (a null item is a wrong type unless ``tp`` takes null)."""
    if not isinstance(raw, list):
        reader.fail("request.type", where, expected="list")
        return []
    if spec.max_items is not None and len(raw) > spec.max_items:
        reader.fail("request.too_large", where, limit=spec.max_items)
        return []
    if spec.min_items is not None and len(raw) < spec.min_items:
        reader.fail("request.value", where, minimum=spec.min_items, maximum=spec.max_items)
        return []
    inner, inner_spec = _unwrap(tp)
    out = []
    for i, item in enumerate(raw):
        w = f"{where}[{i}]"
        if item is None and not inner_spec.kind and not _takes_null(inner):
            reader.fail("request.type", w, expected=_expected(inner))
            out.append(_empty(inner, inner_spec))
            continue
        out.append(_value(inner, inner_spec, item, w, reader, _empty(inner, inner_spec), True))
    return out


#: each marked type met, by identity (a Spec's examples may hold dicts, so the types are not
#: all hashable): the type itself (kept, so its id stays its own), its base and merged Spec
_UNWRAPPED: dict[int, tuple[Any, Any, Spec]] = {}


def _unwrap(tp: Any) -> tuple[Any, Spec]:
    """A type without its ``Annotated`` marks, and its Specs merged (the outer one last)."""
    if get_origin(tp) is not Annotated:
        return tp, _PLAIN
    known = _UNWRAPPED.get(id(tp))
    if known is not None and known[0] is tp:
        return known[1], known[2]
    base, *marks = get_args(tp)
    spec = _PLAIN
    for mark in marks:
        if isinstance(mark, Spec):
            spec = _merged(spec, mark)
    if len(_UNWRAPPED) < 4096:  # the request classes' types, a few hundred
        _UNWRAPPED[id(tp)] = (tp, base, spec)
    return base, spec


_PLAIN = Spec()
_SPEC_FIELDS = tuple(f.name for f in fields(Spec) if f.name != "extra")


def _merged(first: Spec, then: Spec) -> Spec:
    """``first`` with what ``then`` says over it (a field's own marks over its alias's)."""
    if first is _PLAIN:
        return then
    if then is _PLAIN:
        return first
    changes = {
        name: getattr(then, name)
        for name in _SPEC_FIELDS
        if getattr(then, name) != getattr(_PLAIN, name)
    }
    return replace(first, **changes)


def _fits(tp: Any, raw: Any) -> bool:
    """Whether a JSON value is of the kind ``tp`` reads (the member of a union it takes)."""
    tp, spec = _unwrap(tp)
    if spec.kind in ("cards", "card"):
        return isinstance(raw, str | list | int) and not isinstance(raw, bool)
    origin = get_origin(tp)
    if tp is Any:
        return True
    if tp is bool:
        return isinstance(raw, bool)
    if tp is int:
        value = whole(raw)
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is str:
        return isinstance(raw, str)
    if origin is Literal:
        return raw in get_args(tp)
    if origin is list or spec.kind == "card_lists":
        return isinstance(raw, list)
    if origin is dict or tp is dict or (isinstance(tp, type) and is_dataclass(tp)):
        return isinstance(raw, dict)
    if origin in (Union, types.UnionType):
        return any(_fits(o, raw) for o in get_args(tp))
    return False


def _expected(tp: Any) -> str:
    """How a wrong type's problem names what was expected."""
    tp, spec = _unwrap(tp)
    if spec.kind in ("cards", "card"):
        return spec.kind
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _expected(next(o for o in get_args(tp) if o is not _NONE))
    if tp is bool:
        return "boolean"
    if tp is int:
        return "integer"
    if tp is str or origin is Literal:
        return "string"
    if origin is list or spec.kind == "card_lists":
        return "list"
    return "object"


def _takes_null(tp: Any) -> bool:
    tp, _spec = _unwrap(tp)
    return tp is Any or (get_origin(tp) in (Union, types.UnionType) and _NONE in get_args(tp))


def _empty(tp: Any, spec: Spec) -> Any:
    """What a value that cannot be read stands as, so the reading goes on."""
    if spec.kind in ("cards", "card_lists"):
        return []
    if spec.kind == "card":
        return None
    origin = get_origin(tp)
    if tp is bool:
        return False
    if tp is int:
        return 0
    if tp is str:
        return ""
    if origin is list:
        return []
    return None


@lru_cache(maxsize=256)
def _keys(cls: type) -> frozenset[str]:
    return frozenset(f.key for f in _plan(cls))


@lru_cache(maxsize=256)
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)


# ---- a hand's side --------------------------------------------------------------------------


def read_side(reader: Reader, value: Any, where: str) -> SideEntry:
    """One side of a score request (detail, quick, or only its total)."""
    data = reader.obj(value, where)
    if data is None:
        return SideEntry()
    reader.known_keys(data, SIDE_KEYS, where)
    red = data.get("red_threes", 0)
    red_threes: int | list[int]
    if isinstance(red, list):
        if not 1 <= len(red) <= MAX_SIDES:
            reader.fail("request.value", f"{where}.red_threes", minimum=0, maximum=12)
            red_threes = 0
        else:
            red_threes = []
            for i, n in enumerate(red):
                n = whole(n)
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 12:
                    reader.fail("request.value", f"{where}.red_threes[{i}]", minimum=0, maximum=12)
                    n = 0
                red_threes.append(n)
    else:
        red_threes = reader.integer(
            data, "red_threes", f"{where}.red_threes", 0, *SIDE_BOUNDS["red_threes"]
        )
    side = SideEntry(
        red_threes=red_threes,
        went_out=reader.boolean(data, "went_out", f"{where}.went_out"),
        concealed=reader.boolean(data, "concealed", f"{where}.concealed"),
        # docs/rulebook.md §6: black threes laid out, and a special hand, where the ruleset has
        # them.
        black_threes=reader.integer(
            data, "black_threes", f"{where}.black_threes", 0, *SIDE_BOUNDS["black_threes"]
        ),
    )
    side.adjustments = read_adjustments(reader, data.get("adjustments"), f"{where}.adjustments")
    if "total" in data:
        side.total = reader.integer(data, "total", f"{where}.total", None, *SIDE_BOUNDS["total"])
        for key in sorted(k for k in data if k in SIDE_KEYS and k not in TOTAL_SIDE_KEYS):
            reader.fail("request.total_and_detail", f"{where}.{key}", key=key)
        return side
    special = data.get("special_hand")
    if special is not None:
        if isinstance(special, str) and special:
            side.special_hand = special[:20]
        else:
            reader.fail("request.type", f"{where}.special_hand", expected="string")
    quick = data.get("quick")
    if quick is not None:
        q = reader.obj(quick, f"{where}.quick")
        if q is not None:
            w = f"{where}.quick"
            reader.known_keys(q, QUICK_KEYS, w)
            melded = q.get("melded")
            if melded is not None and not isinstance(melded, bool):
                reader.fail("request.type", f"{w}.melded", expected="boolean")
                melded = None
            numbers = {
                name: reader.integer(q, name, f"{w}.{name}", 0, *bounds)
                for name, bounds in QUICK_BOUNDS.items()
            }
            side.quick = QuickEntry(melded=melded, **numbers)
        if "melds" in data or "hands" in data:
            reader.fail("request.detail_and_quick", where)
    else:
        side.melds = reader.card_lists(data.get("melds"), f"{where}.melds")
        side.hands = reader.card_lists(data.get("hands"), f"{where}.hands", MAX_SIDES, nulls=True)
    return side


def read_adjustments(reader: Reader, value: Any, where: str) -> list[Adjustment]:
    """A side's ``adjustments``: at most :data:`~.scoring.MAX_ADJUSTMENTS` of
    ``{"points": int, "note": str}``, points within ±10,000, the note trimmed and at most 80
    characters."""
    out = []
    for i, item in enumerate(reader.items(value, where, MAX_ADJUSTMENTS)):
        w = f"{where}[{i}]"
        data = reader.obj(item, w)
        if data is None:
            continue
        reader.known_keys(data, ADJUSTMENT_KEYS, w)
        points = reader.integer(data, "points", f"{w}.points", None, *ADJUSTMENT_BOUNDS["points"])
        note = data.get("note", "")
        if not isinstance(note, str):
            reader.fail("request.type", f"{w}.note", expected="string")
            note = ""
        note = note.strip()
        if len(note) > MAX_ADJUSTMENT_NOTE:
            reader.fail("request.text_too_long", f"{w}.note", maximum=MAX_ADJUSTMENT_NOTE)
            note = ""
        out.append(Adjustment(points, note))
    return out


def side_json(side: SideEntry) -> dict[str, Any]:
    """A side as read, written back as JSON: what is stored for a hand. Cards in
    English notation (``Q``, ``X``, ``3h``); only what the reader kept, so reading it again
    gives the same side.

    >>> reader = Reader()
    >>> side = read_side(reader, {"melds": ["d d d 2"], "red_threes": 1}, "teams[0]")
    >>> side_json(side)["melds"], side_json(side)["red_threes"]
    ([['Q', 'Q', 'Q', '2']], 1)
    """
    out: dict[str, Any] = {}
    if side.total is not None:
        out["total"] = side.total
        out["went_out"] = side.went_out
        out["concealed"] = side.concealed
        if side.adjustments:
            out["adjustments"] = [{"points": a.points, "note": a.note} for a in side.adjustments]
        return out
    if side.quick is not None:
        quick: dict[str, Any] = {}
        for f in fields(side.quick):
            value = getattr(side.quick, f.name)
            if f.name == "melded":
                if value is not None:
                    quick["melded"] = value
            elif value or f.name not in SPECIAL_QUICK_FIELDS:
                quick[f.name] = value
        out["quick"] = quick
    else:
        out["melds"] = [[c.rank for c in meld] for meld in side.melds or []]
        out["hands"] = [[c.rank for c in hand] for hand in side.hands or []]
    red = side.red_threes
    out["red_threes"] = list(red) if isinstance(red, list) else red
    out["went_out"] = side.went_out
    out["concealed"] = side.concealed
    if side.black_threes:
        out["black_threes"] = side.black_threes
    if side.special_hand is not None:
        out["special_hand"] = side.special_hand
    if side.adjustments:
        out["adjustments"] = [{"points": a.points, "note": a.note} for a in side.adjustments]
    return out


def read_sides(reader: Reader, data: dict[str, Any]) -> list[SideEntry]:
    teams = data.get("teams")
    if not isinstance(teams, list):
        reader.fail(
            "request.type" if teams is not None else "request.missing", "teams", expected="list"
        )
        return []
    if not 1 <= len(teams) <= MAX_SIDES:
        reader.fail("request.value", "teams", minimum=2, maximum=MAX_SIDES)
        return []
    return [read_side(reader, t, f"teams[{i}]") for i, t in enumerate(teams)]
