"""Every word the tournament sheets print (:mod:`.tournament` draws them), already translated by
the web layer: plain strings, and small functions for the texts that hold a number (Polish has
three plural forms, so "3 stoły" and "5 stołów" come whole from the caller). Nothing here knows
Flask, Babel or reportlab."""

# No ``from __future__ import annotations`` here: as texts, ``dataclasses`` would check each
# field's annotation three times over (ClassVar? InitVar? KW_ONLY?) as it makes the classes,
# at every start (docs/measurements.md, "Third round"). A name defined later is quoted.

from collections.abc import Callable
from dataclasses import dataclass

from .model import SheetLabels


@dataclass(frozen=True)
class TournamentLabels:
    """The words of the tournament sheets in one language, and its number format."""

    #: The score pad on each table card: its column headings, "No.", "Dealer", and the footer's
    #: "Page {page} of {pages}" of every tournament sheet.
    pad: SheetLabels
    #: The locale's number format (de 5.000, pl 5 000, en 5,000; negatives with U+2212).
    format_number: Callable[[int], str]
    seating: str  #: heading of the seating list, "Sitzplan"
    proposal: str  #: beside it while the round is only proposed: "Vorschlag, nicht bestätigt"
    table_card: str  #: kicker of a table card, "Tischkarte"
    table: str  #: "Tisch": the column of table numbers, and above the large number on a card
    round: Callable[[int], str]  #: "Runde 3"
    table_number: Callable[[int], str]  #: "Tisch 7" (the list of who sits where)
    side: Callable[[int], str]  #: a side (score column) by its number from 1: "Partei 1"
    #: The four seats of a table of four in dealing order (its table of two: the first and the
    #: third), in full on the table card ("Nord") and short in the lists ("N").
    compass: tuple[str, str, str, str]
    compass_short: tuple[str, str, str, str]
    seat: Callable[[int], str]  #: a seat of a table of 3 or 6 by its number from 1: "Platz 2"
    first_dealer: str  #: legend of the mark beside the first dealer, "gibt zuerst"
    byes: str  #: "Spielfrei" (the participants who sit the round out)
    sits_out: str  #: "spielfrei", where a bye is in the list of who sits where
    who_sits_where: str  #: heading of that list, by name, "Wer sitzt wo"
    scan: str  #: under the QR code: "Scannen und die Spiele eintragen"
    hands: Callable[[int], str]  #: round end: "4 Spiele"
    target: Callable[[int], str]  #: round end: "bis 3.000 Punkte"
    minutes: Callable[[int], str]  #: round end: "60 Minuten"
    players_count: Callable[[int], str]  #: "12 Spieler"
    pairs_count: Callable[[int], str]  #: "8 Paare"
    tables_count: Callable[[int], str]  #: "3 Tische"
    standings: str  #: heading of the standings while the tournament goes on, "Tabelle"
    results: str  #: heading once no round is open, "Ergebnisse" (not "final": more may come)
    provisional: str  #: the standings' mark while tables play, "Vorläufig"
    provisional_note: str  #: beside it: "Es wird noch gespielt: …"
    after_round: Callable[[int], str]  #: "nach Runde 3"
    rank: str  #: "Platz"
    player: str  #: a participant of format individual, "Spieler"
    pair: str  #: a participant of format pairs, "Paar"
    match_points: str  #: "Matchpunkte"
    points: str  #: "Punkte"
    played: str  #: tables played, "Gespielt"
    round_results: str  #: heading of the results of every table, "Ergebnisse der Runden"
    round_column: str  #: "Runde" (column)
    sides_column: str  #: "Parteien" (column)
    result_column: str  #: "Ergebnis" (column of the totals)
