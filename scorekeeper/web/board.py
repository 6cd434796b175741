"""What the Canasta game page, its read-only view and its conflict page show: the board (totals,
minimums, history) and the view link's QR code."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from flask import request, session
from flask_babel import format_timedelta, get_locale
from flask_wtf.csrf import generate_csrf

from ..rules.scoring import item_keys
from ..store import lazy
from .adjustments import adjustment_lines
from .chart import running_chart
from .entry import problem_text
from .names import canasta_kind, item_labels, ruleset_title
from .options import house_rule_lines
from .stats import side_stats

if TYPE_CHECKING:
    from ..store import models, stamps
    from ..store.games import GameState
    from ..store.stamps import Stamp
else:
    models = lazy("models")
    stamps = lazy("stamps")

# A long game shows its latest hands and a link to all of them, so the page stays light on a
# phone (issue: the game page's first load under 80 KB); short games show every hand.
HISTORY_SHOWN = 6
HISTORY_ALL_UP_TO = 8


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    """The view link as a QR code: inline SVG made by segno from our own URL (no user text);
    a link does not change, so each is drawn once."""
    import segno  # only game pages and ``serve --lan`` draw one

    return segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#1d1b16", svgclass="qr"
    )


def board_context(state: GameState) -> dict[str, Any]:
    count = len(state.hands)
    show_all = request.args.get("all") == "1" or count <= HISTORY_ALL_UP_TO
    return {
        "hands_from": 0 if show_all else count - HISTORY_SHOWN,
        "show_all": request.args.get("all") == "1",
        "state": state,
        "rs": state.rules,
        "ruleset_name": ruleset_title(state.ruleset),
        "house_rules": house_rule_lines(state.rules, state.base_rules),
        "standard_target": state.base_rules.target_for(state.players),
        "item_labels": item_labels(keys=item_keys(state.rules)),
        "item_order": item_keys(state.rules),
        "problem_text": problem_text,
        "adjustment_lines": adjustment_lines,  # issue 15
        "ago": ago,
        "stats": side_stats(state),
        "canasta_kind": canasta_kind,
        "chart": running_chart(
            [c.name for c in state.columns],
            [[s.total for s in row.scores] for row in state.hands],
            state.target,
        ),
    }


def ago(moment: datetime) -> str:
    """How long ago, in the reader's language ("vor 5 Minuten"): the server does not know the
    phone's time zone, and "how long ago" needs none."""
    return format_timedelta(moment - models.utcnow(), granularity="minute", add_direction=True)


# ---- the rendered page, per game version and language (issue 16) ----------------------------
# Rendering a game's page costs far more than finding out that nothing changed: the page is
# kept per (game, language, address) with the stamp it was made at, and sent again while the
# stamp is the same. The stamp is read from the database on every request in one light statement
# (store.stamps.chain_stamp): the versions of the game and of the other games of its evening, and
# the games that follow them. A new stamp replaces the page (no outdated copies are kept). What
# differs per reader is put back: the CSRF token (kept as a mark), and a page with a flashed
# message is never kept. "x minutes ago" texts are kept for a minute at most, an undo offer until
# it ends. Pages are kept as the UTF-8 bytes that are sent: half the memory of a str with any
# non-Latin-1 letter, and no encoding per request.

# pages of the games being played: a table's scorekeeper keeps one game's page (the other
# phones poll the view, which is not kept); 64 cover many tables at a few MB at most
PAGE_CACHE_SIZE = 64
_CSRF_MARK = b"\x00csrf\x00"


class _Kept(NamedTuple):
    stamp: Stamp
    minute: int
    page: bytes  # the CSRF token replaced by _CSRF_MARK
    until: float  # seconds since the epoch: when something on it ends by itself


_pages: OrderedDict[tuple[str, ...], _Kept] = OrderedDict()
_chains: OrderedDict[str, tuple[str, ...]] = OrderedDict()  # game -> its evening, as last seen
_pages_lock = threading.Lock()


Rendered = tuple[str, tuple[str, ...], float | None]


def cached_game_page(game_id: str, render: Callable[[], Rendered]) -> bytes:
    """The page of the game ``game_id`` (UTF-8): kept, when nothing it shows has changed since
    it was rendered in the same language at the same address within the minute; else made by
    ``render``, which answers the page, the editing keys of the game's evening (the game alone
    when it is the only one) and the moment something on it ends by itself (an undo offer;
    seconds since the epoch), if any."""
    if session.get("_flashes"):
        return render()[0].encode()
    token = generate_csrf().encode()
    with _pages_lock:
        chain = _chains.get(game_id, (game_id,))
    # read before rendering: a change landing meanwhile gives a newer stamp next time
    stamp = stamps.chain_stamp(chain)
    key = (game_id, str(get_locale()), request.host, request.full_path)
    minute = _minute()
    with _pages_lock:
        kept = _pages.get(key)
        if kept is not None:
            _pages.move_to_end(key)
    if (
        kept is not None
        and kept.stamp == stamp
        and kept.minute == minute
        and time.time() < kept.until
    ):
        return kept.page.replace(_CSRF_MARK, token)
    html, seen, ends = render()
    page = html.encode()
    with _pages_lock:
        if seen == chain:  # else the stamp read covers other games: keep it next time
            marked = page.replace(token, _CSRF_MARK)
            _pages[key] = _Kept(stamp, minute, marked, ends or float("inf"))
            _pages.move_to_end(key)
            while len(_pages) > PAGE_CACHE_SIZE:
                _pages.popitem(last=False)
        _chains[game_id] = seen
        _chains.move_to_end(game_id)
        while len(_chains) > 4 * PAGE_CACHE_SIZE:
            _chains.popitem(last=False)
    return page


def _minute() -> int:
    return int(time.time() // 60)
