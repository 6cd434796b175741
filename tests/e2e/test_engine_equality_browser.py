"""The rules engine on the phone answers as the server does (docs/engine.md).

Over the seeded corpus of tests/engine_corpus.py (400 score requests over every ruleset, player
count, entry mode and house rule, 359 referee requests of every kind and of 3 ist 50, a share
of them refused), real chromium loads a page, waits for ``window.scorekeeperEngine`` to be
ready (Pyodide in a Web Worker, no service worker needed) and answers every request on the
phone in the language it is asked in; the server's API answers the same request. Status and
JSON body must be equal, request by request. Then the same engine under a name that is no
secure context (as a phone on the LAN meets it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, Playwright, Request
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.e2e.conftest import CHROMIUM
from tests.e2e.helpers import PHONE
from tests.engine_corpus import LANGS, corpus

READY = "html[data-engine='ready']"
LOAD_TIMEOUT = 90_000  # ms: a cold start compiles 9.6 MB of WebAssembly on a shared machine

ASK_ALL = """async (groups) => {
  const out = {};
  for (const [lang, items] of groups) {
    document.documentElement.lang = lang;
    out[lang] = await Promise.all(items.map(([question, request]) =>
      question === "score" ? scorekeeperEngine.score(request)
        : scorekeeperEngine.referee(question.slice("referee/".length), request)));
  }
  return JSON.stringify(out);
}"""


def phone_answers(page: Page, items: list[tuple[str, Any, str]]) -> list[tuple[int, Any]]:
    """Every item answered by the page's engine, in one evaluation, as (status, body)."""
    groups = [[lang, [[q, r] for q, r, asked in items if asked == lang]] for lang in LANGS]
    found = json.loads(page.evaluate(ASK_ALL, groups))
    by_lang = {lang: iter(found[lang]) for lang in LANGS}
    out = []
    for _q, _r, lang in items:
        body = next(by_lang[lang])
        status = body.pop("status", 200) if isinstance(body, dict) else 200
        out.append((status, body))
    return out


def server_answer(app: Flask, question: str, request: Any, lang: str) -> tuple[int, Any]:
    sent = app.test_client().post(
        f"/api/v1/{question}?lang={lang}",
        data=json.dumps(request),
        content_type="application/json",
    )
    return sent.status_code, json.loads(sent.data)


def assert_equal(
    items: list[tuple[str, Any, str]], phone: list[tuple[int, Any]], servers: list[tuple[int, Any]]
) -> None:
    differ = [
        (question, lang, json.dumps(request)[:300], mine, theirs)
        for (question, request, lang), mine, theirs in zip(items, phone, servers, strict=True)
        if mine != theirs
    ]
    assert not differ, f"{len(differ)} answers differ; the first: {differ[0]}"


def test_the_phone_answers_every_request_as_the_server(
    page: Page, live_server: str, live_app: Flask
) -> None:
    asked_server: list[str] = []

    def seen(request: Request) -> None:
        if "/api/" in request.url:
            asked_server.append(request.url)

    page.goto(f"{live_server}/rules/german?lang=de")
    page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
    page.on("request", seen)
    items = corpus()
    assert len([i for i in items if i[0] == "score"]) >= 300
    assert len([i for i in items if i[0] != "score"]) >= 100
    phone = phone_answers(page, items)
    assert asked_server == []  # the phone answered by itself
    servers = [server_answer(live_app, q, r, lang) for q, r, lang in items]
    assert {theirs[0] for theirs in servers} == {200, 400, 422}
    assert_equal(items, phone, servers)
    assert page.evaluate("scorekeeperEngine.steps.snapshot") is False

    # The next page restores the engine this phone kept (a snapshot of its memory, in
    # IndexedDB): it answers the whole corpus alike again.
    page.wait_for_selector("html[data-engine-kept]", state="attached", timeout=LOAD_TIMEOUT)
    page.goto(f"{live_server}/rules/classic?lang=en")
    page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
    assert page.evaluate("scorekeeperEngine.steps.snapshot") is True
    assert_equal(items, phone_answers(page, items), servers)
    assert asked_server == []

    # As the page offers it: a refused request carries its status; words in <html lang>.
    page.evaluate("document.documentElement.lang = 'pl'")
    body = page.evaluate("scorekeeperEngine.referee('meld', {ruleset: 'german'})")
    assert body["status"] == 400
    assert body["problems"][0]["code"] == "request.missing"
    assert body["problems"][0]["message"] == "Brakuje pola „cards”."
    assert page.evaluate("scorekeeperEngine.state") == "ready"
    assert 5_000_000 < page.evaluate("scorekeeperEngine.size") <= 8_000_000


@pytest.fixture
def lan_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("lan-engine")
    app = create_app(
        {
            "SECRET_KEY": "e2e",
            "DATABASE_URL": f"sqlite:///{folder / 'e2e.sqlite3'}",
            "RATELIMIT_ENABLED": False,
            "SCOREKEEPER_TRUSTED_HOSTS": "table.test",
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://table.test:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        app.extensions["scorekeeper.engine"].dispose()


def test_the_engine_works_without_a_secure_context(playwright: Playwright, lan_app: str) -> None:
    """On plain http under a LAN-like name: no service worker, yet the engine answers."""
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=["--host-resolver-rules=MAP table.test 127.0.0.1"],
    )
    try:
        page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{lan_app}/rules/classic?lang=de")
        page.wait_for_selector(READY, state="attached", timeout=LOAD_TIMEOUT)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'serviceWorker' in navigator") is False
        body = page.evaluate(
            "scorekeeperEngine.score({ruleset: 'classic', players: 4, teams: ["
            "{quick: {natural_canastas: 1, meld_points: 120}, went_out: true},"
            "{quick: {meld_points: 60, hand_points: 15}}]})"
        )
        assert [t["score"] for t in body["teams"]] == [720, 45]
        assert errors == []
    finally:
        browser.close()
