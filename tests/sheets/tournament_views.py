"""Tournament read models built by hand for the sheet tests (no store behind them), and the
sheets' labels in a language from the real catalogues."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from flask import Flask

from scorekeeper.sheets import TournamentLabels
from scorekeeper.tournaments.model import (
    Format,
    OddCount,
    ParticipantView,
    Points,
    RoundEnd,
    RoundState,
    RoundView,
    Scoring,
    Standing,
    StandingRow,
    TableView,
    TournamentView,
)
from scorekeeper.web.sheets.tournament_labels import tournament_labels
from scorekeeper.web.words.i18n import forced_locale

#: Twelve players, with every German and Polish letter the sheets must draw, a name that is
#: markup, and one too long for any column.
NAMES = (
    "Łucja Ząbkowska",
    "Jürgen Groß",
    "<b>Anna & Ben</b>",
    "Źdźisław Ćwik",
    "Bożena Wąs",
    "Ömer Äußerlich",
    "Wolfeschlegelsteinhausenbergerdorff",
    "Ńina Śliwińska",
    "Cleo",
    "Dan",
    "Maximiliane-Wilhelmine von Hohenzoll",
    "Eve Ęlżbieta",
)
TOURNAMENT_NAME = "Frühjahrsturnier <i>Żółw</i> & Co."


def game_url(table: TableView) -> str:
    return f"https://canasta.example/games/{table.game_id}"


@contextmanager
def labels_in(app: Flask, lang: str) -> Iterator[TournamentLabels]:
    """The labels as the web layer makes them, in ``lang``; draw the sheet inside the block
    (the texts with a number translate when drawn)."""
    with app.test_request_context("/"), forced_locale(lang):
        yield tournament_labels()


def _table(
    number: int,
    sides: Sequence[Sequence[int]],
    names: Sequence[str],
    first_dealer: int,
    totals: Sequence[int] = (),
    reported: bool = False,
) -> TableView:
    return TableView(
        number=number,
        game_id=f"g{number:03d}key",
        view_id=f"v{number:03d}",
        sides=tuple(tuple(names[p] for p in side) for side in sides),
        participants=tuple(tuple(side) for side in sides),
        hands=4 if reported else 0,
        totals=tuple(totals),
        reported=reported,
        first_dealer=first_dealer,
    )


def _standings(names: Sequence[str], points: Sequence[int]) -> tuple[StandingRow, ...]:
    order = sorted(range(len(names)), key=lambda p: (-points[p], p))
    rows, rank = [], 0
    for i, p in enumerate(order):
        if i == 0 or points[p] != points[order[i - 1]]:
            rank = i + 1
        standing = Standing(p, rank, 2 if points[p] > 0 else 0, points[p], 1)
        rows.append(StandingRow(standing, names[p]))
    return tuple(rows)


def individual_view(
    players: int = 12,
    closed: bool = False,
    byes: int = 0,
    round_end: RoundEnd = RoundEnd.HANDS,
    names: Sequence[str] = NAMES,
) -> TournamentView:
    """Format individual at tables of four: round 1 seated in order (sides 0+2 against 1+3),
    the last ``byes`` players sitting out; played through (totals) when ``closed``."""
    names = [
        names[p % len(names)] if p < len(names) else f"Spieler {p + 1}" for p in range(players)
    ]
    seated = players - byes
    tables = []
    points = [0] * players
    for t in range(seated // 4):
        a, b, c, d = range(4 * t, 4 * t + 4)
        totals = (2500 + 10 * t, 1800 - 5 * t) if closed else ()
        for p, total in zip(((a, c), (b, d)), totals, strict=False):
            for q in p:
                points[q] = total
        tables.append(_table(t + 1, ((a, c), (b, d)), names, t % 4, totals, closed))
    rnd = RoundView(
        number=1,
        state=RoundState.CLOSED if closed else RoundState.PLAYING,
        tables=tuple(tables),
        byes=tuple(names[p] for p in range(seated, players)),
        started_at="2026-11-26T18:00:00Z",
    )
    return TournamentView(
        id="director-key",
        view_id="view-key",
        name=TOURNAMENT_NAME,
        ruleset="german",
        options={},
        players=4,
        format=Format.INDIVIDUAL,
        scoring=Scoring.MATCH_POINTS,
        points=Points(),
        round_end=round_end,
        round_end_value={RoundEnd.HANDS: 4, RoundEnd.TARGET: 3000, RoundEnd.MINUTES: 60}[round_end],
        odd=OddCount.BYE,
        participants=tuple(ParticipantView(p, names[p], (names[p],)) for p in range(players)),
        rounds=(rnd,),
        standings=_standings(names, points),
        provisional=not closed,
    )


def pairs_view(pairs: int = 8, rounds: int = 2) -> TournamentView:
    """Format pairs at tables of four, ``rounds`` rounds all closed (final results)."""
    players = [(NAMES[(2 * p) % 12], NAMES[(2 * p + 1) % 12]) for p in range(pairs)]
    names = [" & ".join(pair) for pair in players]
    points = [0] * pairs
    round_views = []
    for r in range(1, rounds + 1):
        tables = []
        for t in range(pairs // 2):
            a, b = (2 * t + r - 1) % pairs, (2 * t + r) % pairs
            totals = (3000 + 100 * t, 2000 + 50 * r)
            points[a] += totals[0]
            points[b] += totals[1]
            tables.append(
                TableView(
                    number=t + 1,
                    game_id=None,
                    view_id=f"r{r}t{t + 1}",
                    sides=(players[a], players[b]),
                    participants=((a,), (b,)),
                    hands=4,
                    totals=totals,
                    reported=True,
                    first_dealer=(t + r) % 4,
                )
            )
        round_views.append(RoundView(r, RoundState.CLOSED, tuple(tables)))
    return TournamentView(
        id=None,
        view_id="view-key",
        name=TOURNAMENT_NAME,
        ruleset="german",
        options={},
        players=4,
        format=Format.PAIRS,
        scoring=Scoring.POINTS,
        points=Points(),
        round_end=RoundEnd.TARGET,
        round_end_value=3000,
        odd=OddCount.BYE,
        participants=tuple(ParticipantView(p, names[p], players[p]) for p in range(pairs)),
        rounds=tuple(round_views),
        standings=_standings(names, points),
        provisional=False,
    )
