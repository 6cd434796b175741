"""Request and response helpers shared by the two games' pages (``games`` and ``fifty``):
reading a typed number, the answer to a successful POST, this browser's recent games, finding a
stored game, the kept game page, the view link's QR code and the live view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Protocol, TypeVar, cast

import segno
from flask import (
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from sqlalchemy.orm import Session

from ... import store as games_store
from ...signing import csrf_token
from ...store import cache, stamps, tables
from ...store.db import session_scope, write_scope
from ...store.games import KEY
from ...store.models import Game, Table, TableGame
from ..app import htmx
from ..words.i18n import current_language, page_query

Getter = Callable[[Session, str], Game | None]

State = TypeVar("State")

# The recent-games cookies (``games``, ``fifty``) hold editing keys: anyone holding the phone
# may edit those games. Every game this phone made, opened or imported is listed, newest first,
# as long as the keys fit one cookie (a browser keeps 4,096 bytes per cookie: 150 keys of 22
# characters); the list is kept on the phone, not on the server, so the server never learns
# which games belong together, and it works the same behind several app processes. The cookie
# expires 45 days after this phone last opened one of its games.
RECENT_MAX = 150
RECENT_BYTES = 3_600
RECENT_DAYS = 45
PDF_LANGUAGES = (("de", "PDF (Deutsch)"), ("pl", "PDF (polski)"), ("en", "PDF (English)"))


def read_int(text: str | None) -> int | None:
    """An integer typed by a person: spaces and thousands separators are ignored."""
    cleaned = re.sub(r"[\s.,'\u00a0\u202f]", "", text or "").replace("\u2212", "-")
    if not re.fullmatch(r"-?\d{1,9}", cleaned):
        return None
    return int(cleaned)


def see_other(url: str) -> Response:
    """After a successful POST: 303 for a plain form, HX-Redirect for htmx."""
    if htmx.sent_by_htmx():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url
        return response
    return redirect_to(url)


def redirect_to(url: str, code: int = 303) -> Response:
    """``flask.redirect``, typed as what it makes in an app: an instance of the app's own
    response class (Werkzeug declares its base class)."""
    return cast(Response, redirect(url, code=code))


# ---- recent games of this browser ------------------------------------------------------------
#: the cookie that lists this browser's games of Canasta
CANASTA_COOKIE = "games"
#: the cookie that lists this browser's games of 3 ist 50
FIFTY_COOKIE = "fifty"


def recent_ids(cookie: str) -> list[str]:
    return request.cookies.get(cookie, "").split()[:RECENT_MAX]


#: every game this phone holds of one kind (the backup of the phone's games)
phone_games = recent_ids


def remember_all(response: Response, cookie: str, game_ids: list[str]) -> Response:
    """Put ``game_ids`` at the top of this browser's list (an import), in their order."""
    ids = game_ids + [k for k in request.cookies.get(cookie, "").split() if k not in game_ids]
    return _set_recent(response, cookie, ids)


def remember(response: Response, cookie: str, game_id: str, days: int = RECENT_DAYS) -> Response:
    """Keep the editing keys of this browser's games (or tables) in a cookie, for ``days``
    after the last time one was opened: the start pages list only those, since every key
    grants editing and must not be shown to strangers."""
    ids = [game_id] + [k for k in request.cookies.get(cookie, "").split() if k != game_id]
    return _set_recent(response, cookie, ids, days)


def forget(response: Response, cookie: str, game_id: str, days: int = RECENT_DAYS) -> Response:
    """Drop one key from this browser's list (an unknown key changes nothing)."""
    ids = [k for k in request.cookies.get(cookie, "").split() if k != game_id]
    return _set_recent(response, cookie, ids, days)


def _set_recent(
    response: Response, cookie: str, ids: list[str], days: int = RECENT_DAYS
) -> Response:
    kept: list[str] = []
    size = 0
    for key in dict.fromkeys(ids):  # the newest first, each once, as many as fit
        size += len(key) + 1
        if len(kept) == RECENT_MAX or size > RECENT_BYTES:
            break
        kept.append(key)
    response.set_cookie(
        cookie,
        " ".join(kept),
        max_age=days * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure,
    )
    return response


# ---- stored games ----------------------------------------------------------------------------
def find_game(key: str, state_of: Callable[[Game], State], *getters: Getter) -> tuple[Game, State]:
    """The game the first getter that knows ``key`` finds, with its derived state; 404 when
    none does."""
    with session_scope() as session:
        game = None
        for get in getters:
            game = get(session, key)
            if game is not None:
                break
        if game is None:
            abort(404)
        state = state_of(game)
    return game, state


@contextmanager
def stored_game(game_id: str, get: Getter) -> Iterator[tuple[Session, Game]]:
    """The game to change, in a transaction (404 when there is none); the change is committed
    when the block ends, and rolled back when it raises. Writers take turns
    (:func:`~..store.db.write_scope`); a database still busy raises ``DatabaseBusy``."""
    with write_scope() as session:
        game = get(session, game_id)
        if game is None:
            abort(404)
        yield session, game


def start_again(
    game_id: str, get: Getter, show: str, remember_new: Callable[[Response, str], Response]
) -> Response:
    """Start a new game for the table of ``game_id`` (same rules, players and seats) and go to
    it; the new game joins this browser's recent games, and the table of regular players the
    first one was played at (its people, as they are named now)."""
    with stored_game(game_id, get) as (session, game):
        again = games_store.start_again(session, game)
        link = session.get(TableGame, game.id)
        table = session.get(Table, link.table_id) if link is not None else None
        if table is not None:
            tables.attach(session, table, again)
        again_id = again.id
    return remember_new(see_other(url_for(show, game_id=again_id)), again_id)


