"""The app factory: configuration, extensions, blueprints."""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

from flask import Flask, Response
from htmx_flask import Htmx
from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

from . import MAX_CONTENT_LENGTH, data_folder, dataclass_code, extensions
from .settings import from_environment
from .store import cache, db
from .web import engine as phone_engine
from .web import register_blueprints
from .web.app import assets, catalogs, errors, health, limits, routing, security
from .web.app.templating import PageEnvironment
from .web.live import routes as live
from .web.words import i18n


class ScorekeeperApp(Flask):
    """Flask, with static files sent from memory, URL builders compiled when first used,
    templates whose globals are copied in one step (``templating``), and every view and hook
    synchronous."""

    url_rule_class = routing.Rule
    jinja_environment = PageEnvironment  # each template's globals a plain dict

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Every view, hook and handler of this app is a plain function (a WSGI app under
        waitress; :func:`synchronous_only` checks them all when the app is made), so none
        needs wrapping. Flask would otherwise ask ``inspect`` about each of them (12 to 17
        per request) on every request."""
        return func

    def send_static_file(self, filename: str) -> Response:
        """Static files are small: send them from memory so they travel compressed."""
        response = super().send_static_file(filename)
        if response.direct_passthrough and response.status_code == 200:
            body = response.response
            try:
                data = b"".join(cast(Iterable[bytes], body))  # a file sent: bytes
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
            response.direct_passthrough = False
            response.set_data(data)
        return response


def make_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory (docs/api.md §1, called as ``scorekeeper.create_app``)."""
    app = ScorekeeperApp(
        "scorekeeper",
        instance_relative_config=True,
        template_folder=str(data_folder("templates")),
        static_folder="static",
    )
    app.config.from_mapping(
        SECRET_KEY=None,
        DATABASE_URL=None,
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        BABEL_DEFAULT_LOCALE="en",
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        JSON_SORT_KEYS=False,
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_MIN_SIZE=600,
        COMPRESS_REGISTER=True,
        COMPRESS_STREAMS=False,
    )
    app.config.update(from_environment())
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)

    # flask-babel reads this once in init_app, as an absolute path (a relative one is read
    # from the package): the folder that holds the compiled catalogues, the checkout's or one
    # in the instance folder.
    if not app.config.get("BABEL_TRANSLATION_DIRECTORIES"):
        compiled = catalogs.ensure_compiled(data_folder("translations"), Path(app.instance_path))
        app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled)

    security.init_app(app)  # first: its checks run before everything else
    extensions.babel.init_app(
        app, locale_selector=i18n.reader_locale, timezone_selector=i18n.reader_timezone
    )
    extensions.csrf.init_app(app)
    extensions.compress.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    cache.init_app(app)
    db.init_app(app)
    live.init_app(app)  # the watchers of the event streams (after the database)

    Htmx(app)

    register_blueprints(app)
    security.exempt_previews(app, extensions.csrf)  # questions that store nothing
    health.init_app(app)  # GET /healthz
    phone_engine.init_app(app)  # /engine/…: the rules engine on the phone
    errors.init_app(app)
    limits.init_app(app)
    _cache_templates(app)
    synchronous_only(app)
    dataclass_code.save()  # the app's dataclasses are all defined by now
    return app


def synchronous_only(app: Flask) -> None:
    """Refuse an ``async def`` view, hook or handler (:meth:`ScorekeeperApp.ensure_sync` runs
    them as they are): raises ``TypeError`` naming it."""
    found: list[Callable[..., Any]] = list(app.view_functions.values())
    for table in (
        app.before_request_funcs,
        app.after_request_funcs,
        app.teardown_request_funcs,
        app.url_value_preprocessors,
        app.url_default_functions,
        app.template_context_processors,
    ):
        for functions in table.values():
            found += functions
    found += app.teardown_appcontext_funcs
    for handlers in app.error_handler_spec.values():
        for by_code in handlers.values():
            found += by_code.values()
    for func in found:
        if inspect.iscoroutinefunction(func):
            name = getattr(func, "__qualname__", repr(func))
            raise TypeError(f"{name} is async: every view and hook of the app is synchronous")


def _cache_templates(app: Flask) -> None:
    """Compiled templates are kept in ``<instance>/cache/templates`` (Jinja's bytecode cache), so
    a new process renders its first page without parsing the templates again. Jinja checks each
    entry against a checksum of the template's source and its own and Python's version, so an
    edited template is compiled afresh; the file names also carry the environment's extensions
    and options. Nowhere to write: no cache, as before."""
    if not app.config.get("TEMPLATE_BYTECODE_CACHE", True):
        return

    class Cache(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: Bucket) -> None:
            with contextlib.suppress(OSError):  # a full disk or read-only folder: no cache
                super().dump_bytecode(bucket)

    env = app.jinja_env
    options = repr(
        (
            sorted(env.extensions),
            env.block_start_string,
            env.variable_start_string,
            env.comment_start_string,
            env.line_statement_prefix,
            env.trim_blocks,
            env.lstrip_blocks,
            env.newline_sequence,
            env.keep_trailing_newline,
            env.optimized,
            getattr(env.autoescape, "__qualname__", env.autoescape),
        )
    )
    tag = hashlib.sha1(options.encode(), usedforsecurity=False).hexdigest()[:12]
    folder = Path(app.instance_path) / "cache" / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return
    env.bytecode_cache = Cache(str(folder), pattern=f"{tag}-%s.cache")


def _instance_secret(app: Flask) -> str:
    """A per-installation secret kept in the instance folder (CSRF tokens survive restarts)."""
    path = Path(app.instance_path) / "secret_key"
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            # Readable by its owner only (0600), whatever the umask.
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another process started at the same moment
                pass
            else:
                with os.fdopen(descriptor, "w") as file:
                    file.write(secrets.token_hex(32))
        return path.read_text().strip()
    except OSError:
        return secrets.token_hex(32)
