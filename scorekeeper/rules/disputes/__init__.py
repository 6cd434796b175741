"""Table disputes the seeds settle that are no question of cards alone: the partner's "may I go
out?", the end of the stock (red threes as the last cards, the pile when the stock is empty),
the black three that stops the pile for one turn, the red three taken with the pile, the
two-player draw, and the deal and turn order of "3 ist 50".

Each question answers a :class:`Ruling`: ``allowed`` (what it means is said per question),
the reasons as problem codes (every answer names the rule it rests on, the web layer words it
and quotes the rules page), the facts of the question, and ``sources``: the seed paragraphs
(file and line, one line a paragraph) the ruling rests on for that ruleset. A ruleset whose
seed has no such rule says so and what applies instead.

Only ruleset parameters decide (:class:`~..ruleset.RuleSet`), so house rules are covered.

>>> from ..cards import Card
>>> from ..ruleset import get_ruleset
>>> r = partner_permission(get_ruleset("german"), 4, answer="no")
>>> r.allowed, r.facts["must_go_out"], r.facts["may_go_out"], r.sources[0].line
(False, False, False, 125)
>>> r = end_of_stock(get_ruleset("classic"), 4, stock=1, drawn=[Card("3r")])
>>> r.allowed, r.facts["hand_ends"], r.facts["may_meld"], r.facts["may_discard"]
(False, True, False, False)

One module a ruling family: the shared ruling type and the seed paragraphs (:mod:`.ruling`),
the partner's permission (:mod:`.permission`), the end of the stock and the two-player draw
(:mod:`.stock`), the black three and the red three on the pile (:mod:`.pile`) and the deal of
"3 ist 50" (:mod:`.deal`); every name is importable from here.
"""

from .deal import FIFTY_QUESTIONS, fifty_deal
from .permission import partner_permission
from .pile import black_three_block, red_three_from_pile
from .ruling import KINDS, SEED_FILES, SOURCES, Ruling, Source, sources_for
from .stock import end_of_stock, two_player_draw

__all__ = [
    "FIFTY_QUESTIONS",
    "KINDS",
    "SEED_FILES",
    "SOURCES",
    "Ruling",
    "Source",
    "black_three_block",
    "end_of_stock",
    "fifty_deal",
    "partner_permission",
    "red_three_from_pile",
    "sources_for",
    "two_player_draw",
]
