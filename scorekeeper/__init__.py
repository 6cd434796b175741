"""scorekeeper: the Canasta scorekeeper and referee for the phone at the card table."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the rules engine is imported without Flask (a test proves it)
    from flask import Flask

PACKAGE = Path(__file__).resolve().parent
# The checkout (with `pip install -e .`): pyproject.toml and the top-level templates/ and
# translations/ live here. An installed wheel carries both folders inside the package.
ROOT = PACKAGE.parent
__version__ = "0.1.0"
# The largest request body the app reads (a 4-player hand in detail is about 1 KB); waitress
# is told the same, so it answers 413 before reading more.
MAX_CONTENT_LENGTH = 512 * 1024


def data_folder(name: str) -> Path:
    """``templates`` or ``translations``: inside the package when installed from a wheel (the
    build maps them there, see hatch_build.py), else the checkout's top-level folder."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory (CONTRACT.md §1)."""
    app = _app_class()(
        __name__,
        instance_relative_config=True,
        template_folder=str(data_folder("templates")),
        static_folder="static",
    )
    from .settings import from_environment

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

    from . import extensions
    from .store import db
    from .web import assets, catalogs, errors, i18n, limits, security

    # flask-babel reads this once in init_app, as an absolute path (STACK-NOTES.md): the folder
    # that holds the compiled catalogues, the checkout's or one in the instance folder.
    if not app.config.get("BABEL_TRANSLATION_DIRECTORIES"):
        compiled = catalogs.ensure_compiled(data_folder("translations"), Path(app.instance_path))
        app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled)

    security.init_app(app)  # first: its checks run before everything else
    extensions.babel.init_app(app, locale_selector=i18n.reader_locale)
    extensions.csrf.init_app(app)
    extensions.compress.init_app(app)
    i18n.init_app(app)
    assets.init_app(app)
    db.init_app(app)

    from htmx_flask import Htmx

    Htmx(app)

    from .web import register_blueprints

    register_blueprints(app)
    from . import health

    health.init_app(app)  # GET /healthz (issue 21)
    errors.init_app(app)
    limits.init_app(app)
    _cache_templates(app)
    return app


def _cache_templates(app: Flask) -> None:
    """Compiled templates are kept in ``<instance>/cache/templates`` (Jinja's bytecode cache), so
    a new process renders its first page without parsing the templates again (issue 16: ~20 ms
    of a start). Jinja checks each entry against a checksum of the template's source and its
    own and Python's version, so an edited template is compiled afresh; the file names also
    carry the environment's extensions and options. Nowhere to write: no cache, as before."""
    if not app.config.get("TEMPLATE_BYTECODE_CACHE", True):
        return
    import contextlib
    import hashlib

    from jinja2 import FileSystemBytecodeCache
    from jinja2.bccache import Bucket

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


class Extensions(dict[str, Any]):
    """``app.extensions``, where an entry may be built on its first use: ``defer(keys, build)``
    makes ``extensions[key]`` call ``build()`` once (it returns every entry of ``keys``); until
    then ``key in extensions`` is False and ``.get(key)`` None (nothing to dispose yet). Used for
    the database engine, so a start that answers its first page without the database does
    not import SQLAlchemy for it (issue 16)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._deferred: dict[str, Callable[[], dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def defer(self, keys: tuple[str, ...], build: Callable[[], dict[str, Any]]) -> None:
        for key in keys:
            self.pop(key, None)
            self._deferred[key] = build

    def __missing__(self, key: str) -> Any:
        with self._lock:  # two first requests at once build it once
            if key in self:
                return dict.__getitem__(self, key)
            build = self._deferred.get(key)
            if build is None:
                raise KeyError(key)
            built = build()
            for name in [name for name, one in self._deferred.items() if one is build]:
                del self._deferred[name]
            self.update(built)
            return built[key]


def _app_class() -> type[Flask]:
    from flask import Flask, Response

    class ScorekeeperApp(Flask):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.extensions = Extensions(self.extensions)

        def send_static_file(self, filename: str) -> Response:
            """Static files are small: send them from memory so they travel compressed."""
            response = super().send_static_file(filename)
            if response.direct_passthrough and response.status_code == 200:
                body = response.response
                try:
                    data = b"".join(body)
                finally:
                    close = getattr(body, "close", None)
                    if close is not None:
                        close()
                response.direct_passthrough = False
                response.set_data(data)
            return response

    return ScorekeeperApp


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
