"""Backups and moving, the web side: a game or this phone's games as a backup file (the one
format of :mod:`...store.backup`, both kinds of game, with the corrections trail), the hands as
CSV for spreadsheets in the reader's convention, and importing a backup (also the older files
in the API's shape) on any installation.

An imported file is untrusted input: every game and every entry is checked as if typed
(:func:`...store.backup.read_backup`) before anything is stored; a file with any problem stores
nothing. Each game is then stored in a transaction of its own on the write path, so a phone
saving meanwhile waits for one game at most, never for the whole file; a game already here
(the same editing key; for a file without keys, the same view key of a game this phone
holds) is recognised and not stored twice, so importing a file again only adds what is
missing. A file without keys (one game passed on) gives whoever imports it a game of their
own.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import g, request

from ...store import GameState
from ...store import backup as stored
from ...store.importing import MAX_ENTRIES, MAX_GAMES, Imported, import_backup
from ...store.models import Game
from ..app.limits import count_imported
from .adjustments import adjustment_lines

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: the spreadsheet convention of each language: German and Polish spreadsheets use the comma
#: for decimals and expect ``;`` between cells
DELIMITERS = {"de": ";", "pl": ";"}


def backup_file(games: list[Game], with_keys: bool) -> str:
    """Games as a backup file (see :mod:`...store.backup`)."""
    return stored.dumps(stored.dump(games, with_keys))


def safe_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula (CSV injection):
    text starting with = + - @ (or a tab or carriage return) gets a leading apostrophe.
    Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def hands_csv(
    state: GameState,
    item_keys: list[str],
    labels: dict[str, str],
    words: dict[str, str],
    language: str = "en",
) -> str:
    """The hands, one row each: number, dealer, then per column its items, the hand's score
    and the running total (``labels``: item names; ``words``: the other headings). Cells are
    separated as the reader's spreadsheet expects (``;`` in German and Polish)."""
    out = io.StringIO()
    delimiter = DELIMITERS.get(language, ",")
    writer = csv.writer(out, delimiter=delimiter)
    head = [words["hand"], words["dealer"]]
    for column in state.columns:
        head += [f"{column.name}: {labels.get(k, k)}" for k in item_keys]
        head += [
            f"{column.name}: {words['score']}",
            f"{column.name}: {words['total']}",
            f"{column.name}: {words['went_out']}",
        ]
    head += [words["corrected"], words["adjustment_notes"]]
    writer.writerow([safe_cell(h) for h in head])
    for row in state.hands:
        cells: list[Any] = [row.number, row.dealer.name]
        for score in row.scores:
            cells += [score.items.get(k, 0) for k in item_keys]
            cells += [
                score.score,
                score.total,
                words["concealed"] if score.concealed else words["yes"] if score.went_out else "",
            ]
        cells.append(len(row.corrections) or "")
        # each adjustment with its side and note (user text: made safe below).
        cells.append(
            "; ".join(
                f"{a.side}: {a.points:+d} {a.note}".strip() for a in adjustment_lines(state, row)
            )
        )
        writer.writerow([safe_cell(c) for c in cells])
    return out.getvalue()


def uploaded() -> Any:
    """The backup this request sends (the start page's file field, or the API's JSON body),
    read once per request; None when it is no JSON."""
    if "uploaded_backup" not in g:
        data: Any = None
        if request.path.startswith("/api/"):
            data = request.get_json(silent=True)
        else:
            upload = request.files.get("backup")
            try:
                data = json.loads(upload.read().decode("utf-8")) if upload else None
            except (UnicodeDecodeError, ValueError, RecursionError):
                data = None
        g.uploaded_backup = data
    return g.uploaded_backup


def import_games(data: Any, mine: frozenset[str] | set[str] = frozenset()) -> list[Imported]:
    """:func:`...store.importing.import_backup`, each game stored counted against the creation
    limit (:func:`..app.limits.count_imported`)."""
    return import_backup(data, mine, count_imported)


__all__ = [
    "MAX_ENTRIES",
    "MAX_GAMES",
    "Imported",
    "backup_file",
    "hands_csv",
    "import_games",
    "safe_cell",
    "uploaded",
]
