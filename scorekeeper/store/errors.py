"""What a change of a stored game can raise: exceptions that carry data (the problems, the
versions) for the web layer to turn into a status and a sentence in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rules.problems import Problem


class StoreError(Exception):
    """Base of the errors a change of a game can raise."""


class GameProblems(StoreError):
    """The input breaks a rule or cannot be read; nothing was stored.

    ``status`` is 400 when any problem is about the shape of the request (``request.*``),
    else 422 -- the same split as ``POST /api/v1/score``.
    """

    def __init__(self, problems: Sequence[Problem], status: int | None = None):
        super().__init__("; ".join(p.code for p in problems))
        self.problems = list(problems)
        if status is None:
            status = 400 if any(p.code.startswith("request.") for p in problems) else 422
        self.status = status


class VersionConflict(StoreError):
    """The game changed since the client read it (``version`` is stale): HTTP 409."""

    def __init__(self, given: int, current: int | None):
        super().__init__(f"version {given} is stale (current {current})")
        self.given = given
        self.current = current


class HandNotFound(StoreError):
    """There is no hand with that number in the game: HTTP 404."""

    def __init__(self, number: Any):
        super().__init__(f"no hand {number!r}")
        self.number = number


class NotAllowed(StoreError):
    """The key used may not do this (a side's key asked to change saved hands, or another
    side's part): HTTP 403 with the problem ``code``."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


class PartConflict(StoreError):
    """A part was sent for a hand that is no longer open (it was saved meanwhile): HTTP 409;
    the answer shows the parts as they are now and what was saved."""

    def __init__(self, code: str, hand: int, open_hand: int):
        super().__init__(f"{code}: hand {hand}, open {open_hand}")
        self.code = code
        self.hand = hand
        self.open_hand = open_hand
