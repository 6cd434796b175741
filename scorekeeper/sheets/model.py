"""What a score sheet shows, as plain frozen dataclasses.

The web layer fills these from a stored game; the renderer in :mod:`scorekeeper.sheets.pdf`
only lays them out. Nothing here knows Flask, Babel or the database: every word arrives
already translated (:class:`SheetLabels`) and every number is formatted by the caller's
``format_number`` (de ``5.000``, pl ``5 000``, en ``5,000``; negatives with U+2212).

User text (game title, side and player names, notes, house rules) is printed literally:
``<b>Ala & Ola</b>`` appears on the sheet exactly so.
"""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Callable
from dataclasses import dataclass

#: How the sheet groups the items of :attr:`SheetCell.items` (the keys of
#: ``scorekeeper.rules.scoring.ITEM_KEYS``, the one list of them): the full layout prints the
#: bonuses, then the cards; the compact (three-column-group) layout adds up the bonuses under
#: "bonus" and melded cards with the signed in-hand count under "cards".
BONUS_KEYS: tuple[str, ...] = ("canasta_bonus", "red_threes", "going_out")
CARD_KEYS: tuple[str, ...] = ("melded_cards", "in_hand")
#: The items of neither group: American black threes, penalties and special hands, and a
#: side's adjustments. Each gets a labelled column of its own, printed only when a hand of the
#: sheet has it other than zero (most games have none), so every row adds up to its score.
EXTRA_KEYS: tuple[str, ...] = ("black_threes", "penalties", "special_hand", "adjustments")


@dataclass(frozen=True)
class SheetColumn:
    """One column group: a side (partnership) or, in 3-player cutthroat, one player."""

    name: str  #: user text, e.g. "Wir" or "<b>Ala & Ola</b>", printed literally
    players: tuple[str, ...] = ()  #: player names, user text


@dataclass(frozen=True)
class SheetCell:
    """One column group in one hand row.

    ``items`` holds the score items the rules engine returned, signed as they count
    (``in_hand`` is negative, e.g. ``-35``); a missing key prints blank (quick entry).
    """

    items: dict[str, int]  #: keys from rules.scoring.ITEM_KEYS; absent -> blank cell
    score: int  #: the hand score
    total: int  #: running total after this hand
    minimum: int  #: initial-meld minimum this side had FOR this hand
    went_out: bool = False
    concealed: bool = False


@dataclass(frozen=True)
class SheetHand:
    """One hand (deal): one cell per column group, plus an optional note line."""

    number: int
    cells: tuple[SheetCell, ...]  #: one per column, in the order of ScoreSheet.columns
    note: str = ""  #: e.g. "stock ran out" (translated) or cutthroat partnership info
    dealer: str = ""  #: who dealt this hand, user text (empty: no dealer column)


@dataclass(frozen=True)
class SheetLabels:
    """Every word the sheets print, already translated.

    ``page_of`` holds the placeholders ``{page}`` and ``{pages}``, e.g.
    ``"Seite {page} von {pages}"`` (replaced literally, so other braces are harmless).
    A column heading may contain a soft hyphen (U+00AD) where it may break.
    """

    title: str  #: kind of document above the game's name, e.g. "Canasta-Spielbericht"
    ruleset: str  #: "Regeln"
    house_rules: str  #: "Hausregeln"
    date: str  #: "Datum"
    players: str  #: "Spieler"
    target: str  #: "Ziel"
    hand: str  #: heading of the hand-number column, short: "Nr."
    melded_cards: str  #: "Ausgelegte Karten"
    canasta_bonus: str  #: "Canastas"
    red_threes: str  #: "Rote Dreien"
    going_out: str  #: "Ausmachen"
    in_hand: str  #: cards left in hand, "Handkarten"
    bonus: str  #: compact layout: canastas + red threes + going out, "Prämien"
    cards: str  #: compact layout: melded cards + cards in hand, "Karten"
    score: str  #: the hand's score, "Spiel" (never just "Hand": that reads as cards in hand)
    total: str  #: running total, "Stand"
    minimum: str  #: initial-meld minimum, "Minimum"
    concealed: str  #: legend for a concealed going out, "verdeckt ausgemacht"
    final_score: str  #: row of final totals, "Endstand"
    winner: str  #: "Sieger"
    margin: str  #: "Vorsprung"
    no_winner: str  #: printed when ScoreSheet.winner is None, e.g. "Spiel läuft noch"
    minimum_table: str  #: heading of the blank pad's minimum table, "Mindestauslage"
    scoring_summary: str  #: heading of the blank pad's scoring summary, "Punktwerte"
    page_of: str  #: "Seite {page} von {pages}"
    pad_title: str = ""  #: heading of the blank pad, e.g. "Canasta-Block"; empty: ``title``
    chart: str = ""  #: heading of the chart of running totals, "Verlauf der Punktestände"
    black_threes: str = "Black threes"  #: laid out, American: "Schwarze Dreien"
    penalties: str = "Penalties"  #: "Strafpunkte"
    special_hand: str = "Special hand"  #: "Sonderblatt"
    adjustments: str = "Adjustment"  #: points agreed at the table, "Zu-/Abschlag"
    dealer: str = "Dealer"  #: heading of the dealer column, "Geber"
    statistics: str = "Statistics"  #: heading of the end-of-game statistics, "Statistik"


@dataclass(frozen=True)
class SheetStatistic:
    """One row of the statistics under a finished game: "Canastas", ("2 natural", "1 mixed")."""

    label: str
    values: tuple[str, ...]  #: one per column of the sheet, in column order


@dataclass(frozen=True)
class ScoreSheet:
    """A played (or running) game, to print."""

    title: str  #: user text, e.g. the game's name
    ruleset_name: str  #: e.g. "Canasta (deutsche Regeln)"
    house_rules: tuple[str, ...]  #: translated lines, e.g. "Zwei: 20 statt 50"
    date_text: str  #: locale-formatted date
    target: int
    columns: tuple[SheetColumn, ...]
    hands: tuple[SheetHand, ...]
    winner: int | None  #: index into columns, or None
    margin: int | None
    labels: SheetLabels
    format_number: Callable[[int], str]  #: locale number formatter (U+2212 for negatives)
    #: A game of minus points (3 ist 50): every column group prints only the game's points and
    #: the running total, whatever the number of groups; the caller names the lowest as winner.
    minus_points: bool = False
    #: Printed after the target label instead of ``target`` (e.g. "after 5 games");
    #: an empty string leaves the target line out. None: ``format_number(target)``.
    target_text: str | None = None
    #: The end-of-game statistics, as the game page shows them: one row per figure, its label
    #: and one text per column (translated and formatted); empty: none printed.
    statistics: tuple[SheetStatistic, ...] = ()


@dataclass(frozen=True)
class BlankSheet:
    """An empty pad to fill in by pen, with the ruleset's reference tables printed on it."""

    ruleset_name: str
    columns: int  #: column groups to print (2 sides; 3 for cutthroat)
    rows: int  #: empty hand rows (about 20 fit on one page)
    minimum_table: tuple[tuple[str, str], ...]  #: ("0 – 1.495", "50") rows, formatted
    scoring_summary: tuple[tuple[str, str], ...]  #: ("Natürlicher Canasta", "500") rows
    target: int
    labels: SheetLabels
    format_number: Callable[[int], str]  #: locale number formatter (U+2212 for negatives)
    house_rules: tuple[str, ...] = ()  #: translated lines, printed like on the score sheet
