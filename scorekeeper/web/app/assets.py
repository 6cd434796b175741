"""Static files under versioned addresses: ``url_for("static", filename=...)`` adds ``?v=`` and
a short digest of the file's content, and a request that names the current digest is answered
as cacheable for a year. A phone then never runs yesterday's script against today's pages
after an upgrade (the live preview and its script change together), and never asks again for
a script that has not changed. Without ``v``, or with an old one, a file is cached for an hour,
as before."""

from __future__ import annotations

import hashlib
import os
import stat
from functools import lru_cache
from typing import Any

from flask import Flask, Response, request
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600


def version(folder: str, filename: str) -> str:
    """The digest of a static file's content ("" for no such file), read again when the file
    changes (its size or time of change)."""
    path = safe_join(folder, filename)
    if path is None:
        return ""
    try:
        found = os.stat(path)
    except OSError:
        return ""
    if not stat.S_ISREG(found.st_mode):
        return ""  # a folder (static/pyodide/, versioned by its own name)
    return _digest(path, found.st_mtime_ns, found.st_size)


def release(folder: str) -> str:
    """One digest of every static file: it changes with any of them, and the service worker's
    address carries it, so a new release installs a new worker that replaces the kept files."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return ""
    return hashlib.blake2b(
        "".join(f"{name}:{version(folder, name)};" for name in names).encode(), digest_size=6
    ).hexdigest()


@lru_cache(maxsize=256)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    with open(path, "rb") as file:
        return hashlib.blake2b(file.read(), digest_size=6).hexdigest()


def init_app(app: Flask) -> None:
    folder = app.static_folder
    if folder is None:  # pragma: no cover - the app always has its static folder
        return

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values and isinstance(values.get("filename"), str):
            digest = version(folder, values["filename"])
            if digest:
                values["v"] = digest

    @app.context_processor
    def offline_release() -> dict[str, Any]:
        return {"static_release": lambda: release(folder)}

    @app.after_request
    def cached_for_a_year(response: Response) -> Response:
        if request.endpoint != "static" or response.status_code != 200:
            return response
        asked = request.args.get("v")
        filename = (request.view_args or {}).get("filename")
        if asked and isinstance(filename, str) and asked == version(folder, filename):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        return response
