"""The command line of docs/api.md §1: ``scorekeeper serve`` and ``scorekeeper score``; also
``scorekeeper export`` / ``import`` (every game as one JSON backup), ``scorekeeper db upgrade``
(schema migrations), ``scorekeeper db backup`` (a copy of the SQLite file) and
``scorekeeper translations``."""

from __future__ import annotations

import gc
import io
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO

import click
import segno
from flask import Flask
from sqlalchemy import func, make_url, select
from sqlalchemy.exc import OperationalError

from . import ROOT, TABLE_IMPORT_MAX, create_app, net, serving
from .settings import SettingError, database_url, hidden_password
from .store.db import copy_sqlite, make_engine, session_scope, upgrade_schema, write_scope
from .store.errors import GameProblems
from .store.models import TableGame
from .web.app.catalogs import update_catalogs


class _Commands(click.Group):
    """Every command: a misuse is said in one line on standard error (exit 1, or 2 for an
    option click cannot read), never as a traceback: a setting of the environment the app
    cannot read, an option or argument that does not fit, a database that cannot be reached
    or a file it cannot open (``--db`` itself is checked as it is read, :func:`_database`)."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except SettingError as error:
            raise click.ClickException(str(error)) from None
        except click.UsageError as error:
            raise _Usage(_one_line(error.format_message())) from None
        except OperationalError as error:
            # the database named is not there, refuses the login, or SQLite cannot open it
            raise click.ClickException(
                f"cannot use the database {_database_shown()}: {_one_line(str(error.orig))}"
            ) from None


class _Usage(click.ClickException):
    exit_code = 2


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _database_shown() -> str:
    return hidden_password(_DB_SEEN[-1]) if _DB_SEEN else "of the instance folder"


#: the --db given to the running command, as read (one command runs per process)
_DB_SEEN: list[str] = []


def _database(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--db``: an SQLAlchemy URL or the path of an SQLite file (becomes ``sqlite:///`` and
    its absolute path); anything else is one line naming what is wrong."""
    if value is None:
        return None
    try:
        url = database_url(value)
    except ValueError as error:
        raise click.ClickException(f"--db: {error}") from None
    _DB_SEEN.append(url)
    return url


@click.group(cls=_Commands)
@click.version_option(package_name="scorekeeper")
def main() -> None:
    """Canasta scorekeeper and referee."""


