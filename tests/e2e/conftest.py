"""Real-browser fixtures: the app served from a thread, Debian's chromium driven by Playwright.

- ``live_app`` (session): the app as in production (CSRF on) on a throwaway SQLite file.
- ``live_server`` (session): its base URL, e.g. ``http://127.0.0.1:41234``.
- ``browser`` (session): headless ``/usr/bin/chromium`` (``SCOREKEEPER_CHROMIUM`` overrides).
- ``context``, ``page`` (per test): a fresh context (no cookies) with a phone viewport of
  390×844; uncaught JavaScript errors on the page fail the test.
- ``shot``: ``shot(page, "name")`` saves what the phone shows (``full_page=True``: the whole
  page) to ``/tmp/shots/name.png`` (``SCOREKEEPER_SHOTS`` overrides the folder) and returns
  its path; look at them.
- ``scroll_width``: ``scroll_width(page)`` is the document's scroll width; more than 390 means
  the page scrolls sideways on a phone.

Every test in this folder is marked ``e2e``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.e2e.helpers import PHONE, wait_ready

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("SCOREKEEPER_SHOTS", "/tmp/shots"))
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SECRET_KEY": "e2e",
            "DATABASE_URL": f"sqlite:///{folder / 'e2e.sqlite3'}",
            # One address playing many tables a minute; the limits have their own tests.
            "RATELIMIT_ENABLED": False,
        }
    )
    yield app
    engine = app.extensions.get("scorekeeper.engine")
    if engine is not None:
        engine.dispose()


@pytest.fixture(scope="session")
def live_server(live_app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
    yield browser
    browser.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(5000)
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # Every way a test lands on a new document waits for its scripts as well, so a test acts
    # on the page a person would meet a moment later, never on one whose htmx is not started.
    def waiting(step: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            result = step(*args, **kwargs)
            if kwargs.get("wait_until") not in ("commit", "domcontentloaded"):
                wait_ready(page)
            return result

        return run

    for name in ("goto", "reload", "go_back", "go_forward", "wait_for_url"):
        setattr(page, name, waiting(getattr(page, name)))
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def shot() -> Callable[..., Path]:
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str, full_page: bool = False) -> Path:
        path = SHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def scroll_width() -> Callable[[Page], int]:
    def width(page: Page) -> int:
        return int(page.evaluate("document.documentElement.scrollWidth"))

    return width
