"""The readings: where the source rules (``../shared/seeds``) are unclear, what this
scorekeeper counts, stated on the ruleset's rules page with the source's own words.

Each reading is an item of the rules page (keys in :data:`scorekeeper.rules.explain.ITEM_PARAMS`,
so a house rule that changes it is marked). The numbers come from the :class:`RuleSet`; the
quotes are the words of the source each preset was taken from (docs/rulebook.md's table of sources),
kept in the source's language.
"""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _
from flask_babel import ngettext

from ...rules.ruleset import RuleSet
from ..words.i18n import number

#: The source's words behind each reading, by preset (docs/rulebook.md: german seed 000, polish seed
#: 003, classic seed 002). A preset without a quote states the reading without one.
SOURCE_QUOTES: dict[str, dict[str, str]] = {
    "german": {
        "thresholds": "„1.500 bis 2.999 | 90 Punkte“, „Über 3.000 | 120 Punkte“ (seed 000)",
        "black_threes": "„Joker dürfen in dieser Meldung jedoch nicht verwendet werden“ (seed 000)",
        "tie": "„Gewonnen hat am Ende die Partei, die als erste 5.000 Punkte erreicht“ (seed 000)",
    },
    "polish": {
        "thresholds": "„50 – jeśli dana strona ma od 0 do 1495 punktów“, "
        "„90 – jeśli dana strona ma od 1500 do 2995 "
        "punktów“ (seed 003)",
        "black_threes": "„możliwe jest zameldowanie trzech lub czterech czarnych "
        "trójek“ (seed 003)",
        "tie": "„Zwycięzcą jest ta strona, która pierwsza zdobyła 5000 punktów“ (seed 003)",
        "wild_canasta": "„Dzika kanasta to kanasta złożona z samych dzikich "
        "kart“, „Kanasta to zbiór co najmniej siedmiu kart“ "
        "(seed 003)",
        "concealed": "„wyłożenie wszystkich kart z ręki w pierwszym "
        "wyłożeniu: 200 punktów“ … „jeśli gracz "
        "ułoży przy tym co najmniej jedną kanastę“; "
        "„Rozdanie kończy się … jeśli dana strona ma już "
        "ułożoną wymaganą liczbę kanast“ (seed 003)",
        "black_three_penalty": "„każdą pozostałą na ręce czarną trójkę: -100 punktów“ (seed 003)",
        "not_melded": "„Zamrożenie stosu odkrytego ma miejsce wtedy, gdy znajduje się "
        "na nim dzika karta lub czerwona trójka“ (seed 003)",
        "stock": "„W takiej sytuacji koniec rozdania następuje automatycznie“ (seed 003)",
        "red_three_pile": "„nie jest w jej miejsce ciągnięta inna karta“ (seed 003)",
    },
    "classic": {
        "tie": "“the first side to reach 5,000 points wins” (docs/rulebook.md §4, seed 002)",
    },
}


def _quoted(rs: RuleSet, key: str) -> str:
    quote = SOURCE_QUOTES.get(rs.id, {}).get(key)
    return " " + _("The source says: %(quote)s.", quote=quote) if quote else ""


