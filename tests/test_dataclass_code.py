"""The app's dataclasses' methods compiled once and kept (scorekeeper/dataclass_code.py): the
classes behave as Python makes them, what was compiled is found again by a later start, a
changed class is compiled afresh, and a library's dataclass is left to Python."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import dataclass_code

SOURCE = """
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=())

@dataclass
class Box:
    items: list[int] = field(default_factory=list)
"""


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty table for the test (the app's own entries are put back after it)."""
    monkeypatch.setattr(dataclass_code, "_kept", {})
    monkeypatch.setattr(dataclass_code, "_new", {})
    monkeypatch.setattr(dataclass_code, "_used", set())
    dataclass_code.install()
    yield


def define(name: str, source: str = SOURCE) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module
    try:
        exec(compile(source, name, "exec", dont_inherit=True), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def test_the_app_starts_with_its_dataclasses_routed_through_the_kept_code() -> None:
    assert getattr(dataclasses, "exec", None) is dataclass_code._exec


def test_a_class_of_the_app_behaves_as_python_makes_it(fresh: None) -> None:
    ours = define("scorekeeper._probe")
    theirs = define("elsewhere._probe")
    assert dataclass_code._new  # the app's class was compiled here
    # Point: __init__, __repr__, __eq__, __setattr__, __delattr__, __hash__; Box: the first three
    assert len(dataclass_code._new) == 9
    for module in (ours, theirs):
        point = module.Point(1, tags=("a",))
        assert point == module.Point(1, 0, ("a",)) and point != module.Point(2)
        assert repr(point) == "Point(x=1, y=0, tags=('a',))"
        assert hash(point) == hash(module.Point(1, 0, ("a",)))
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.x = 3  # type: ignore[misc]
        assert module.Box().items == [] and module.Box().items is not module.Box().items
    # compiled as exec compiles it for dataclasses: the `from __future__ import annotations` of
    # dataclass_code is not passed on, so the signature's annotations are the field types
    assert ours.Point.__init__.__annotations__ == theirs.Point.__init__.__annotations__
    assert ours.Point.__init__.__annotations__["x"] is int


def test_a_library_class_is_left_to_python(fresh: None) -> None:
    define("elsewhere._probe")
    assert dataclass_code._new == {}


def test_what_was_compiled_is_found_by_the_next_start(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = tmp_path / "kept.marshal"
    define("scorekeeper._probe")
    texts = set(dataclass_code._new)
    dataclass_code.save(kept)
    assert dataclass_code._new == {} and set(dataclass_code._kept) == texts

    # the next start: the table read from the file, nothing compiled for the same classes
    monkeypatch.setattr(dataclass_code, "_kept", dataclass_code._read(kept))
    assert set(dataclass_code._kept) == texts
    compiled: list[str] = []
    real = compile

    def counting(source: str, *args: object, **kwargs: object) -> object:
        compiled.append(source)
        return real(source, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(dataclass_code, "compile", counting, raising=False)
    again = define("scorekeeper._probe")
    assert compiled == [] and dataclass_code._new == {}
    assert again.Point(2) == again.Point(2, 0)

    # a changed class writes another text: compiled afresh, and kept too
    define("scorekeeper._probe", SOURCE.replace("y: int = 0", "y: int = 0\n    z: int = 1"))
    assert compiled and set(compiled) == set(dataclass_code._new)
    dataclass_code.save(kept)
    assert len(dataclass_code._read(kept)) == len(texts) + len(compiled)


def test_texts_no_class_asks_for_are_dropped_when_something_new_is_kept(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = tmp_path / "kept.marshal"
    define("scorekeeper._probe")
    before = set(dataclass_code._new)  # Point's six methods and Box's three
    dataclass_code.save(kept)

    # the next start, after Point gained a field: each of its methods writes another text
    monkeypatch.setattr(dataclass_code, "_kept", dataclass_code._read(kept))
    monkeypatch.setattr(dataclass_code, "_used", set())
    define("scorekeeper._probe", SOURCE.replace("y: int = 0", "y: int = 0\n    z: int = 1"))
    changed = set(dataclass_code._new)
    assert len(changed) == 6 and not changed & before
    found_again = set(dataclass_code._used)
    assert len(found_again) == 3 and found_again < before  # Box's three methods
    dataclass_code.save(kept)
    table = dataclass_code._read(kept)
    assert set(table) == changed | found_again
    assert len(table) == 9  # Point's old six are gone, not kept beside the new ones
    assert not set(table) & (before - dataclass_code._used)


def test_a_foreign_or_broken_file_counts_as_empty(tmp_path: Path) -> None:
    path = tmp_path / "kept.marshal"
    assert dataclass_code._read(path) == {}  # none yet
    for data in (b"", b"something else", dataclass_code.MAGIC + b"\x00broken"):
        path.write_bytes(data)
        assert dataclass_code._read(path) == {}


def test_a_folder_that_cannot_be_written_keeps_nothing(fresh: None, tmp_path: Path) -> None:
    define("scorekeeper._probe")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    dataclass_code.save(blocked / "kept.marshal")  # no error
    assert dataclass_code._new  # still to be kept by a later save
    assert list(tmp_path.iterdir()) == [blocked]
