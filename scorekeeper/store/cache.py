"""Everything the app keeps for speed, in one place: what each thing is keyed by, what makes it
stale, and how much of it is kept. No other module reads or writes these.

The database is always the truth. Every kept value carries the key that proves it current,
and a value whose key no longer matches is never used: it is made again and replaces the old.

In the database (shared by every server process):

============================  ======================================  ===========================
what                          keyed by                                stale when
============================  ======================================  ===========================
``hands.scored``: what the    :data:`ENGINE`, a digest of every file  the rules engine or the
engine made of a hand         under ``rules/`` and of                 store's reading of a hand
(:func:`score_json`)          ``store/entries.py``                    changes (any file, at any
                                                                      depth)
``games.summary``: hand       :data:`ENGINE`, the game's ``version``  any change of the game
count and totals after the    and ``updated_at``                      (every change moves both)
last hand (:func:`summary`)
============================  ======================================  ===========================

In memory, one :class:`Kept` per app (``app.extensions["scorekeeper.kept"]``), so two apps in
one process (tests, a second "server") share nothing but the database:

============================  ======================================  ===========================
what                          keyed by                                bounded by
============================  ======================================  ===========================
``states``: a game's derived  game id; used only while the game's     :data:`STATE_GAMES` games
state (``GameState``)   ``version`` and ``updated_at`` match    and :data:`STATE_HANDS`
                                                                      hands in all
``rescored``: a hand entry    a digest of the stored entry, its       :data:`RESCORED_MAX`
scored again (an earlier      ruleset, house rules, players and
entry of a corrected hand,    columns (the entry itself: never stale)
an older engine's score)
``pages``: a rendered game    game id, language, host, path and the   :data:`PAGE_MAX` pages;
page or full view page        query parameters that change the page;  a new stamp replaces the
(UTF-8, CSRF token marked)    used only while the stamp of the game   page
                              and its evening (:mod:`.stamps`), the
                              minute and any end time still match;
also a tournament's public    view key, language, host, path;
fragment (standings, round)   used only while
                              ``stamps.tournament_stamp`` (the
                              tournament's version, its games'
                              count, newest change, sum of
                              versions) still matches
``previewed``: the game a     flow and game id; used only while the   :data:`PREVIEW_GAMES` games
live preview loaded           game's ``version`` and ``updated_at``   and :data:`PREVIEW_HANDS`
                              match (one indexed read)                hands per flow
``statements``: the light     dialect, statement and number of keys   a handful (fixed SQL)
reads compiled to the
driver's SQL (:mod:`.stamps`)
``table_games``: a table's    game id; used only while the game's     :data:`TABLE_GAMES` games
game boiled down to its       ``version``, ``updated_at`` and the
facts (``table_stats.GameFacts``)  people of its link row match
``tables``: a table's         table id; used only while              :data:`TABLE_MAX` tables
statistics summed from its    ``table_stats.stamp`` matches (the table's
games' facts                  version; its games' count, newest
(``table_stats.TableStats``)       change and sum of versions: one read)
``tournaments``: a            tournament id, whether it is the        :data:`TOURNAMENT_MAX`
tournament's whole view       director's view, and the form (none:    views and forms
(``tournament.model.          the view itself; ``("polled", "json")``
TournamentView``: rounds,     the API's bytes); used only while its
tables, standings) and what   stamp matches: the tournament's
is made of it for polls       version, its games' count, newest
(``store.tournaments.         change and sum of versions, in one
kept_by_key``)                read (``store.tournaments.stamp``;
                              for a poll by key without a session
                              ``stamps.tournament_stamp``)
============================  ======================================  ===========================

A session that changes a game keeps the state it derived for itself (``session.info``) and hands
it to ``states`` when it commits, unless something was flushed after it was derived; a rollback
drops it. Pure functions of immutable input (a ruleset resolved from its id and house rules,
a card text read, a number formatted) are memoized beside their function with ``lru_cache``:
they cannot be stale, and are not listed here.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session, object_session

from ..rules.problems import Problem
from ..rules.scoring import HandResult, SideEntry, SideScore
from .entries import Entry
from .models import Game
from .state import GameState

# ---- kept in the database ---------------------------------------------------------------------


def engine_fingerprint(rules: Path, reader: Path) -> str:
    """A digest of every Python file under ``rules`` (at any depth) and of ``reader``: a
    stored score made by other code than this is stale. The files are taken in the order of
    their paths' parts (``fifty/cards.py`` before ``fifty.py``, as sorted ``Path`` objects
    are), each hashed after its path inside ``rules``. Run at every start, so walked with
    ``os.walk``, cheaper than ``Path.rglob`` (docs/measurements.md, "Third round")."""
    digest = hashlib.sha256()
    named: list[tuple[tuple[str, ...], str]] = []
    for folder, _folders, files in os.walk(rules):
        inside = os.path.relpath(folder, rules)
        parts = () if inside == os.curdir else tuple(inside.split(os.sep))
        named += [((*parts, f), os.path.join(folder, f)) for f in files if f.endswith(".py")]
    named.sort()
    for parts, path in [*named, ((reader.name,), str(reader))]:
        digest.update("/".join(parts).encode())
        digest.update(b"\0")
        with open(path, "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()[:16]


_HERE = Path(__file__).resolve().parent
ENGINE = engine_fingerprint(_HERE.parent / "rules", _HERE / "entries.py")


def _problems_json(problems: Sequence[Problem]) -> list[list[Any]]:
    return [[p.code, p.where, p.params] for p in problems]


def score_json(entry: Entry) -> dict[str, Any] | None:
    """What the engine made of a hand, for ``Hand.scored`` (None if it is not JSON)."""
    data = {
        "engine": ENGINE,
        "sides": [[s.went_out, s.concealed] for s in entry.sides],
        "scores": [[r.score, r.items, r.canastas, r.player_scores] for r in entry.result.sides],
        "members": entry.members,
        "problems": _problems_json(entry.problems),
        "warnings": _problems_json(entry.result.warnings),
    }
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return data


def stored_score(data: Any) -> Entry | None:
    """The entry as :func:`score_json` stored it, if this very engine stored it."""
    if not isinstance(data, dict) or data.get("engine") != ENGINE:
        return None
    try:
        sides = [
            SideEntry(went_out=bool(out), concealed=bool(concealed))
            for out, concealed in data["sides"]
        ]
        scores = [
            SideScore(
                int(score),
                dict(items),
                dict(canastas),
                player_scores=list(players) if players is not None else None,
            )
            for score, items, canastas, players in data["scores"]
        ]
        problems = [Problem(c, w, dict(p)) for c, w, p in data["problems"]]
        warnings = [Problem(c, w, dict(p)) for c, w, p in data["warnings"]]
        members = [list(m) for m in data["members"]]
    except (KeyError, TypeError, ValueError):
        return None
    return Entry(sides, members, HandResult(scores, problems, warnings), problems)


def summary(version: int, updated_at: datetime, hands: int, totals: list[int]) -> dict[str, Any]:
    """``games.summary``: what the next save needs of the state at ``version``."""
    return {
        "engine": ENGINE,
        "version": version,
        "updated_at": updated_at.isoformat(),
        "hands": hands,
        "totals": list(totals),
    }


def summary_at(game: Game, version: int) -> tuple[int, list[int]] | None:
    """The hand count and totals of ``game.summary``, if it was made by this engine for
    ``version`` and the game's ``updated_at``; else None."""
    kept = game.summary
    if (
        not isinstance(kept, dict)
        or kept.get("engine") != ENGINE
        or kept.get("version") != version
        or kept.get("updated_at") != game.updated_at.isoformat()
    ):
        return None
    hands, totals = kept.get("hands"), kept.get("totals")
    if (
        not isinstance(hands, int)
        or not isinstance(totals, list)
        or len(totals) != len(game.sides)
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals)
    ):
        return None
    return hands, list(totals)


