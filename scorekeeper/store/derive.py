"""A Canasta game's state derived from its stored hands: each hand's score as stored
beside it (or scored again), the running totals, minimums, the dealer and the winner.

The state of a version is derived once and kept (:mod:`.cache`); ``game_state`` is what every
page, PDF and API answer asks for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased, object_session

from ..rules.games import is_cutthroat, winner
from ..rules.ruleset import PRESETS, RuleSet
from . import cache
from .entries import Entry, canonical, read_entry, resolved_ruleset, ruleset_of
from .models import Game, Hand, HandRevision
from .state import Column, Correction, GameState, HandRow, HandScore, Seat


def game_state(game: Game) -> GameState:
    """The game's state: totals, minimums, the dealer, the winner and every hand's scores;
    kept once derived for this version (:func:`.cache.state_of`)."""
    return cache.state_of(game, derive_state)


def rescore(
    game: Game, options: str, teams: Any, lone_player: int | None, stock_out: bool
) -> Entry:
    """An entry of this game that has no score stored beside it (an entry of an older engine,
    an earlier entry of a corrected hand), scored once and kept."""
    parts = [
        game.ruleset,
        game.players,
        options,
        len(game.sides),
        canonical(teams),
        lone_player,
        stock_out,
    ]

    def score() -> Entry:
        rs = resolved_ruleset(game.ruleset, game.players, options)
        return read_entry(rs, game.players, len(game.sides), teams, lone_player, stock_out)

    return cache.rescored(parts, score)


def stored_entry(game: Game, options: str, hand: Hand) -> Entry:
    """What the engine made of a stored hand: as stored beside it, or scored again."""
    kept = cache.stored_score(hand.scored)
    if kept is not None:
        return kept
    return rescore(game, options, hand.teams, hand.lone_player, bool(hand.stock_out))


def seats(game: Game) -> list[Seat]:
    """Players in seating (and dealing) order: partnerships sit interleaved, so for two sides
    A and B: A1, B1, A2, B2 (three sides of two: A1, B1, C1, A2, B2, C2)."""
    out: list[Seat] = []
    size = max((len(s.get("players") or []) for s in game.sides), default=0)
    for j in range(size):
        for c, side in enumerate(game.sides):
            names = side.get("players") or []
            if j < len(names):
                out.append(Seat(len(out), str(names[j]), c))
    return out or [Seat(0, "", 0)]


def live_corrections(game: Game) -> dict[int, list[HandRevision]]:
    """:func:`earlier_entries`, read from the database: the corrections that no later deletion
    of their hand's number ended, without the deletion records (one for every
    take-back). A game without a session: its loaded revisions."""
    session = object_session(game)
    if session is None:
        return earlier_entries(game)
    later = aliased(HandRevision)
    ended = (
        select(later.id)
        .where(
            later.game_id == HandRevision.game_id,
            later.number == HandRevision.number,
            later.kind == "deleted",
            later.id > HandRevision.id,
        )
        .exists()
    )
    query = select(HandRevision).where(
        HandRevision.game_id == game.id, HandRevision.kind == "corrected", ~ended
    )
    out: dict[int, list[HandRevision]] = {}
    for revision in session.scalars(query.order_by(HandRevision.id)):
        out.setdefault(revision.number, []).append(revision)
    return out


def earlier_entries(game: Game) -> dict[int, list[HandRevision]]:
    """Each hand's corrections, oldest first: the rows of its number after the last deletion of
    that number (an earlier hand of that number was deleted; its trail is not this hand's)."""
    out: dict[int, list[HandRevision]] = {}
    for revision in game.revisions:
        if revision.kind == "deleted":
            out.pop(revision.number, None)
        elif revision.kind == "corrected":
            out.setdefault(revision.number, []).append(revision)
    return out


def column_scores(entry: Entry, columns: int) -> list[int]:
    """What each column scored with an entry (a partner's own red threes in cutthroat)."""
    out = [0] * columns
    for t, result in enumerate(entry.result.sides):
        cols = entry.members[t] if t < len(entry.members) else []
        for k, c in enumerate(cols):
            if c >= columns:
                continue
            out[c] = result.score
            if result.player_scores is not None and len(cols) > 1 and k < len(result.player_scores):
                out[c] = result.player_scores[k]
    return out


def derive_state(game: Game) -> GameState:
    """Derive totals, minimums, the dealer and the winner from every stored hand (each one's
    score as stored beside it, or scored again)."""
    rs = ruleset_of(game)
    table = seats(game)
    totals = [0] * len(game.sides)
    rows: list[HandRow] = []
    options = canonical(game.options or {})
    earlier = live_corrections(game)
    for hand in game.hands:
        rows.append(
            hand_row(
                game,
                rs,
                table,
                totals,
                hand,
                stored_entry(game, options, hand),
                earlier.get(hand.number, []),
            )
        )
    return finish_state(game, rs, table, totals, rows)


def hand_row(
    game: Game,
    rs: RuleSet,
    table: list[Seat],
    totals: list[int],
    hand: Hand,
    entry: Entry,
    earlier: Sequence[Any],
) -> HandRow:
    """One hand's row of the state; adds its scores to ``totals`` (the totals before it)."""
    players = game.players
    cutthroat = is_cutthroat(players)
    n = len(game.sides)
    options = canonical(game.options or {}) if earlier else ""
    minimums = [rs.initial_meld_minimum(t, players) for t in totals]
    scores: list[HandScore | None] = [None] * n
    for t, (side, result) in enumerate(zip(entry.sides, entry.result.sides, strict=False)):
        cols = entry.members[t] if t < len(entry.members) else []
        base = result.score - result.items.get("red_threes", 0)
        for k, c in enumerate(cols):
            if c >= n:
                continue
            items = dict(result.items)
            score = result.score
            if result.player_scores is not None and len(cols) > 1 and k < len(result.player_scores):
                score = result.player_scores[k]
                items["red_threes"] = score - base
            totals[c] += score
            scores[c] = HandScore(
                score,
                items,
                dict(result.canastas),
                totals[c],
                minimums[c],
                side.went_out or side.concealed,
                side.concealed,
                t,
                cutthroat and len(cols) == 1,
            )
    filled = [
        s
        if s is not None
        else HandScore(0, {}, {}, totals[c], minimums[c], False, False, -1, False)
        for c, s in enumerate(scores)
    ]
    return HandRow(
        hand.number,
        hand.teams,
        hand.lone_player,
        bool(hand.stock_out),
        filled,
        table[(game.first_dealer + hand.number - 1) % len(table)],
        hand.created_at,
        hand.updated_at,
        list(entry.problems),
        list(entry.result.warnings),
        [
            Correction(
                r.entered_at,
                r.changed_at,
                column_scores(
                    rescore(game, options, r.teams, r.lone_player, bool(r.stock_out)),
                    n,
                ),
            )
            for r in earlier
        ],
    )


def finish_state(
    game: Game,
    rs: RuleSet,
    table: list[Seat],
    totals: list[int],
    rows: list[HandRow],
    skipped: int = 0,
) -> GameState:
    """The state from its rows and the totals after the last one (``skipped``: hands before
    the first of ``rows``, left out)."""
    players = game.players
    target = game.target
    columns = [
        Column(
            str(side.get("name", "")),
            [str(p) for p in side.get("players") or []],
            totals[c],
            rs.initial_meld_minimum(totals[c], players),
            max(0, target - totals[c]),
        )
        for c, side in enumerate(game.sides)
    ]
    base_rs = PRESETS.get(game.ruleset, rs)
    return GameState(
        view_id=game.view_id,
        name=game.name,
        ruleset=game.ruleset,
        ruleset_name=rs.name,
        players=players,
        options=dict(game.options or {}),
        cutthroat=is_cutthroat(players),
        house_rules=rs.options_against(base_rs),
        target=target,
        columns=columns,
        hands=rows,
        winner=winner(totals, target),
        next_dealer=table[(game.first_dealer + skipped + len(rows)) % len(table)],
        seats=table,
        version=game.version,
        created_at=game.created_at,
        updated_at=game.updated_at,
        rules=rs,
        base_rules=base_rs,
        skipped=skipped,
    )
