"""What every table dispute answers: the :class:`Ruling`, the questions (:data:`KINDS`) and
the seed paragraphs each ruleset's ruling rests on (:data:`SOURCES`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..problems import Problem

#: The referee questions of this module, by the path after ``/api/v1/referee/``.
KINDS: tuple[str, ...] = (
    "partner-permission",
    "end-of-stock",
    "black-three-block",
    "red-three-from-pile",
    "three-is-fifty-deal",
    "two-player-draw",
)

#: The seed files (``../shared/seeds``), by their number.
SEED_FILES: dict[str, str] = {
    "000": "000_33025d4827e4c068.txt",
    "001": "001_ec1406dbe3488249.txt",
    "002": "002_4e8fcc51c2302e35.txt",
    "003": "003_03884858e0794d50.txt",
}


@dataclass(frozen=True)
class Source:
    """One paragraph of a seed: its number (``"000"``) and its line (1-based)."""

    seed: str
    line: int

    @property
    def file(self) -> str:
        return SEED_FILES[self.seed]

    def __str__(self) -> str:
        return f"seed {self.seed}:{self.line}"

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.file, "line": self.line}


def _src(*refs: str) -> tuple[Source, ...]:
    """``"000:125"`` → Source("000", 125)."""
    out = []
    for ref in refs:
        seed, line = ref.split(":")
        out.append(Source(seed, int(line)))
    return tuple(out)


#: Where each ruleset's seed states each rule (a ruleset missing from a kind's table has no
#: such rule in its seed). Keys: question → ruleset id → seed paragraphs.
SOURCES: dict[str, dict[str, tuple[Source, ...]]] = {
    "partner-permission": {
        "german": _src("000:125"),
        "classic": _src("002:248", "002:250", "002:252"),
        "american": _src("002:51", "002:53", "002:55"),
    },
    "end-of-stock": {
        "german": _src("000:133", "000:134"),
        "classic": _src("002:254", "002:256", "002:258", "002:260"),
        "american": _src("002:59", "002:61", "002:63", "002:65"),
        "polish": _src("003:114", "003:80"),
    },
    "two-player-draw": {
        "classic": _src("002:3", "002:127", "002:129", "002:131", "002:133"),
        "polish": _src("003:27", "003:29", "003:44"),
    },
    "black-three-block": {
        "german": _src("000:85", "000:97", "000:114"),
        "classic": _src("002:208"),
        "american": _src("002:208"),
        "polish": _src("003:104", "003:100"),
    },
    "red-three-from-pile": {
        "polish": _src("003:80"),
        "german": _src("000:108", "000:91"),
        "classic": _src("002:258"),
        "american": _src("002:278", "002:39"),
    },
    "three-is-fifty-deal": {
        "three-is-fifty": _src("001:22", "001:24", "001:26", "001:30", "001:65"),
    },
}


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to one dispute.

    ``kind``: the question (:data:`KINDS`). ``allowed``: its yes or no (each question's
    docstring says what it answers). ``reasons``: problem codes, the first the ruling itself.
    ``facts``: plain JSON values. ``sources``: the seed paragraphs it rests on.
    """

    kind: str
    allowed: bool
    reasons: tuple[Problem, ...]
    facts: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[Source, ...] = ()

    def body(self) -> dict[str, Any]:
        """The JSON answer, problems still :class:`Problem` objects."""
        return {
            "allowed": self.allowed,
            "reasons": list(self.reasons),
            **dict(self.facts),
            "sources": [s.as_dict() for s in self.sources],
        }


def sources_for(kind: str, ruleset_id: str) -> tuple[Source, ...]:
    return SOURCES.get(kind, {}).get(ruleset_id, ())