# ---- kept in memory ---------------------------------------------------------------------------

# A derived state takes about 4.5 KB per hand (tracemalloc on varied 4-player hands, half of it
# the entry as stored), so 10,000 hands stay under 50 MB. Saves do not need it (the summary on
# the game row does), and a state that fell out is derived again from the stored scores.
STATE_HANDS = 10_000
STATE_GAMES = 256
# A re-scored entry holds at most HAND_MAX_BYTES of JSON read into objects: under 64 KB (a
# 4-player hand in detail about 22 KB), so 512 stay under 32 MB.
RESCORED_MAX = 512
# A table's scorekeeper keeps one game's page (the other phones poll the view, which is not
# kept); 64 cover many tables at a few MB.
PAGE_MAX = 64
PREVIEW_GAMES = 64
PREVIEW_HANDS = 5_000
# A game's facts are a few hundred bytes: 20,000 (a few large tables) stay under 10 MB. A
# table's statistics hold its games' facts again (shared objects) and a few figures per person.
TABLE_GAMES = 20_000
TABLE_MAX = 64
# A tournament's view holds a few hundred bytes per table and participant: 40 tables over 6
# rounds and 160 participants stay under 200 KB (its JSON about as much), so 64 views and
# forms stay under 13 MB.
TOURNAMENT_MAX = 64

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A least-recently-used store of values that each carry a stamp (what proves them
    current) and a weight; at most ``count`` values and ``weight`` in all."""

    def __init__(self, count: int, weight: int | None = None) -> None:
        self.count, self.weight = count, weight
        self._values: OrderedDict[K, tuple[Hashable, V, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: K, stamp: Hashable) -> V | None:
        """The value kept for ``key`` if it was kept with this very stamp."""
        with self._lock:
            found = self._values.get(key)
            if found is None or found[0] != stamp:
                return None
            self._values.move_to_end(key)
            return found[1]

    def find(self, key: K, test: Callable[[V], bool]) -> V | None:
        """The value kept for ``key`` whatever its stamp, if ``test`` accepts it."""
        with self._lock:
            found = self._values.get(key)
        return found[1] if found is not None and test(found[1]) else None

    def made(self, key: K, stamp: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key`` with this stamp, else ``make()`` (kept with it)."""
        found = self.get(key, stamp)
        if found is None:
            found = make()
            self.put(key, stamp, found)
        return found

    def put(self, key: K, stamp: Hashable, value: V, weight: int = 1) -> None:
        with self._lock:
            old = self._values.pop(key, None)
            self._held -= old[2] if old else 0
            self._values[key] = (stamp, value, weight)
            self._held += weight
            while self._values and (
                len(self._values) > self.count
                or (self.weight is not None and self._held > self.weight)
            ):
                self._held -= self._values.popitem(last=False)[1][2]

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._held = 0

    def size(self) -> tuple[int, int]:
        """How many values are kept, and their weight in all."""
        with self._lock:
            return len(self._values), self._held

    def weights(self) -> dict[K, int]:
        """Each kept key with its weight, least recently used first."""
        with self._lock:
            return {key: kept[2] for key, kept in self._values.items()}

    def bound(self, count: int, weight: int | None = None) -> None:
        """Change the bounds (the values over them go at the next ``put``)."""
        with self._lock:
            self.count, self.weight = count, weight


