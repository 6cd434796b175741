"""The pages' Jinja environment: Flask's, with each template's globals a plain ``dict``.

Jinja gives every template its globals as a ``ChainMap`` over the environment's, and copies
them into a new ``dict`` for every render, every ``{% include %}`` and every ``{% import %}``:
copying a ``ChainMap`` of our 30 globals goes through Python for each name (about 10 µs a
render on this machine, a tenth of the live preview's fragment). Here a template takes a
``dict`` of the environment's globals and its own, which Python copies in one step. The
``ChainMap`` also let a global added later reach the templates loaded before: here a change
to the environment's globals drops the loaded templates instead, so the next render loads
them with the change (globals are set while the app is made, before any template loads).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from flask import current_app
from flask.templating import Environment


class Globals(dict[str, Any]):
    """The environment's globals: any change drops the templates loaded with the old ones."""

    def __init__(self, environment: PageEnvironment, values: dict[str, Any]) -> None:
        super().__init__(values)
        self.environment = environment

    def _changed(self) -> None:
        cache = self.environment.cache
        if cache is not None:
            cache.clear()

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self._changed()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._changed()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def setdefault(self, key: str, default: Any = None) -> Any:
        found = super().setdefault(key, default)
        self._changed()
        return found

    def pop(self, key: str, *default: Any) -> Any:
        found = super().pop(key, *default)
        self._changed()
        return found

    def popitem(self) -> tuple[str, Any]:
        found = super().popitem()
        self._changed()
        return found

    def clear(self) -> None:
        super().clear()
        self._changed()

    def __ior__(self, other: Any) -> Globals:  # type: ignore[override,misc]
        super().__ior__(other)
        self._changed()
        return self


class PageEnvironment(Environment):
    """Flask's environment, whose templates take their globals as a plain ``dict``."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self.globals = Globals(self, self.globals)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **d} if d else dict(self.globals)


def render_fragment(name: str, **context: Any) -> str:
    """The template ``name`` rendered with ``context`` and the environment's globals only.

    For a small fragment sent on every keystroke (a live preview) whose template reads nothing
    of a page's context: Flask's ``render_template`` first runs every context processor (the
    request, session and ``g`` proxies, the reader's language again, the CSRF token's
    function, the offline release), then the render signals; together about a tenth of the
    fragment's cost, for names the fragment never reads. A template rendered here that reads
    one of them gets an undefined value, so a page uses ``render_template``."""
    template = current_app.jinja_env.get_template(name)
    return template.render(context)
