"""``/docs/``: the reference site built from docs/ by MkDocs. An installed wheel carries it
(``scorekeeper/docs_site``, built by hatch_build.py); a checkout serves ``site/`` when
``mkdocs build`` made it (the test command does), else builds it once into the instance folder
at the first visit (a second or two), so the README's start command gives a working /docs/."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    send_from_directory,
    url_for,
)
from werkzeug.wrappers import Response

from ... import PACKAGE, ROOT

bp = Blueprint("docs", __name__)

#: The built site's pages carry MkDocs' own small inline scripts and styles (the theme's
#: settings, the search): allowed for these static pages only, which show no user text.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
_building = threading.Lock()


def _built(folder: Path) -> bool:
    return (folder / "index.html").is_file()


def site_folder() -> Path | None:
    """The built site: the wheel's, else the checkout's ``site/``, else one built now into the
    instance folder from the checkout's docs/ (None when that cannot be done here)."""
    for folder in (PACKAGE / "docs_site", ROOT / "site"):
        if _built(folder):
            return folder
    made = Path(current_app.instance_path) / "docs_site"
    if _built(made):
        return made
    if not (ROOT / "mkdocs.yml").is_file():
        return None
    with _building:
        if not _built(made):
            done = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(made)],
                cwd=ROOT,
                capture_output=True,
                timeout=120,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )
            if done.returncode != 0:
                return None
    return made if _built(made) else None


@bp.get("/docs/")
@bp.get("/docs/<path:name>")
def page(name: str = "index.html") -> Response:
    folder = site_folder()
    if folder is None:
        return make_response(render_template("docs/missing.html"), 404)
    if name.endswith("/"):  # /docs/rulebook/ is the page rulebook.html
        if (folder / f"{name[:-1]}.html").is_file():
            return redirect(url_for("docs.page", name=f"{name[:-1]}.html"), 301)
        name += "index.html"
    if not (folder / name).is_file():
        abort(404)
    response = send_from_directory(folder, name, max_age=3600)
    response.headers["Content-Security-Policy"] = DOCS_CSP
    return response