@dataclass(frozen=True)
class Page:
    """A rendered page as sent (UTF-8), kept until its stamp changes, the minute ends (its
    "x minutes ago" texts) or something on it ends by itself (an undo offer)."""

    minute: int
    body: bytes
    until: float  # seconds since the epoch


class Kept:
    """What one app keeps in memory (see the module docstring)."""

    def __init__(self) -> None:
        self.states: Bounded[str, GameState] = Bounded(STATE_GAMES, STATE_HANDS)
        self.rescored: Bounded[bytes, Entry] = Bounded(RESCORED_MAX)
        self.pages: Bounded[tuple[str, ...], Page] = Bounded(PAGE_MAX)
        # game id -> the games of its evening, as the last render of its page saw them
        self.chains: Bounded[str, tuple[str, ...]] = Bounded(4 * PAGE_MAX)
        self._previewed: dict[str, Bounded[str, Any]] = {}
        self.statements: dict[tuple[str, str, int], tuple[str, tuple[str, ...] | None]] = {}
        self.table_games: Bounded[str, Any] = Bounded(TABLE_GAMES)
        self.tables: Bounded[str, Any] = Bounded(TABLE_MAX)
        self.tournaments: Bounded[tuple[Hashable, ...], Any] = Bounded(TOURNAMENT_MAX)
        self._lock = threading.Lock()

    def previewed(self, flow: str) -> Bounded[str, Any]:
        """The games the live preview of ``flow`` ("games", "fifty") loaded."""
        with self._lock:
            found = self._previewed.get(flow)
            if found is None:
                found = self._previewed[flow] = Bounded(PREVIEW_GAMES, PREVIEW_HANDS)
            return found

    def forget(self) -> None:
        """Empty every memory of this app, as a new process starts."""
        for kept in (
            self.states,
            self.rescored,
            self.pages,
            self.chains,
            self.table_games,
            self.tables,
            self.tournaments,
        ):
            kept.clear()
        with self._lock:
            for previewed in self._previewed.values():
                previewed.clear()
            self.statements.clear()

    def sizes(self) -> dict[str, tuple[int, int]]:
        """How much each memory holds: (values, weight)."""
        with self._lock:
            previewed = {f"previewed.{k}": v.size() for k, v in self._previewed.items()}
        return {
            "states": self.states.size(),
            "rescored": self.rescored.size(),
            "pages": self.pages.size(),
            "table_games": self.table_games.size(),
            "tables": self.tables.size(),
            "tournaments": self.tournaments.size(),
            **previewed,
        }


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.kept"] = Kept()


