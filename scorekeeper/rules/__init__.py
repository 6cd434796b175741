"""The Canasta rules engine: pure Python, no web, database or PDF imports (a test proves it)."""

from .cards import Card, parse_cards
from .melds import Meld, check_meld
from .problems import Problem, RulesError
from .ruleset import PRESETS, RULESET_IDS, RuleSet, get_ruleset, resolve_ruleset
from .scoring import HandResult, QuickEntry, SideEntry, SideScore, score_hand

__all__ = [
    "PRESETS",
    "RULESET_IDS",
    "Card",
    "HandResult",
    "Meld",
    "Problem",
    "QuickEntry",
    "RuleSet",
    "RulesError",
    "SideEntry",
    "SideScore",
    "check_meld",
    "get_ruleset",
    "parse_cards",
    "resolve_ruleset",
    "score_hand",
]