@main.command()
@click.option(
    "--host",
    "hosts",
    multiple=True,
    metavar="ADDRESS",
    help="Address to listen on (repeatable). Default 127.0.0.1, or every interface "
    "(0.0.0.0) with --lan.",
)
@click.option(
    "--port",
    default=5000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@click.option(
    "--db",
    "db_url",
    default=None,
    envvar="SCOREKEEPER_DATABASE_URL",
    callback=_database,
    metavar="URL|FILE",
    help="Database: an SQLAlchemy URL (postgresql+psycopg://…) or the path of an SQLite "
    "file (default: an SQLite file in the instance folder).",
)
@click.option("--threads", default=8, show_default=True, type=int)
@click.option(
    "--lan",
    is_flag=True,
    help="Serve the phones at the table: listen on every interface and print the "
    "address (and a QR code) the other phones open.",
)
@click.option(
    "--lan-address",
    default=None,
    metavar="ADDRESS",
    help="With --lan: the address of this machine the phones use (default: its "
    "first private IPv4 address).",
)
@click.option(
    "--base-url",
    default=None,
    envvar="SCOREKEEPER_BASE_URL",
    metavar="URL",
    help="The public address of the app (https://canasta.example.org): shared "
    "links and QR codes use it.",
)
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="A reverse proxy (Caddy, nginx) is in front: trust its X-Forwarded-For, "
    "-Proto and -Host headers (SCOREKEEPER_BEHIND_PROXY=N: N proxies in a chain).",
)
@click.option(
    "--trusted-proxy",
    default="127.0.0.1",
    show_default=True,
    envvar="SCOREKEEPER_TRUSTED_PROXY",
    metavar="ADDRESS",
    help="With --behind-proxy: the proxy's address ('*': any peer, only when nothing "
    "but the proxy can reach the app's port).",
)
@click.option(
    "--connections-per-address",
    default=32,
    show_default=True,
    type=int,
    envvar="SCOREKEEPER_CONNECTIONS_PER_ADDRESS",
    help="Open connections one client address may hold (0: no cap; the trusted proxy is exempt).",
)
@click.option(
    "--connection-limit",
    default=500,
    show_default=True,
    type=int,
    envvar="SCOREKEEPER_CONNECTION_LIMIT",
    help="Open connections at most (idle ones included).",
)
@click.option(
    "--channel-timeout",
    default=30,
    show_default=True,
    type=int,
    envvar="SCOREKEEPER_CHANNEL_TIMEOUT",
    help="Seconds an idle connection is kept open.",
)
@click.option(
    "--streams",
    default=256,
    show_default=True,
    type=int,
    envvar="SCOREKEEPER_STREAMS",
    help="Pages followed live at once (event streams, each on a thread of its own beside "
    "--threads); over it a page gets 503 and refreshes every few seconds.",
)
@click.option(
    "--streams-per-client",
    default=16,
    show_default=True,
    type=int,
    envvar="SCOREKEEPER_STREAMS_PER_CLIENT",
    help="Of them, one client address (429 over it). Raise it when many phones share one "
    "address (a club's Wi-Fi reaching a public server).",
)
def serve(
    hosts: tuple[str, ...],
    port: int,
    db_url: str | None,
    threads: int,
    lan: bool,
    lan_address: str | None,
    base_url: str | None,
    behind_proxy: bool,
    connection_limit: int,
    channel_timeout: int,
    trusted_proxy: str,
    connections_per_address: int,
    streams: int,
    streams_per_client: int,
) -> None:
    """Start the web app with a production WSGI server (waitress).

    The database schema is brought up to date first (as ``scorekeeper db upgrade``).
    """
    listen = list(hosts) or (["0.0.0.0"] if lan else ["127.0.0.1"])
    config: dict[str, object] = {}
    if db_url:
        config["DATABASE_URL"] = db_url
    if base_url:
        config["BASE_URL"] = base_url.rstrip("/")
    if behind_proxy:
        config["BEHIND_PROXY"] = 1
    config["STREAMS"] = max(0, streams)
    config["STREAMS_PER_CLIENT"] = max(0, streams_per_client)
    lan_url = None
    if lan:
        address = lan_address or next(iter(net.lan_addresses()), None)
        if address is not None:
            lan_url = f"http://{net.url_host(address)}:{port}"
            config["LAN_URL"] = lan_url
    # the app built with the collector paused, what it made then moved out of its way for good
    # (as scorekeeper/start.py does for the imports)
    collecting = gc.isenabled()
    gc.disable()
    try:
        app = create_app(config or None)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    options = serving.waitress_options(
        listen=" ".join(f"{net.url_host(h)}:{port}" for h in listen),
        threads=threads,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        max_request_body_size=TABLE_IMPORT_MAX,  # the app holds other routes to less
        # --behind-proxy, or SCOREKEEPER_BEHIND_PROXY=N (read into the app's config)
        proxies=int(app.config.get("BEHIND_PROXY") or 0),
        trusted_proxy=trusted_proxy,
    )
    try:  # listening first: a port taken says so before the start-up lines
        server = serving.make_server(
            app, options, per_address=connections_per_address, streams=max(0, streams)
        )
    except (OSError, ValueError) as error:
        app.extensions["scorekeeper.engine"].dispose()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        where = ", ".join(f"{net.url_host(h)}:{port}" for h in listen)
        raise click.ClickException(f"cannot listen on {where}: {reason}") from None
    database = hidden_password(app.config["DATABASE_URL"])
    shown = ", ".join(f"http://{net.url_host(h)}:{port}/" for h in listen)
    click.echo(f"scorekeeper on {shown}  (database: {database})")
    if lan and lan_url:
        click.echo(f"Phones at the table: open {lan_url}/ (same Wi-Fi)")
        _print_qr(lan_url + "/")
    elif lan:
        click.echo(
            "No network address found: is this machine on the Wi-Fi? Give it with --lan-address."
        )
    elif not base_url and all(net.is_loopback_host(h) for h in listen):
        click.echo(
            "Only this machine can open it. For the other phones at the table: "
            "scorekeeper serve --lan"
        )
    sys.stdout.flush()
    serving.run(server)


