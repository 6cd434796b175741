"""What the season sheet of a table shows (:mod:`.season` draws it): plain text, already
translated and formatted by the web layer."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """One table of the sheet: a heading, the column headings and the rows (text only; the
    first column is a name, the others figures)."""

    title: str
    head: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class SeasonSheet:
    """The season sheet of a table: its title, subtitle and footer, and its tables."""

    title: str
    subtitle: str
    footer: str
    sections: list[Section] = field(default_factory=list)
