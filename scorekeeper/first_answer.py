"""Work started in a thread of its own once the app's first answer is out: what a start leaves
out because its first page does not need it (the store's mappers configured, the phone
engine's archive made, the pages' modules imported; docs/measurements.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Flask, Response


def after_first_answer(app: Flask, name: str, job: Callable[[], object]) -> None:
    """Run ``job`` in a daemon thread called ``name`` once the app's first answer has been sent
    (or has begun, when it is an event stream, which may stay open for hours): neither the start
    nor the first answer share the interpreter with it. Started once, whatever answers come at
    the same time."""
    started: list[bool] = []
    once = threading.Lock()

    def start() -> None:
        threading.Thread(target=job, name=name, daemon=True).start()

    def after(response: Response) -> Response:
        if not started:
            with once:
                if not started:
                    started.append(True)
                    if response.is_streamed:
                        start()
                    else:
                        response.call_on_close(start)
        return response

    app.after_request(after)
