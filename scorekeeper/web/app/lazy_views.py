"""Every area's routes registered at start, the view modules of most areas imported after it.

A server's first answer is the start page, which needs the start page's own module (and the
game pages' it reads its lists from) and no other area's views. Importing every area's module
before listening only to register its routes was the largest part of what the app's own
modules cost a start (docs/measurements.md, "Start to the first 200"). So:

- :func:`register` registers each area's blueprint as before when its module is imported
  already or its routes are not known yet; it then writes what it registered to :data:`FILE`
  (the rule, endpoint, methods and options of every rule, and the ``module:function`` of its
  view, for each blueprint that holds nothing but routes);
- at the next start, each such blueprint is registered from :data:`FILE` without its module:
  the same rules in the same order, the same endpoints (``url_for`` builds every URL from the
  start), a stand-in blueprint of the same name and prefix (``request.blueprint``, the CSRF
  exemptions of the JSON API), each endpoint's view a :class:`LazyView` that imports its
  module and function on its first call;
- once the app's first answer is out, a thread imports every such module (:func:`warm`),
  beside the thread that configures the store's mappers, so that in practice no request waits
  for an import: one that comes in the first moments waits on Python's import lock.

A blueprint with anything but routes (a hook, an error handler, a context processor, a
template filter, a folder of its own) is always registered from its module at start, as is
one whose rules have an option the file does not carry; :data:`FILE` records only what it can
register alike. What is kept cannot go stale: it is found by the size and modification time of
every module of the web layer (where every rule is written, ``tests/web/test_routes.py``), so
an edited module registers from the modules once and writes the file anew. The file lives
beside the package's compiled modules, like the kept dataclass code
(``scorekeeper/dataclass_code.py``); where that folder cannot be written nothing is kept and
every start imports every area, as before. ``tests/web/app/test_lazy_views.py`` holds the URL
map of a start from the file equal to that of a start from the modules.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from flask import Blueprint, Flask
from flask.templating import _default_template_ctx_processor
from flask.typing import RouteCallable

from ... import dataclass_code
from ...extensions import csrf
from ...files import write_whole
from ...first_answer import after_first_answer

WEB = Path(__file__).resolve().parents[1]
#: where the routes of the areas registered without their modules are kept
FILE = WEB / "__pycache__" / f"lazy-routes.{sys.implementation.cache_tag}.json"
#: the layout of :data:`FILE`; another one is not read
VERSION = 2

#: the scaffold tables of a blueprint that hold hooks of its own
_HOOKS = (
    "before_request_funcs",
    "after_request_funcs",
    "teardown_request_funcs",
    "template_context_processors",
    "url_value_preprocessors",
    "url_default_functions",
    "view_functions",
)


class LazyView:
    """The view of an endpoint whose module is imported on its first call (or by :func:`warm`).
    It carries the module and name of the function it stands for, as Flask-WTF and
    Flask-Limiter name a view by them."""

    def __init__(self, module: str, name: str) -> None:
        self.__module__ = module
        self.__name__ = name
        self.__qualname__ = name
        self._target: Callable[..., Any] | None = None

    def load(self) -> Callable[..., Any]:
        target = self._target
        if target is None:
            found = getattr(importlib.import_module(self.__module__), self.__name__)
            if inspect.iscoroutinefunction(found):
                raise TypeError(f"{self.__module__}.{self.__name__}: an async view")
            target = self._target = found
        return target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return (self._target or self.load())(*args, **kwargs)


def fingerprint() -> list[list[Any]]:
    """The size and modification time of every module of the web layer, by its path below
    :data:`WEB` (one ``scandir`` a folder: each entry brings what ``stat`` needs)."""
    found: list[list[Any]] = []
    pending = [("", str(WEB))]
    while pending:
        prefix, folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        pending.append((f"{prefix}{entry.name}/", entry.path))
                elif entry.name.endswith(".py"):
                    stat = entry.stat()
                    found.append([prefix + entry.name, stat.st_size, stat.st_mtime_ns])
    found.sort()
    return found


def _read(path: Path, key: list[list[Any]]) -> dict[str, Any] | None:
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("version") != VERSION or kept.get("key") != key:
        return None
    return cast(dict[str, Any], kept)


def register(
    app: Flask,
    modules: Iterable[str],
    joined: dict[str, tuple[str, ...]],
    eager: frozenset[str],
    *,
    lazy: bool | None = None,
    path: Path | None = None,
) -> None:
    """Register the blueprint ``bp`` of each module in ``modules``, in that order. ``joined``
    names, for a module, the modules whose routes join its blueprint; ``eager`` the modules
    always imported at start. ``lazy`` (the ``LAZY_VIEWS`` setting; by default: when none of
    the modules is imported yet) says whether the kept routes are used."""
    modules = tuple(modules)
    path = path or FILE
    if lazy is None:
        lazy = not all(m in sys.modules for m in modules if m not in eager)
    key = fingerprint()
    kept = _read(path, key)
    areas: dict[str, Any] = kept["areas"] if kept and lazy else {}
    stand_ins: list[LazyView] = []
    for module in modules:
        area = areas.get(module)
        if area is None or module in eager:
            for extra in joined.get(module, ()):
                importlib.import_module(extra)
            app.register_blueprint(importlib.import_module(module).bp)
        else:
            stand_ins += _register_kept(app, module, area)
    if stand_ins:
        after_first_answer(app, "warm-views", lambda: warm(stand_ins))
    elif kept is None:
        _keep(app, path, key, modules, eager)


def _register_kept(app: Flask, module: str, area: dict[str, Any]) -> list[LazyView]:
    # the folder of its module, as Flask would find it by looking the module up on disk
    root = WEB.joinpath(*module.split(".")[2:-1])
    bp = Blueprint(area["name"], module, url_prefix=area["url_prefix"], root_path=str(root))
    app.register_blueprint(bp)
    if area["csrf_exempt"]:
        csrf.exempt(bp)
    for code, kind, handler in area["error_handlers"]:
        # as registering the blueprint with its handlers would (its own errors only)
        app.error_handler_spec.setdefault(bp.name, defaultdict(dict))[code][_find(kind)] = _find(
            handler
        )
    views: dict[str, LazyView] = {}
    for rule in area["rules"]:
        view = views.get(rule["view"])
        if view is None:
            view = views[rule["view"]] = LazyView(*rule["view"].split(":"))
        app.add_url_rule(
            rule["rule"],
            endpoint=rule["endpoint"],
            view_func=cast(RouteCallable, view),
            methods=rule["methods"],
            provide_automatic_options=rule["automatic_options"],
            defaults=rule["defaults"],
            subdomain=rule["subdomain"],
            host=rule["host"],
            strict_slashes=rule["strict_slashes"],
            merge_slashes=rule["merge_slashes"],
        )
    return list(views.values())


def _keep(
    app: Flask, path: Path, key: list[list[Any]], modules: tuple[str, ...], eager: frozenset[str]
) -> None:
    """Write the routes of every blueprint that holds nothing but routes to ``path``."""
    # Flask-WTF keeps the exempt blueprints themselves (older releases: their names)
    exempt = {getattr(b, "name", b) for b in getattr(csrf, "_exempt_blueprints", ())}
    areas = {}
    for module in modules:
        if module in eager:
            continue
        area = _routes_of(app, sys.modules[module], exempt)
        if area is not None:
            areas[module] = area
    text = json.dumps({"version": VERSION, "key": key, "areas": areas})
    with contextlib.suppress(OSError):
        write_whole(path, text.encode("utf-8"))


def _routes_of(app: Flask, module: ModuleType, exempt: set[str]) -> dict[str, Any] | None:
    """The routes of ``module.bp`` as :func:`_register_kept` registers them, or None where
    the blueprint holds more than routes or a rule cannot be registered alike."""
    bp: Blueprint = module.bp
    if any(_holds(getattr(bp, table)) for table in _HOOKS):
        return None
    if bp.static_folder or bp.template_folder or bp.subdomain or bp.url_values_defaults:
        return None
    handlers = []
    for scope, by_code in bp.error_handler_spec.items():
        for code, by_class in by_code.items():
            for kind, handler in by_class.items():
                if scope is not None or not _named(handler) or not _named(kind):
                    return None
                handlers.append([code, _name(kind), _name(handler)])
    prefix = bp.name + "."
    rules = [r for r in app.url_map.iter_rules() if r.endpoint.startswith(prefix)]
    if len(bp.deferred_functions) != len(rules):
        return None  # something beside add_url_rule (an app-wide filter, a hook, a record)
    found = []
    for rule in rules:
        view = app.view_functions[rule.endpoint]
        if not _named(view):
            return None
        if rule.redirect_to is not None or rule.alias or rule.build_only or rule.websocket:
            return None
        found.append(
            {
                "rule": rule.rule,
                "endpoint": rule.endpoint,
                "methods": sorted(rule.methods or ()),
                "automatic_options": bool(getattr(rule, "provide_automatic_options", False)),
                "defaults": rule.defaults,
                "subdomain": rule.subdomain,
                "host": rule.host,
                "strict_slashes": rule.strict_slashes,
                "merge_slashes": rule.merge_slashes,
                "view": _name(view),
            }
        )
    try:
        json.dumps(found)
    except (TypeError, ValueError):
        return None  # a default that JSON cannot carry
    return {
        "name": bp.name,
        "url_prefix": bp.url_prefix,
        "csrf_exempt": bp.name in exempt,
        "error_handlers": handlers,
        "rules": found,
    }


def _named(thing: Any) -> bool:
    """Whether ``thing`` is found under its own name in its module (a module-level function or
    class), as :func:`_find` finds it again."""
    home = sys.modules.get(getattr(thing, "__module__", ""))
    return home is not None and getattr(home, getattr(thing, "__name__", ""), None) is thing


def _name(thing: Any) -> str:
    return f"{thing.__module__}:{thing.__name__}"


def _find(name: str) -> Any:
    module, attribute = name.split(":")
    return getattr(importlib.import_module(module), attribute)


def _holds(table: Any) -> bool:
    """Whether a scaffold table holds a function (its keys may stand with empty lists)."""
    if isinstance(table, dict):
        return any(_holds(value) for value in table.values())
    if isinstance(table, list):  # Flask gives every blueprint its default context processor
        return any(f is not _default_template_ctx_processor for f in table)
    return bool(table)


def warm(views: Iterable[LazyView]) -> None:
    """Import the module of every view (each once), then keep the compiled code of the
    dataclasses they defined."""
    for view in views:
        view.load()
    dataclass_code.save()
