"""What the Canasta game page, its read-only view and its conflict page show: the board (totals,
minimums, history) and the view link's QR code."""

from __future__ import annotations

from typing import Any

from flask import request

from ...rules.scoring import item_keys
from ...store import GameState
from ..play.entry import problem_text
from ..words.i18n import ago
from ..words.names import item_labels, ruleset_title
from ..words.parameters import house_rule_lines
from .adjustments import adjustment_lines
from .chart import running_chart
from .stats import side_stats, stat_rows

# A long game shows its latest hands and a link to all of them, so the page stays light on a
# phone (issue: the game page's first load under 80 KB); short games show every hand.
HISTORY_SHOWN = 6
HISTORY_ALL_UP_TO = 8


def board_context(state: GameState) -> dict[str, Any]:
    count = len(state.hands)
    stats = side_stats(state)
    show_all = request.args.get("all") == "1" or count <= HISTORY_ALL_UP_TO
    return {
        "hands_from": 0 if show_all else count - HISTORY_SHOWN,
        "show_all": request.args.get("all") == "1",
        "state": state,
        "rules": state.rules,
        "ruleset_name": ruleset_title(state.ruleset),
        "house_rules": house_rule_lines(state.rules, state.base_rules),
        "standard_target": state.base_rules.target_for(state.players),
        "item_labels": item_labels(keys=item_keys(state.rules)),
        "item_order": item_keys(state.rules),
        "problem_text": problem_text,
        "adjustment_lines": adjustment_lines,
        "ago": ago,
        "stats": stats,
        "stat_rows": stat_rows(stats, state.rules.concealed_going_out),
        "chart": running_chart(
            [c.name for c in state.columns],
            [[s.total for s in row.scores] for row in state.hands],
            state.target,
        ),
    }
