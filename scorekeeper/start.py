"""The ``scorekeeper`` command's entry point: the command line (scorekeeper/cli.py) imported with
Python's cyclic garbage collector paused.

Importing the command line imports nearly every module of the app and its libraries: some
170,000 objects (modules, classes, functions, tables of rules and words) that live as long as
the process does. While they are made, the collector runs every 700 new objects and walks the
young ones, and every tenth and hundredth time older ones too, looking for garbage among objects
that are none: about 3 % of what ``scorekeeper serve`` costs to its first 200
(docs/measurements.md). Paused for the import, it is started again with what the import made
moved out of its way for good (``gc.freeze``), as ``serve`` does again once the app is built;
garbage made after that is collected as usual.

Tests and tools that import :mod:`scorekeeper.cli` directly leave the collector alone.
"""

from __future__ import annotations

import gc


def main() -> None:
    """Run the command line (``scorekeeper serve``, ``score``, ``export``, ...)."""
    gc.disable()
    try:
        from .cli import main as command_line
    finally:
        gc.freeze()
        gc.enable()
    command_line()