def kept(app: Flask | None = None) -> Kept:
    """The memory of ``app`` (the current app by default)."""
    return (app or current_app).extensions["scorekeeper.kept"]  # type: ignore[no-any-return]


def forget(app: Flask | None = None) -> None:
    """Empty the memory of ``app`` (the current one by default), as a new process starts:
    for tests and benchmarks that measure a cold start."""
    kept(app).forget()


# ---- entries scored again ---------------------------------------------------------------------


def rescored(parts: Sequence[Any], score: Callable[[], Entry]) -> Entry:
    """The entry described by ``parts`` (the stored entry and what it is scored with), scored
    by ``score`` once and kept under a 16-byte digest of ``parts``."""
    key = hashlib.blake2b(
        json.dumps(list(parts)).encode("utf-8", "surrogatepass"), digest_size=16
    ).digest()
    memory = kept().rescored
    entry = memory.get(key, None)
    if entry is None:
        entry = score()
        memory.put(key, None, entry)
    return entry


# ---- states -----------------------------------------------------------------------------------
# Keys of ``session.info``:
_CLAIMED = "scorekeeper.claimed"  # this session bumped a version: its states wait for the commit
_OWN = "scorekeeper.own_states"  # {game id: (flushes, stamp, state)} derived by this session
_ANSWER = "scorekeeper.answer"  # {game id: (flushes, state)}: the state the last save left
_FLUSHES = "scorekeeper.flushes"
_KEPT = "scorekeeper.kept"  # the Kept the session's states go to


def stamp_of(game: Game) -> tuple[int, Any]:
    """What proves a state of ``game`` current: both move on with every change."""
    return game.version, game.updated_at


def claim(session: Session) -> None:
    """The session has bumped a game's version: states it derives from now on are its own
    until it commits."""
    session.info[_CLAIMED] = True


def _own(session: Session, game: Game) -> GameState | None:
    own = session.info.get(_OWN, {}).get(game.id)
    if own is not None and own[0] == session.info.get(_FLUSHES, 0) and own[1] == stamp_of(game):
        return own[2]  # type: ignore[no-any-return]
    return None


def keep_own(session: Session, game: Game, state: GameState) -> None:
    """Keep a state a changing session derived, for itself and for ``states`` once it commits
    (unless something is flushed after it)."""
    session.info.setdefault(_OWN, {})[game.id] = (
        session.info.get(_FLUSHES, 0),
        stamp_of(game),
        state,
    )
    session.info.setdefault(_KEPT, kept())


def state_of(game: Game, derive: Callable[[Game], GameState]) -> GameState:
    """The game's state: kept, when this version was derived before, else ``derive(game)``
    (and kept: by the session, when it is changing the game, else for everyone)."""
    session = object_session(game)
    claimed = session is not None and session.info.get(_CLAIMED)
    if session is not None and claimed:
        own = _own(session, game)
        if own is not None:
            return own
    else:
        found = kept().states.get(game.id, stamp_of(game))
        if found is not None:
            return found
    state = derive(game)
    if session is None:
        return state
    if claimed:
        keep_own(session, game, state)
    else:
        kept().states.put(game.id, stamp_of(game), state, len(state.hands))
    return state


def known_state(game: Game) -> GameState | None:
    """The state of ``game`` as read (its version), if known without reading a hand: this
    session's own or a kept one. None also after the session claimed the game, since the
    kept states are then older than what the session sees."""
    session = object_session(game)
    if session is not None:
        own = _own(session, game)
        if own is not None:
            return own
        if session.info.get(_CLAIMED):
            return None
    return kept().states.get(game.id, stamp_of(game))


