"""The settings an operator may give through the environment, and their config keys.

Every ``SCOREKEEPER_*`` variable the app reads is listed in :data:`ENVIRONMENT` (a test checks
that ``deploy/compose.yaml`` names only these). ``scorekeeper serve`` options set the same
config keys; the app factory's ``config`` argument overrides both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import pytz  # flask_babel's zone table: a name it cannot find there would fail every request


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


#: environment variable → (config key, how its text is read)
ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "SCOREKEEPER_SECRET_KEY": ("SECRET_KEY", _text),
    "SCOREKEEPER_DATABASE_URL": ("DATABASE_URL", _text),
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
