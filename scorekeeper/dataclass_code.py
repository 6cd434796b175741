"""The compiled methods of the app's dataclasses, kept from one start to the next.

Python makes a dataclass's methods (``__init__``, ``__repr__``, ``__eq__``; a frozen one's
``__setattr__``, ``__delattr__`` and ``__hash__``) by writing their source as text and running
it with ``exec``: the text is parsed and compiled each time a class is defined. The app defines
some 240 dataclasses when it starts, and parsing those texts was the largest part of what the
app's own modules cost a start (about 600 M instructions of ``scorekeeper serve`` to its first
200, against some 80 M for unmarshalling the same code compiled: docs/measurements.md).

:func:`install` gives the ``dataclasses`` module an ``exec`` of its own that looks each text up
in :data:`FILE` first and runs the code compiled from it; a text not found is compiled as
``exec`` would compile it (without the caller's ``__future__`` flags) and joins the file when
:func:`save` runs (``create_app`` calls it once the app is made). Only the app's own classes take
this way (the module defining the class is ``scorekeeper`` or below it); every library's
dataclass is made as Python makes it.

What is kept cannot go stale: an entry is found by the exact text Python wrote for the class, so
a changed class writes another text and is compiled afresh, and the file's name carries the
interpreter's cache tag (``cpython-311``) as a ``.pyc`` file's does. The file lives beside the
package's compiled modules (``scorekeeper/__pycache__``), written even where Python is told not
to write its own ``.pyc`` files (``PYTHONDONTWRITEBYTECODE``), as the app keeps its compiled
templates; where that folder cannot be written (a package installed read-only, as in the Docker
image run as its own user) nothing is kept and every start compiles, as before. An unreadable
or foreign file counts as empty. Nothing but this module reads or writes it. The table stays in
memory for the process (about 3 MB), for the modules imported later (a PDF's, the API
description's).
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from .files import write_whole

#: where the compiled methods are kept
FILE = (
    Path(__file__).resolve().parent
    / "__pycache__"
    / f"dataclass-code.{sys.implementation.cache_tag}.marshal"
)
#: written first in the file: a file of another layout or interpreter is not read
MAGIC = b"scorekeeper dataclass code 1\n" + (sys.implementation.cache_tag or "").encode()

#: the source text of a method -> its compiled code, as read from :data:`FILE`
_kept: dict[str, CodeType] = {}
#: the same for texts compiled in this process, not yet in the file
_new: dict[str, CodeType] = {}
#: the texts of :data:`_kept` this process has run
_used: set[str] = set()


def _is_ours(namespace: Any) -> bool:
    name = namespace.get("__name__") if isinstance(namespace, dict) else None
    return isinstance(name, str) and (name == "scorekeeper" or name.startswith("scorekeeper."))


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """``exec`` for the ``dataclasses`` module: a method of one of the app's classes runs from
    its kept code; anything else is handed to the built-in ``exec`` as it came."""
    if not isinstance(source, str):
        builtins.exec(source, globals, locals)
        return
    ours = _is_ours(globals)
    code = (_kept.get(source) or _new.get(source)) if ours else None
    if code is not None and source in _kept:
        _used.add(source)
    if code is None:
        # as the built-in exec compiles a text for ``dataclasses``: without the __future__
        # flags of the module calling it (this one's would turn annotations into strings)
        code = compile(source, "<string>", "exec", dont_inherit=True)
        if ours:
            _new[source] = code
    builtins.exec(code, globals, locals)


def _read(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(MAGIC):
        return {}
    try:
        table = marshal.loads(data[len(MAGIC) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, CodeType)}


def install(path: Path = FILE) -> None:
    """Read the kept code and route the ``dataclasses`` module's ``exec`` through it (once)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    _kept.update(_read(path))
    # a name of the module's own shadows the built-in one for its functions alone
    setattr(dataclasses, "exec", _exec)  # noqa: B010 - not an attribute dataclasses declares


def save(path: Path = FILE) -> None:
    """Keep the code compiled in this process, and of what was kept, what this process ran
    (nothing new: nothing to do). A class that changed leaves its old texts behind, never to be
    asked for again: they are dropped when something new is written, so the file holds what
    the app of today defines instead of growing with every change of a class. Written to a new
    file that replaces the old one at once, so a start that reads it meanwhile reads the old
    file or the new one, never half of one; a folder that cannot be written keeps nothing."""
    if not _new:
        return
    table = {**{text: code for text, code in _kept.items() if text in _used}, **_new}
    with contextlib.suppress(OSError):
        write_whole(path, MAGIC + marshal.dumps(table))
        _kept.update(_new)
        _used.update(_new)
        _new.clear()