def add_readings(rs: RuleSet, counts: list[int], add: Callable[..., None]) -> None:
    """Add the readings of ``rs`` to a rules page (``add(key, text)`` as in rule_items)."""
    reading = _("A reading:")

    # docs/rulebook.md §3: the tables name ranges with gaps and overlaps at their edges.
    rows = [
        (t, m) for t, m in rs.minimum_table_for(counts[0] if len(counts) == 1 else None) if t > 0
    ]
    if rows:
        edges = ", ".join(
            _("exactly %(score)s points: %(minimum)s", score=number(t), minimum=number(m))
            for t, m in rows
        )
        add(
            "initial-meld.reading_thresholds",
            " ".join(
                [
                    reading,
                    _(
                        "every step of the minimum starts at the score named first in its row, "
                        "so a side with %(edges)s. Scores between two rows (a total such as "
                        "1,497 where house rules allow it) take the lower row.",
                        edges=edges,
                    ),
                ]
            )
            + _quoted(rs, "thresholds"),
        )

    # docs/rulebook.md §5: who finds the pile frozen.
    if rs.pile_frozen_until_melded:
        add(
            "discard-pile.not_melded",
            _(
                "For a side that has not melded yet the pile is always frozen: it takes the pile "
                "only with a natural pair of the top card's rank, and reaches its minimum with the "
                "top card and cards from hand."
            ),
        )
    else:
        add(
            "discard-pile.not_melded",
            " ".join(
                [
                    reading,
                    _(
                        "only a wild card or a red three freezes the pile, so a side that has not "
                        "melded "
                        "takes an unfrozen pile like any other side (a pair, one natural card and "
                        "a wild "
                        "card); it still reaches its minimum with the top card and cards from hand."
                    ),
                ]
            )
            + _quoted(rs, "not_melded"),
        )

    # docs/rulebook.md §2: a wild canasta of more than seven cards.
    if rs.allows_wild_canasta():
        add(
            "melds.reading_wild_canasta",
            " ".join(
                [
                    reading,
                    _(
                        "a wild canasta is at least %(size)s wild cards, like any canasta: eight "
                        "or more wild "
                        "cards laid together are one wild canasta worth %(bonus)s.",
                        size=number(rs.canasta_size),
                        bonus=number(rs.wild_canasta_bonus),
                    ),
                ]
            )
            + _quoted(rs, "wild_canasta"),
        )

    # docs/rulebook.md §2: black threes when going out.
    add(
        "melds.reading_black_threes",
        " ".join(
            [
                reading,
                _(
                    "no wild card at all goes into a meld of black threes, neither a joker nor a "
                    "two; it is "
                    "the last meld of a player going out and never a canasta."
                ),
            ]
        )
        + _quoted(rs, "black_threes"),
    )

    # docs/rulebook.md §4 with seed 003: concealed going out where two canastas are needed.
    if any(rs.canastas_needed(n) > 1 for n in counts):
        if rs.concealed_needs_all_canastas:
            text = _(
                "going out concealed is going out: it needs every canasta the side needs "
                "to go out (with 2 canastas needed, both), at least one of them the "
                "player's own."
            )
        else:
            text = _(
                "going out concealed needs only one canasta of the player's own, even "
                "where going out otherwise needs more."
            )
        add("going-out.reading_concealed", " ".join([reading, text]) + _quoted(rs, "concealed"))

    # docs/rulebook.md §4: the black-three penalty replaces the card's value.
    if rs.black_three_in_hand_penalty != rs.black_three_value:
        add(
            "scoring.reading_black_three",
            " ".join(
                [
                    reading,
                    ngettext(
                        "a black three left in hand costs %(num)s in all, not %(num)s plus its "
                        "value of "
                        "%(value)s.",
                        "a black three left in hand costs %(num)s in all, not %(num)s plus its "
                        "value of "
                        "%(value)s.",
                        rs.black_three_in_hand_penalty,
                        value=number(rs.black_three_value),
                    ),
                ]
            )
            + _quoted(rs, "black_three_penalty"),
        )

    # The disputes the referee settles (scorekeeper.rules.disputes), where a seed is open.
    if not rs.stock_out_pile:
        # seed 003:114 ends the hand when a player cannot draw; it names no pile instead.
        add(
            "going-out.reading_stock",
            " ".join(
                [
                    reading,
                    _(
                        "with the stock used up the hand ends at once; nobody goes on by taking "
                        "the discard pile, and a red three drawn as the last card ends it too."
                    ),
                ]
            )
            + _quoted(rs, "stock"),
        )
    if not rs.threes_by_colour and SOURCE_QUOTES.get(rs.id, {}).get("red_three_pile") is None:
        # seed 000:108, 002:258: a replacement only for a red three drawn from the stock.
        add(
            "red-threes.reading_from_pile",
            " ".join(
                [
                    reading,
                    _(
                        "the source gives a replacement card only for a red three drawn from "
                        "the stock, so one taken with the discard pile gets none."
                    ),
                ]
            ),
        )

    # docs/rulebook.md §4: "If both sides pass the target on the same hand, the higher total wins."
    add(
        "overview.reading_tie",
        " ".join(
            [
                reading,
                _(
                    "if the sides end a hand level at or above the target, nobody has won yet: "
                    "play "
                    "another hand."
                ),
            ]
        )
        + _quoted(rs, "tie"),
    )
