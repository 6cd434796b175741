"""Referee questions: meld, initial meld, taking the discard pile, going out (docs/rulebook.md
§2–§5).

Each answer is a :class:`Verdict`: allowed or not, the reasons as problem codes (positive
answers carry a reason too, so the reader sees which rule applied), and the facts the question
is about (a meld's points, the minimum and what counts toward it, one way to take the pile…).

>>> from ..ruleset import get_ruleset
>>> from ..cards import parse_cards
>>> melds = [parse_cards("KKK2")[0], parse_cards("444")[0]]
>>> v = initial_meld(get_ruleset("german"), 4, 2000, melds)
>>> v.allowed, v.required, v.counted
(True, 90, 95)

The questions live by idea: the verdict type (:mod:`.verdict`), melds and the initial meld
(:mod:`.melding`), the discard pile (:mod:`.pile`) and going out (:mod:`.going_out`); every
name is importable from here.
"""

from .going_out import go_out
from .melding import best_initial_melds, initial_meld, join_melds, meld
from .pile import discard_pile
from .verdict import RULE_OF_CODE_PREFIX, Verdict, rule_anchor

__all__ = [
    "RULE_OF_CODE_PREFIX",
    "Verdict",
    "best_initial_melds",
    "discard_pile",
    "go_out",
    "initial_meld",
    "join_melds",
    "meld",
    "rule_anchor",
]
