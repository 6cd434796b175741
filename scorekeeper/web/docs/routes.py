"""``/docs/``: the reference site built from docs/ by MkDocs. An installed wheel carries it
(``scorekeeper/docs_site``, built by hatch_build.py); a checkout serves ``site/`` once
``mkdocs build`` has made it (the test command does), and otherwise says how to make it."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, make_response, render_template, send_from_directory

from ... import PACKAGE, ROOT

bp = Blueprint("docs", __name__)

#: The built site's pages carry MkDocs' own small inline scripts and styles (the theme's
#: settings, the search): allowed for these static pages only, which show no user text.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)


def site_folder() -> Path | None:
    """The built site: the wheel's, else the checkout's ``site/``, else None."""
    for folder in (PACKAGE / "docs_site", ROOT / "site"):
        if (folder / "index.html").is_file():
            return folder
    return None


@bp.get("/docs/")
@bp.get("/docs/<path:name>")
def page(name: str = "index.html") -> Response:
    folder = site_folder()
    if folder is None:
        response = make_response(render_template("docs/missing.html"), 404)
        return response
    if name.endswith("/"):
        name += "index.html"
    if not (folder / name).is_file():
        abort(404)
    response = send_from_directory(folder, name, max_age=3600)
    response.headers["Content-Security-Policy"] = DOCS_CSP
    return response