def pdf_links(endpoint: str, game_id: str) -> list[tuple[str, str]]:
    """The score sheet in each language, as (label, URL): the reader's language first."""

    first = current_language()
    ordered = sorted(PDF_LANGUAGES, key=lambda language: language[0] != first)
    return [(label, url_for(endpoint, game_id=game_id, lang=code)) for code, label in ordered]


class Viewed(Protocol):
    """What the read-only view needs of a game's derived state."""

    @property
    def version(self) -> int: ...


Viewable = TypeVar("Viewable", bound=Viewed)


def live_view(
    view_id: str,
    rulesets: Container[str],
    state_of: Callable[[Game], Viewable],
    get_by_view: Getter,
    templates: tuple[str, str],
    context: Callable[[Viewable], tuple[dict[str, Any], tuple[str, ...]]],
) -> Response:
    """The read-only view of the game with the view key ``view_id`` (one of ``rulesets``):
    ``templates`` are the page and its ``#live`` fragment, ``context`` what they show of the
    state and the editing keys of the games it shows (its evening's; empty: the game alone).
    htmx polls it for the fragment (204 while ``since`` is the current version, found with one
    light read); without JavaScript a meta refresh reloads the page, which is kept like the
    game page (:func:`cached_game_page`) under the game's editing key."""
    if quiet_poll(view_id, rulesets):
        return unchanged()
    is_fragment = htmx.wants_fragment()
    page, fragment = templates
    if not is_fragment:
        owner = stamps.view_owner(view_id) if KEY.match(view_id) else None
        if owner is None or owner[0] not in rulesets:
            abort(404)

        def render() -> Rendered:
            game, state = find_game(view_id, state_of, get_by_view)
            values, chain = context(state)
            return (
                render_template(page, view_id=view_id, **values),
                chain or (game.id,),
                None,
            )

        response = make_response(cached_game_page(owner[1], render))
    else:
        _game, state = find_game(view_id, state_of, get_by_view)
        if request.args.get("since", type=int) == state.version:
            return unchanged()
        response = make_response(render_template(fragment, view_id=view_id, **context(state)[0]))
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    return response


def quiet_poll(view_id: str, rulesets: Container[str]) -> bool:
    """Whether this request is a view's poll (htmx, ``?since=N``) while the game with the view
    key ``view_id``, of one of ``rulesets``, is still at version N: one light read instead of
    loading the game. Answer it with :func:`unchanged`."""
    if not htmx.wants_fragment():
        return False
    since = request.args.get("since", type=int)
    found = stamps.view_version(view_id) if since is not None else None
    return found is not None and found[0] in rulesets and found[1] == since


def unchanged() -> Response:
    """The answer to a view's poll while nothing changed: htmx keeps what it shows."""
    response = make_response("", 204)
    response.vary.add("HX-Request")
    response.headers["Cache-Control"] = "no-store"
    return response


# ---- the game page, kept -------------------------------------------------------------------------
# Rendering a game's page costs far more than finding out that nothing changed: the page is kept
# (``store.cache``: per game, language, address and the query parameters that change it) with
# the stamp it was made at, and sent again while the stamp is the same. The stamp is read from
# the database on every request in one light statement (``store.stamps.chain_stamp``): the
# versions of the game and of the other games of its evening, and the games that follow them.
# What differs per reader is put back: the CSRF token (kept as a mark), and a page with a
# flashed message is never kept.

_CSRF_MARK = b"\x00csrf\x00"

#: the page, the editing keys of the games it shows (its evening's) and the moment something on
#: it ends by itself (an undo offer; seconds since the epoch), if any
Rendered = tuple[str, tuple[str, ...], float | None]


def cached_game_page(
    game_id: str, render: Callable[[], Rendered], query: tuple[str, ...] = ()
) -> bytes:
    """The page of the game ``game_id`` (UTF-8): kept while nothing it shows has changed, else
    made by ``render``. ``query``: the query parameters that change the page; any other is
    left out of the key, and out of the page's own links."""
    if session.get("_flashes"):
        return render()[0].encode()
    token = csrf_token().encode()
    chain = cache.chain(game_id)
    # read before rendering: a change landing meanwhile gives a newer stamp next time
    stamp = stamps.chain_stamp(chain)
    kept_args = tuple(f"{name}={request.args.get(name, '')}" for name in query)
    key = (game_id, str(get_locale()), request.host, request.path, *kept_args)
    kept = cache.page(key, stamp)
    if kept is not None:
        return kept.replace(_CSRF_MARK, token)
    with page_query(query):
        html, seen, ends = render()
    page = html.encode()
    if seen == chain:  # else the stamp read covers other games: keep it next time
        cache.keep_page(key, stamp, page.replace(token, _CSRF_MARK), ends)
    cache.keep_chain(game_id, seen)
    return page


def table_link(session: Session, game_id: str) -> tuple[str, str] | None:
    """The name and read-only page of the table the game was played at, for the game page's
    way back to it (the game's key grants no editing of the table), or None."""
    table = tables.table_of_game(session, game_id)
    if table is None:
        return None
    return table.name, url_for("tables.view", view_id=table.view_id)


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    """The view link as a QR code: inline SVG made by segno from our own URL (no user text);
    a link does not change, so each is drawn once."""
    return segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, dark="#1d1b16", svgclass="qr"
    )
