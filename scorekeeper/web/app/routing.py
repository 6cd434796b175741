"""URL rules whose builders are written when first used.

Werkzeug turns every rule into a matcher (a regular expression) and two URL builders (Python
functions it generates and compiles, for ``url_for`` with and without extra query arguments).
The builders are most of the cost of adding a rule, and the app has about a hundred rules: that
was a large part of building the app at every server start, while a page only ever builds the
URLs of a few endpoints. :class:`Rule` compiles a builder on the first ``url_for`` that needs
it and keeps it on the rule from then on; matching a request is untouched.

Two threads building the same URL at once may both compile it; the two functions are the same,
and either one is kept. ``tests/web/app/test_routing.py`` holds the URLs equal to Werkzeug's own
rules for every endpoint, and notices if a Werkzeug release stops asking for builders this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule as WerkzeugRule

Builder = Callable[..., tuple[str, str]]


class Rule(WerkzeugRule):
    """A Werkzeug rule that compiles each of its URL builders on first use."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        attribute = "_build_unknown" if append_unknown else "_build"
        eager = super()._compile_builder

        def build_first(rule: Rule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            builder: Builder = eager(append_unknown).__get__(rule, None)
            setattr(rule, attribute, builder)  # every later url_for calls it directly
            return builder(*args, **kwargs)

        return build_first

    @property
    def builders_compiled(self) -> int:
        """How many of the two builders have been compiled so far (for the tests)."""
        return sum(
            getattr(getattr(self, name, None), "__name__", "") != "build_first"
            for name in ("_build", "_build_unknown")
        )
