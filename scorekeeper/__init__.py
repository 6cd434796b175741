"""scorekeeper: the Canasta scorekeeper and referee for the phone at the card table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

PACKAGE = Path(__file__).resolve().parent
# Before any of the app's dataclasses is defined: their methods' compiled code is kept from one
# start to the next (dataclass_code.py). The phone's engine archive (web/engine/archive.py)
# carries the rules engine alone, without that module: its Python makes them as usual.
if (PACKAGE / "dataclass_code.py").is_file():
    from . import dataclass_code

    dataclass_code.install()
# The checkout (with `pip install -e .`): pyproject.toml and the top-level templates/ and
# translations/ live here. An installed wheel carries both folders inside the package.
ROOT = PACKAGE.parent
__version__ = "0.1.0"
# The largest request body the app reads (a 4-player hand in detail is about 1 KB), on every
# route but a table's import.
MAX_CONTENT_LENGTH = 512 * 1024
# A table's import (its export file: about 6.6 KB a game, so 64 MiB hold some 10,000 games,
# twice what a table keeps): that route alone reads up to this, into a temporary file, and
# parses it game by game. Waitress is told this one (it answers 413 before reading more and
# keeps a large body in a temporary file, not in memory); the app holds every other route to
# MAX_CONTENT_LENGTH. docs/limits.md.
TABLE_IMPORT_MAX = 64 * 1024 * 1024


def data_folder(name: str) -> Path:
    """``templates`` or ``translations``: inside the package when installed from a wheel (the
    build maps them there, see hatch_build.py), else the checkout's top-level folder."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory (docs/api.md §1); it lives in :mod:`.factory`, so that importing the
    rules engine (``scorekeeper.rules``) imports neither Flask nor anything else of the web."""
    from .factory import make_app

    return make_app(config)
