"""The bare Flask app the scorekeeper is measured against.

It is served by waitress with the settings ``scorekeeper serve`` uses (8 threads, poll, the
same connection limit and timeouts; loopback),
and answers with bodies of a size the benchmark asks for, so each figure compares the same
number of bytes through the same server:

* ``GET /`` and ``GET /minimal``: a minimal HTML page (the phone baseline, and "first 200");
* ``GET /bytes/<n>``: ``n`` bytes of HTML;
* ``POST /echo/<n>``: reads the body (JSON decoded when it is JSON, form fields otherwise)
  and answers ``n`` bytes (JSON when the request was JSON).

Run: ``python benchmarks/baseline_app.py PORT``.
"""

from __future__ import annotations

import sys

from flask import Flask, Response, request

MINIMAL = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8">'
    b'<meta name="viewport" content="width=device-width, initial-scale=1">'
    b"<title>minimal</title></head><body><p>minimal</p></body></html>"
)

app = Flask(__name__)


@app.get("/")
@app.get("/minimal")
def minimal() -> Response:
    return Response(MINIMAL, mimetype="text/html")


@app.get("/bytes/<int:size>")
def sized(size: int) -> Response:
    return Response(b"x" * size, mimetype="text/html")


@app.post("/echo/<int:size>")
def echo(size: int) -> Response:
    if request.is_json:
        request.get_json()
        body = b'{"x":"' + b"x" * max(0, size - 8) + b'"}'
        return Response(body, mimetype="application/json")
    dict(request.form)
    return Response(b"x" * size, mimetype="text/html")


if __name__ == "__main__":
    from waitress import serve

    # the settings of ``scorekeeper serve`` (scorekeeper/cli.py) with its defaults
    serve(
        app,
        listen=f"127.0.0.1:{int(sys.argv[1])}",
        threads=8,
        ident="baseline",
        max_request_body_size=512 * 1024,
        connection_limit=500,
        channel_timeout=30,
        asyncore_use_poll=True,
        cleanup_interval=15,
    )
