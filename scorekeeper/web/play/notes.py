"""The notes a form shows under its fields: problems (the entry cannot be saved like this),
warnings and information, in the reader's language, by the slot of the field they belong to."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class NoteKind(StrEnum):
    """What a note under a field says (also its CSS class)."""

    PROBLEM = "problem"
    """The entry breaks a rule or cannot be read: it cannot be saved like this."""
    WARNING = "warning"
    """Allowed, but probably not what was meant (the rules engine's warnings)."""
    INFO = "info"
    """What the field counts as, for the scorer to check (a meld's points, a canasta)."""


@dataclass(frozen=True)
class Note:
    """One line shown under a field."""

    kind: NoteKind
    text: str


class Notes(dict[str, list[Note]]):
    """The notes of a form by slot (the field they belong to; see ``_fields.html``); a slot
    without notes has none (``notes[slot]`` is empty, and stays out of the dict)."""

    def __missing__(self, slot: str) -> list[Note]:
        return []

    def add(self, slot: str, text: str, kind: NoteKind = NoteKind.PROBLEM) -> None:
        notes = self.setdefault(slot, [])
        if all(n.text != text for n in notes):
            notes.append(Note(kind, text))

    def texts(self, slot: str) -> list[str]:
        return [n.text for n in self.get(slot, [])]
