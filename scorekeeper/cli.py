"""The command line of CONTRACT.md §1: ``scorekeeper serve`` and ``scorekeeper score``."""

from __future__ import annotations

import json
import sys

import click

from . import ROOT, create_app


@click.group()
@click.version_option(package_name="scorekeeper")
def main() -> None:
    """Canasta scorekeeper and referee."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--db", "db_url", default=None, envvar="SCOREKEEPER_DATABASE_URL",
              help="SQLAlchemy database URL (default: SQLite file in the instance folder).")
@click.option("--threads", default=8, show_default=True, type=int)
def serve(host: str, port: int, db_url: str | None, threads: int) -> None:
    """Start the web app with a production WSGI server (waitress)."""
    from waitress import serve as waitress_serve

    app = create_app({"DATABASE_URL": db_url} if db_url else None)
    database = _safe(app.config["DATABASE_URL"])
    click.echo(f"scorekeeper on http://{host}:{port}/  (database: {database})")
    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper")


def _safe(url: str) -> str:
    """A database URL without its password, for the start-up line."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return url


@main.command()
@click.argument("file", type=click.File("rb"))
@click.option("--lang", default="en", show_default=True, type=click.Choice(["en", "de", "pl"]),
              help="Language of the messages.")
def score(file: click.utils.LazyFile, lang: str) -> None:
    """Print the answer of POST /api/v1/score for the request in FILE (- = standard input).

    Exit 0 on a valid hand, 1 on rule problems, 2 on unreadable input.
    """
    try:
        raw = file.read()
    except OSError as error:
        click.echo(json.dumps({"problems": [{"code": "request.invalid_json",
                                             "message": str(error), "where": ""}]}))
        sys.exit(2)
    app = create_app({"DATABASE_URL": "sqlite://", "TESTING": False})
    client = app.test_client()
    response = client.post("/api/v1/score", data=raw, content_type="application/json",
                           headers={"Accept-Language": lang})
    click.echo(json.dumps(response.get_json(), ensure_ascii=False, indent=2))
    if response.status_code == 200:
        sys.exit(0)
    sys.exit(1 if response.status_code == 422 else 2)


@main.command()
@click.option("--no-extract", is_flag=True, help="Only update and compile the catalogues.")
def translations(no_extract: bool) -> None:
    """Extract the English strings, update the de and pl catalogues and compile them."""
    from .web.catalogs import update_catalogs

    for line in update_catalogs(ROOT, extract=not no_extract):
        click.echo(line)


if __name__ == "__main__":  # pragma: no cover
    main()
