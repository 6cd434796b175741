"""The engine on the phone (docs/engine.md): the files a page's ``window.scorekeeperEngine``
(static/engine.js) loads into a Web Worker, all from this origin.

- ``GET /engine/pyodide/<version>/<file>``: the vendored Pyodide runtime (pinned in
  ``pyodide.json``, files in ``static/pyodide/<version>/``), cached for a year (the version is
  in the address); the WebAssembly as ``application/wasm``, compressed once per process.
- ``GET /engine/<digest>/scorekeeper.zip``: the archive of the rules and the stateless
  answers (:mod:`.archive`), named by its digest, cached for a year.
- ``GET /engine/worker.js``: the worker (static/engine-worker.js); its response alone carries
  the wider Content-Security-Policy Pyodide needs (``'wasm-unsafe-eval'``).

``engine_link()`` (a template global) names all three for static/engine.js, as a
``<link rel="prefetch" data-run-later>`` that static/boot.js runs after the page is complete.
"""

from __future__ import annotations

import gzip
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request, url_for
from markupsafe import Markup

from ...first_answer import after_first_answer
from ..app.assets import YEAR, version
from . import archive

bp = Blueprint("engine", __name__)

PIN: dict[str, Any] = json.loads((Path(__file__).parent / "pyodide.json").read_text("utf-8"))
PYODIDE_VERSION: str = PIN["version"]
TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}
#: The worker's own policy: the page's, plus compiling WebAssembly (Pyodide's runtime).
WORKER_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)
_compressing = threading.Lock()


def _folder() -> Path:
    return Path(current_app.static_folder or "", "pyodide", PYODIDE_VERSION)


@lru_cache(maxsize=8)
def _gzipped(path: str) -> bytes:
    """A vendored file gzipped, once per process (the WebAssembly: 9.6 MB, 3.5 MB gzipped)."""
    with _compressing:  # two phones at once compress it once
        return _gzipped_now(path)


@lru_cache(maxsize=8)
def _gzipped_now(path: str) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


def _immutable(response: Response) -> Response:
    response.cache_control.public = True
    response.cache_control.max_age = YEAR
    response.cache_control.immutable = True
    return response


@bp.get("/engine/pyodide/<release>/<name>")
def pyodide_file(release: str, name: str) -> Response:
    if release != PYODIDE_VERSION or name not in PIN["files"]:
        abort(404)
    path = _folder() / name
    response = Response(mimetype=TYPES[Path(name).suffix])
    if not name.endswith(".zip") and "gzip" in request.headers.get("Accept-Encoding", ""):
        # Compressed once per process, not on every request as flask-compress would
        # (which leaves WebAssembly out, the largest file); a zip is compressed already.
        response.set_data(_gzipped(str(path)))
        response.headers["Content-Encoding"] = "gzip"
    else:
        response.set_data(path.read_bytes())
    response.vary.add("Accept-Encoding")
    return _immutable(response)


@bp.get("/engine/<digest>/scorekeeper.zip")
def engine_archive(digest: str) -> Response:
    found = archive.current()
    if digest != found.digest:
        abort(404)
    return _immutable(Response(found.data, mimetype="application/zip"))


@bp.get("/engine/worker.js")
def worker() -> Response:
    folder = current_app.static_folder or ""
    response = Response(Path(folder, "engine-worker.js").read_bytes(), mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = WORKER_CSP
    if request.args.get("v") == version(folder, "engine-worker.js"):
        _immutable(response)
    return response


def download_size() -> int:
    """What a phone downloads for the engine, compressed, in bytes (shown on a slow link):
    the runtime's files as they are sent (measured when vendored) and the archive."""
    return sum(int(n) for n in PIN["sent_bytes"].values()) + len(archive.current().data)


def engine_link() -> Markup:
    """The page's engine: static/engine.js, run after the page is complete, told where the
    worker, the runtime and the archive are and how large the download is (nothing where the
    operator switched the engine off: ``SCOREKEEPER_PHONE_ENGINE=0``)."""
    if not current_app.config.get("PHONE_ENGINE", True):
        return Markup("")
    folder = current_app.static_folder or ""
    return Markup(
        '<link rel="prefetch" as="script" href="{script}" data-run-later '
        'data-engine-worker="{worker}" data-engine-runtime="{runtime}" '
        'data-engine-archive="{archive}" data-engine-size="{size}">'
    ).format(
        script=url_for("static", filename="engine.js"),
        worker=url_for("engine.worker", v=version(folder, "engine-worker.js")),
        runtime=url_for("engine.pyodide_file", release=PYODIDE_VERSION, name="x")[:-1],
        archive=url_for("engine.engine_archive", digest=archive.current().digest),
        size=download_size(),
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["engine_link"] = engine_link
    if app.config.get("PHONE_ENGINE", True):
        # made in a thread once the first answer is out: the first page that names it need not
        # wait for it (about 90 ms of CPU, docs/measurements.md)
        after_first_answer(app, "engine-archive", archive.current)