def _print_qr(url: str) -> None:
    """The address as a QR code in the terminal, for the phones' cameras."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    click.echo(out.getvalue(), nl=False)


@main.command()
@click.argument("file", type=click.File("rb"))
@click.option(
    "--lang",
    default="en",
    show_default=True,
    type=click.Choice(["en", "de", "pl"]),
    help="Language of the messages.",
)
def score(file: IO[bytes], lang: str) -> None:
    """Print the answer of POST /api/v1/score for the request in FILE (- = standard input).

    Exit 0 on a valid hand, 1 on rule problems, 2 on unreadable input.
    """
    try:
        raw = file.read()
    except OSError as error:
        click.echo(
            json.dumps(
                {"problems": [{"code": "request.invalid_json", "message": str(error), "where": ""}]}
            )
        )
        sys.exit(2)
    app = create_app({"DATABASE_URL": "sqlite://", "TESTING": False})
    client = app.test_client()
    response = client.post(
        "/api/v1/score",
        data=raw,
        content_type="application/json",
        headers={"Accept-Language": lang},
    )
    click.echo(json.dumps(response.get_json(), ensure_ascii=False, indent=2))
    if response.status_code == 200:
        sys.exit(0)
    sys.exit(1 if response.status_code == 422 else 2)


DB_OPTION = click.option(
    "--db",
    "db_url",
    default=None,
    envvar="SCOREKEEPER_DATABASE_URL",
    callback=_database,
    metavar="URL|FILE",
    help="Database: an SQLAlchemy URL (postgresql+psycopg://…) or the path of an SQLite "
    "file (default: an SQLite file in the instance folder).",
)


def _store_app(db_url: str | None) -> Flask:
    """The app of ``--db`` (schema brought up to date), for the commands that read or write
    games outside a request."""
    return create_app({"DATABASE_URL": db_url} if db_url else {})


@main.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@DB_OPTION
def export_games(file: str, db_url: str | None) -> None:
    """Write every stored game (both kinds, with hands, corrections, deletions, versions,
    times and keys) to FILE as JSON ('-': standard output)."""
    # a whole backup's readers and writers: for export and import alone, not in every start
    from .store import backup
    from .store.tournaments import backup as tournament_backup

    app = _store_app(db_url)
    try:
        with app.app_context(), session_scope() as session:
            games = backup.all_games(session)
            whole = backup.dump(games)
            whole["tables"] = backup.dump_tables(session)
            whole["tournaments"] = tournament_backup.dump_tournaments(session)
            text = backup.dumps(whole)
    finally:
        app.extensions["scorekeeper.engine"].dispose()
    if file == "-":
        click.echo(text, nl=False)
    else:
        Path(file).write_text(text, encoding="utf-8")
        click.echo(f"{len(games)} games written to {file}", err=True)


@main.command("import")
@click.argument("file", type=click.File("rb"))
@DB_OPTION
def import_games(file: IO[bytes], db_url: str | None) -> None:
    """Restore the games of a backup FILE (``scorekeeper export``, a phone's file) into the
    database; games it holds already are left as they are. Every game is checked first: a
    file with any problem stores nothing (exit 1). A table's export (the file of "Export
    table", ``GET /api/v1/tables/<id>/export``) becomes a new table, read one game at a time,
    whatever its size."""
    # a whole backup's readers and writers: for export and import alone, not in every start
    from .store import backup
    from .store.tournaments import backup as tournament_backup

    source = _seekable(file)
    if _is_table_file(source):
        _import_table(source, db_url)
        return
    source.seek(0)
    try:
        data = json.loads(source.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise click.ClickException(f"not a JSON backup: {error}") from None
    if not backup.is_backup(data):
        raise click.ClickException("not a backup of this app (no format 'scorekeeper-backup')")
    app = _store_app(db_url)
    try:
        with app.app_context():
            try:
                checked = backup.read_backup(data)
            except GameProblems as error:
                for problem in error.problems[:20]:
                    click.echo(f"{problem.where}: {problem.code} {problem.params}", err=True)
                sys.exit(1)
            try:
                tables = backup.read_tables(data, {one.game.id for one in checked})
                held = tournament_backup.read_tournaments(
                    data, {one.game.id for one in checked}, {table.id for table, *_ in tables}
                )
            except GameProblems as error:
                for problem in error.problems[:20]:
                    click.echo(f"{problem.where}: {problem.code} {problem.params}", err=True)
                sys.exit(1)
            added = 0
            for one in checked:  # a transaction per game: a server writing waits briefly
                with write_scope() as session:
                    added += int(backup.restore(session, one)[1])
            tables_added = 0
            for table, people, links in tables:
                with write_scope() as session:
                    tables_added += int(backup.restore_table(session, table, people, links))
            tournaments_added = 0
            for one_tournament in held:
                with write_scope() as session:
                    tournaments_added += int(
                        tournament_backup.restore_tournament(session, one_tournament)
                    )
    finally:
        app.extensions["scorekeeper.engine"].dispose()
    click.echo(f"{added} games imported, {len(checked) - added} were there already", err=True)
    if tables:
        click.echo(f"{tables_added} of {len(tables)} tables imported", err=True)
    if held:
        click.echo(f"{tournaments_added} of {len(held)} tournaments imported", err=True)


def _seekable(file: IO[bytes]) -> IO[bytes]:
    """The file itself, or standard input copied to a temporary file (read twice)."""
    if file.seekable():
        return file
    spool = tempfile.TemporaryFile()  # noqa: SIM115 -- closed when the command ends
    shutil.copyfileobj(file, spool, 64 * 1024)
    spool.seek(0)
    return spool


def _is_table_file(source: IO[bytes]) -> bool:
    from .web.api import table_json

    try:
        return bool(table_json.peek_format(source) == table_json.FORMAT)
    except GameProblems:
        return False


def _import_table(source: IO[bytes], db_url: str | None) -> None:
    from .web.api import table_json

    app = _store_app(db_url)
    try:
        with app.app_context():
            try:
                with write_scope() as session:
                    table = table_json.import_table_file(session, source)
                    name = table.name
                    games = session.scalar(
                        select(func.count())
                        .select_from(TableGame)
                        .where(TableGame.table_id == table.id)
                    )
            except GameProblems as error:
                for problem in error.problems[:20]:
                    click.echo(f"{problem.where}: {problem.code} {problem.params}", err=True)
                sys.exit(1)
    finally:
        app.extensions["scorekeeper.engine"].dispose()
    click.echo(f"table {name!r} imported as a new table, {games} games", err=True)


@main.group()
def db() -> None:
    """The database schema (Alembic migrations shipped in the package)."""


@db.command()
@click.option(
    "--db",
    "db_url",
    default=None,
    envvar="SCOREKEEPER_DATABASE_URL",
    callback=_database,
    metavar="URL|FILE",
    help="Database: an SQLAlchemy URL (postgresql+psycopg://…) or the path of an SQLite "
    "file (default: an SQLite file in the instance folder).",
)
def upgrade(db_url: str | None) -> None:
    """Apply every migration the database has not had yet (safe to run again)."""
    app = create_app(
        {"DATABASE_URL": db_url, "SCHEMA_UPGRADE": False} if db_url else {"SCHEMA_UPGRADE": False}
    )
    engine = app.extensions["scorekeeper.engine"]
    from .store import schema  # Alembic: for the db commands and a database that is behind

    try:
        upgrade_schema(engine)
        revision = schema.current_revision(engine)
        click.echo(f"database at {revision}  ({hidden_password(app.config['DATABASE_URL'])})")
    finally:
        engine.dispose()


@db.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
@DB_OPTION
def backup_db(file: str, db_url: str | None) -> None:
    """Copy the SQLite database to FILE, consistent while the server writes (SQLite's online
    backup). For PostgreSQL use pg_dump."""
    app = create_app(
        {"DATABASE_URL": db_url, "SCHEMA_UPGRADE": False} if db_url else {"SCHEMA_UPGRADE": False}
    )
    url = make_url(app.config["DATABASE_URL"])
    app.extensions["scorekeeper.engine"].dispose()
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        raise click.ClickException(
            "db backup copies an SQLite file; for PostgreSQL use pg_dump "
            "(pg_dump -Fc -f scorekeeper.dump DATABASE)"
        )
    if Path(file).exists():
        raise click.ClickException(f"{file} exists already")
    pages = copy_sqlite(url.database, file)
    click.echo(f"copied {hidden_password(str(url))} to {file} ({pages} pages)", err=True)


@db.command()
@click.option("-m", "--message", required=True, help="What the new revision changes.")
@click.option(
    "--db",
    "db_url",
    default="sqlite://",
    show_default=True,
    callback=_database,
    help="Database to compare the models with (it is upgraded to head first).",
)
def revision(message: str, db_url: str) -> None:
    """Write a new revision from the difference between the models and the migrated schema.

    For developers, in a checkout: read the new file and correct it before committing.
    """
    from .store import schema  # Alembic: for the db commands and a database that is behind

    engine = make_engine(db_url)
    try:
        upgrade_schema(engine)
        for path in schema.write_revision(engine, message):
            click.echo(f"wrote {path}")
    finally:
        engine.dispose()


@main.command()
@click.option("--no-extract", is_flag=True, help="Only update and compile the catalogues.")
def translations(no_extract: bool) -> None:
    """Extract the English strings, update the de and pl catalogues and compile them."""
    if not (ROOT / "pyproject.toml").exists():
        raise click.ClickException("the catalogues are updated in a checkout (pip install -e .)")
    for line in update_catalogs(ROOT, extract_strings=not no_extract):
        click.echo(line)


if __name__ == "__main__":  # pragma: no cover
    main()
