"""Problems are data: a stable code, where it happened, and the numbers a message needs.

The rules layer never builds sentences; the web, CLI and PDF layers turn ``code`` and
``params`` into a message in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth saying) about a request, hand or move.

    >>> Problem("meld.too_small", "teams[0].melds[1]", {"size": 2})
    Problem('meld.too_small', 'teams[0].melds[1]', {'size': 2})
    """

    code: str
    where: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Problem({self.code!r}, {self.where!r}, {self.params!r})"

    def at(self, where: str) -> Problem:
        """The same problem, placed under ``where`` (a path prefix)."""
        inner = self.where
        if not inner:
            path = where
        elif inner.startswith("["):
            path = where + inner
        else:
            path = f"{where}.{inner}"
        return Problem(self.code, path, dict(self.params))

    def as_dict(self) -> dict[str, Any]:
        """JSON shape without the message (the caller adds it)."""
        return {"code": self.code, "where": self.where, "params": dict(self.params)}


class RulesError(ValueError):
    """Raised by constructors such as :meth:`Card.from_str` on bad input."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.code for p in problems))
        self.problems = problems
