"""One start to a first 200, in this process: what ``bench_start_instructions.py`` counts.

``python benchmarks/first_200.py app DB_URL``
    ``scorekeeper serve`` itself (its command line, on a free loopback port, ``DB_URL`` as
    ``--db``, rate limits on as a server starts): everything it does before it listens, then
    waitress's own loop answering a first ``GET /``.
``python benchmarks/first_200.py floor MODULES``
    The floor: the bare Flask app of ``baseline_app.py`` in a process that first imports every
    module named in the file ``MODULES`` (one a line: what the app's process had loaded by its
    first 200, less the app's own modules), served by waitress with the settings ``serve`` uses.
``python benchmarks/first_200.py bare``
    The bare Flask app alone, served the same way.
``python benchmarks/first_200.py app DB_URL --modules OUT``
    As ``app``, and writes the modules loaded by the first 200 (less ``scorekeeper``'s) to
    ``OUT``: the floor's list.

Both sides are measured alike: a client thread, started first, waits (blocked, so it costs
nothing) until the server's socket listens, sends ``GET /`` with the headers a phone sends,
reads the answer's status line (the app has made the whole answer by then: the start page is
not streamed) and ends the process at once (``os._exit``) on a 200; anything else exits 1.
The command starts as the installed ``scorekeeper`` command does (``scorekeeper.start:main``, with
the arguments in ``sys.argv``). The only hook into it is a wrapper around waitress's
``create_server`` that says "listening" once the real one returned.
"""

from __future__ import annotations

import os
import socket
import sys
import threading

LISTENING = threading.Event()
PORT: list[int] = []
#: where the client writes the modules loaded by the first 200 (``--modules``)
LIST_TO: list[str] = []
REQUEST = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
    b"User-Agent: Mozilla/5.0 (Linux; Android 14) Mobile\r\n"
    b"Accept: text/html,application/xhtml+xml\r\nAccept-Language: de-DE,de;q=0.9,en;q=0.8\r\n"
    b"Accept-Encoding: gzip, deflate, br\r\nConnection: close\r\n\r\n"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def client() -> None:
    LISTENING.wait()
    with socket.create_connection(("127.0.0.1", PORT[0])) as conn:
        conn.sendall(REQUEST % PORT[0])
        head = b""
        while b"\r\n" not in head:
            chunk = conn.recv(4096)
            if not chunk:
                break
            head += chunk
    status = head.split(b"\r\n", 1)[0]
    if status.split(b" ")[1:2] == [b"200"]:
        if LIST_TO:
            with open(LIST_TO[0], "w") as out:
                out.write("\n".join(modules_loaded()) + "\n")
        os._exit(0)
    sys.stderr.write(f"first answer: {status!r}\n")
    os._exit(1)


def modules_loaded() -> list[str]:
    """Every module loaded now, in the order they were, but the app's own and ``__main__``."""
    return [
        name
        for name in list(sys.modules)
        if name != "__main__" and name.split(".")[0] not in ("scorekeeper", "first_200")
    ]


def app(db_url: str, modules_out: str | None) -> None:
    os.environ["SCOREKEEPER_SECRET_KEY"] = "bench"
    os.environ.pop("SCOREKEEPER_RATELIMIT_ENABLED", None)  # on, as a server starts
    # waitress's server maker, wrapped before the app imports it (a library of the floor too):
    # nothing of the app is imported before the command's own entry point imports it
    import waitress.server

    create_server = waitress.server.create_server

    def listening(*args: object, **kwargs: object) -> object:
        server = create_server(*args, **kwargs)  # type: ignore[arg-type]
        LISTENING.set()
        return server

    waitress.server.create_server = listening  # type: ignore[assignment]
    if modules_out is not None:
        LIST_TO.append(modules_out)
    threading.Thread(target=client, daemon=True).start()
    # as the installed ``scorekeeper`` command starts (pyproject.toml's [project.scripts])
    sys.argv = ["scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(PORT[0])]
    sys.argv += ["--db", db_url]
    from scorekeeper import start

    start.main()


def floor(modules: list[str]) -> None:
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112 - a module made at run time, not importable
            continue
    bare()


def bare() -> None:
    import runpy
    from pathlib import Path

    from waitress.server import create_server

    here = Path(__file__).resolve().parent
    app = runpy.run_path(str(here / "baseline_app.py"))["app"]
    # the settings of ``scorekeeper serve`` with its defaults (scorekeeper/serving.py)
    server = create_server(
        app,
        listen=f"127.0.0.1:{PORT[0]}",
        threads=8,
        ident="baseline",
        max_request_body_size=64 * 1024 * 1024,
        connection_limit=500,
        channel_timeout=30,
        asyncore_use_poll=True,
        cleanup_interval=15,
    )
    LISTENING.set()
    server.run()


def main(argv: list[str]) -> None:
    PORT.append(free_port())
    kind = argv[0]
    if kind == "app":
        out = argv[argv.index("--modules") + 1] if "--modules" in argv else None
        app(argv[1], out)
    else:
        threading.Thread(target=client, daemon=True).start()
        if kind == "floor":
            with open(argv[1]) as names:
                floor([line.strip() for line in names if line.strip()])
        else:
            bare()


if __name__ == "__main__":
    main(sys.argv[1:])
