"""The settings an operator may give through the environment, and their config keys.

Every ``SCOREKEEPER_*`` variable the app reads is listed in :data:`ENVIRONMENT` (a test checks
that ``deploy/compose.yaml`` names only these). ``scorekeeper serve`` options set the same
config keys; the app factory's ``config`` argument overrides both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytz  # flask_babel's zone table: a name it cannot find there would fail every request
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError


class SettingError(ValueError):
    """A ``SCOREKEEPER_*`` variable the app cannot read; its text names the variable."""


def _text(value: str) -> str:
    return value.strip()


def _integer(value: str) -> int:
    return int(value.strip())


def _switch(value: str) -> bool:
    return value.strip().lower() not in ("", "0", "no", "off", "false")


def known_zone(name: str) -> bool:
    """Whether flask_babel can write dates in the zone of this IANA name (it looks names up
    in pytz): the deployment's zone and a phone's are both checked here."""
    return 0 < len(name) <= 64 and name in pytz.all_timezones_set


def _zone(value: str) -> str:
    zone = value.strip()
    if not known_zone(zone):
        raise ValueError(f"{zone!r} is not a time zone name such as Europe/Berlin")
    return zone


def database_url(value: str) -> str:
    """The database of ``--db`` or ``SCOREKEEPER_DATABASE_URL``: an SQLAlchemy URL
    (``postgresql+psycopg://…``, ``sqlite:///…``), or the path of an SQLite file, which becomes
    ``sqlite:///`` and its absolute path (made on first start, in a folder that must exist).
    Raises ``ValueError`` with one line that says what is wrong.

    >>> database_url("sqlite://")
    'sqlite://'
    >>> database_url("mysql+nodriver://x/y")
    Traceback (most recent call last):
    ValueError: 'mysql+nodriver://x/y' names no database driver that is installed (mysql+nodriver)
    """
    text = value.strip()
    if not text:
        raise ValueError("no database given")
    if "://" not in text:
        return "sqlite:///" + _sqlite_file(Path(text).expanduser().absolute()).as_posix()
    try:
        url = make_url(text)
    except (ArgumentError, ValueError):
        raise ValueError(
            f"{hidden_password(text)!r} is not a database URL (postgresql+psycopg://user@host/name,"
            " sqlite:///path, or the path of an SQLite file)"
        ) from None
    try:
        url.get_dialect()  # the dialect and its driver must be importable
    except (NoSuchModuleError, ImportError):
        raise ValueError(
            f"{hidden_password(text)!r} names no database driver that is installed"
            f" ({url.drivername})"
        ) from None
    database = url.database or ""
    # a file: URI is SQLite's own business; a plain path must have its folder
    plain_file = database not in ("", ":memory:") and not database.startswith("file:")
    if url.get_backend_name() == "sqlite" and plain_file:
        _sqlite_file(Path(database))
    return text


def hidden_password(url: str) -> str:
    """A database URL as it may be shown (a start-up line, an error): without its password.

    >>> hidden_password("postgresql+psycopg://ann:secret@db/games")
    'postgresql+psycopg://ann:***@db/games'
    """
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        if ":" in credentials:
            return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url


def _sqlite_file(path: Path) -> Path:
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a folder, not a database file")
    if not path.parent.is_dir():
        raise ValueError(f"the folder {str(path.parent)!r} of the database file does not exist")
    return path


#: environment variable → (config key, how its text is read)
ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "SCOREKEEPER_SECRET_KEY": ("SECRET_KEY", _text),
    "SCOREKEEPER_DATABASE_URL": ("DATABASE_URL", database_url),
    # The address other phones and the QR codes use (https://canasta.example.org).
    "SCOREKEEPER_BASE_URL": ("BASE_URL", _text),
    # Host names (and addresses) the app answers to, comma or space separated; "*": any.
    "SCOREKEEPER_TRUSTED_HOSTS": ("SCOREKEEPER_TRUSTED_HOSTS", _text),
    # How many reverse proxies in front set X-Forwarded-For/-Proto/-Host (0: none).
    "SCOREKEEPER_BEHIND_PROXY": ("BEHIND_PROXY", _integer),
    # Rate limits (Flask-Limiter notation, "10 per minute;100 per hour") and their store
    # (memory:// by default; redis://host:6379 shares them between processes).
    "SCOREKEEPER_LIMIT_CREATE": ("LIMIT_CREATE", _text),
    "SCOREKEEPER_LIMIT_WRITE": ("LIMIT_WRITE", _text),
    "SCOREKEEPER_LIMIT_ANY": ("LIMIT_ANY", _text),
    "SCOREKEEPER_RATELIMIT_STORAGE_URI": ("RATELIMIT_STORAGE_URI", _text),
    "SCOREKEEPER_RATELIMIT_ENABLED": ("RATELIMIT_ENABLED", _switch),
    # The time zone dates are written in for a phone that has not said its own (static/boot.js
    # tells the server the phone's zone): an IANA name such as Europe/Berlin; UTC when unset.
    "SCOREKEEPER_TIMEZONE": ("BABEL_DEFAULT_TIMEZONE", _zone),
    # "0": the pages offer no rules engine on the phone (docs/engine.md); on by default.
    "SCOREKEEPER_PHONE_ENGINE": ("PHONE_ENGINE", _switch),
    # Seconds a save waits for a busy SQLite database before answering 503.
    "SCOREKEEPER_SQLITE_BUSY_TIMEOUT": ("SQLITE_BUSY_TIMEOUT", _integer),
    # Live updates (docs/live-updates.md): open event streams one process serves, and of them
    # one client address (429 over it, 503 over the first).
    "SCOREKEEPER_STREAMS": ("STREAMS", _integer),
    "SCOREKEEPER_STREAMS_PER_CLIENT": ("STREAMS_PER_CLIENT", _integer),
}


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The config keys set by the environment (empty variables count as unset)."""
    environ = os.environ if environ is None else environ
    out: dict[str, Any] = {}
    for name, (key, read) in ENVIRONMENT.items():
        raw = environ.get(name)
        if raw is None or not raw.strip():
            continue
        try:
            out[key] = read(raw)
        except ValueError as error:
            raise SettingError(f"{name}: {error}") from None
    return out