def state_at(game: Game, version: int, derive: Callable[[Game], GameState]) -> GameState:
    """The state as committed at ``version``, the version this session has just claimed (so
    nobody else can change the game): this session's, a kept one, else ``derive(game)``."""
    session = object_session(game)
    own = session.info.get(_OWN, {}).get(game.id) if session is not None else None
    if (
        session is not None
        and own is not None
        and own[2].version == version
        and own[0] == session.info.get(_FLUSHES, 0)
    ):
        return own[2]  # type: ignore[no-any-return]
    found = kept().states.find(game.id, lambda state: state.version == version)
    return found if found is not None else derive(game)


def keep_answer(session: Session, game: Game, state: GameState) -> None:
    """The state a save leaves, to answer with once committed (:func:`answer`)."""
    session.info.setdefault(_ANSWER, {})[game.id] = (session.info.get(_FLUSHES, 0), state)


def answer(session: Session, game: Game) -> GameState | None:
    """The state this session's last save into ``game`` left, if nothing changed after it."""
    found = session.info.get(_ANSWER, {}).get(game.id)
    if found is None or found[0] != session.info.get(_FLUSHES, 0):
        return None
    return found[1]  # type: ignore[no-any-return]


def flushed(session: Session) -> bool:
    """Whether the session has written anything not yet committed (a kept value derived
    from what it reads now could outlive a rollback)."""
    return bool(session.info.get(_FLUSHES, 0)) or bool(session.new or session.dirty)


@event.listens_for(Session, "after_flush")
def _count_flush(session: Session, _context: Any) -> None:
    session.info[_FLUSHES] = session.info.get(_FLUSHES, 0) + 1


@event.listens_for(Session, "after_commit")
def _publish(session: Session) -> None:
    own = session.info.pop(_OWN, {})
    memory: Kept | None = session.info.pop(_KEPT, None)
    flushes = session.info.get(_FLUSHES, 0)
    if memory is not None:
        for game_id, (at, stamp, state) in own.items():
            if at == flushes:
                memory.states.put(game_id, stamp, state, len(state.hands))
    session.info.pop(_CLAIMED, None)
    session.info.pop(_ANSWER, None)


@event.listens_for(Session, "after_rollback")
def _discard(session: Session) -> None:
    for key in (_OWN, _KEPT, _ANSWER, _CLAIMED):
        session.info.pop(key, None)


# ---- rendered pages ---------------------------------------------------------------------------


def minute() -> int:
    return int(time.time() // 60)


def page(key: tuple[str, ...], stamp: Hashable) -> bytes | None:
    """A page kept under ``key`` with this stamp, made this minute and not yet ended."""
    found = kept().pages.get(key, stamp)
    if found is None or found.minute != minute() or time.time() >= found.until:
        return None
    return found.body


def keep_page(key: tuple[str, ...], stamp: Hashable, body: bytes, until: float | None) -> None:
    kept().pages.put(key, stamp, Page(minute(), body, until or float("inf")))


def chain(game_id: str) -> tuple[str, ...]:
    """The games of the evening of ``game_id`` as its page last saw them (the game alone
    before that)."""
    return kept().chains.get(game_id, None) or (game_id,)


def keep_chain(game_id: str, games: tuple[str, ...]) -> None:
    kept().chains.put(game_id, None, games)


# ---- tables -----------------------------------------------------------------------------------


def table_game_kept(game_id: str, stamp: Hashable) -> Any:
    """A table's game's facts kept with this stamp, or None."""
    return kept().table_games.get(game_id, stamp)


def table_game(game_id: str, stamp: Hashable, make: Callable[[], Any]) -> Any:
    """A table's game's facts: kept with this stamp, else ``make()`` (and kept)."""
    return kept().table_games.made(game_id, stamp, make)


def table_stats(table_id: str, stamp: Hashable, make: Callable[[], Any]) -> Any:
    """A table's statistics: kept with this stamp, else ``make()`` (and kept)."""
    return kept().tables.made(table_id, stamp, make)


# ---- tournaments ------------------------------------------------------------------------------


def tournament_view(key: tuple[Hashable, ...], stamp: Hashable, make: Callable[[], Any]) -> Any:
    """A tournament's view (``key``: its id, whether it is the director's, and the form made of
    it, if any): kept with this stamp, else ``make()`` (and kept)."""
    return kept().tournaments.made(key, stamp, make)
