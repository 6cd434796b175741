"""Stored games: SQLAlchemy models and the few functions that change a game.

``db`` imports only Flask; every other module here imports SQLAlchemy (about half of a start's
imports, issue 16). The web layer therefore reaches them through :func:`lazy` handles, so an
app is created, and answers a page that needs no database, without importing SQLAlchemy::

    if TYPE_CHECKING:
        from ..store import games as store
    else:
        store = lazy("games")

The first use of a handle's name imports the module, and :func:`load` imports all of them at
once, in one order and under one lock (waitress serves from several threads; no
``importlib.util.LazyLoader``, which had thread-safety bugs before Python 3.12).
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import Any

#: every module that imports SQLAlchemy, in import order
MODULES = ("models", "games", "stamps", "evening", "fifty")

_lock = threading.Lock()
_loaded = False


def load() -> None:
    """Import SQLAlchemy and every store module (once; later calls return at once)."""
    global _loaded  # noqa: PLW0603 - set once, under the lock
    if _loaded:
        return
    with _lock:
        if not _loaded:
            for name in MODULES:
                importlib.import_module(f"{__name__}.{name}")
            _loaded = True


class Lazy:
    """A store module that is imported at the first use of one of its names."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            load()
            module = importlib.import_module(f"{__name__}.{self._name}")
            self._module = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy {__name__}.{self._name}>"


def lazy(name: str) -> Any:
    """A handle on the store module ``name`` (one of :data:`MODULES`)."""
    if name not in MODULES:
        raise ValueError(f"not a store module that imports SQLAlchemy: {name}")
    return Lazy(name)
