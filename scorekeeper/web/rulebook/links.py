"""Where the top bar's "Referee" and "Rules" lead: on a game's pages, to the referee and the
rules of that game (its ruleset and house rules; 3 ist 50's own), elsewhere to the ruleset a
reader of the page's language most likely plays."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from flask import url_for

from ...rules import fifty
from ..words.i18n import home_ruleset


class RuleLinks(NamedTuple):
    referee: str
    rules: str


def rule_links(ruleset_id: str | None = None, options: dict[str, Any] | None = None) -> RuleLinks:
    """The two addresses for a game of ``ruleset_id`` with house rules ``options`` (None: no
    game; the reader's likely ruleset)."""
    if ruleset_id == fifty.RULESET_ID:
        return RuleLinks(url_for("referee.fifty"), url_for("rulebook.show", ruleset_id=ruleset_id))
    if ruleset_id is None:
        return RuleLinks(
            url_for("referee.page"), url_for("rulebook.show", ruleset_id=home_ruleset())
        )
    text = json.dumps(options, separators=(",", ":"), ensure_ascii=False) if options else None
    return RuleLinks(
        url_for("referee.page", ruleset=ruleset_id, options=text),
        url_for("rulebook.show", ruleset_id=ruleset_id, options=text),
    )
