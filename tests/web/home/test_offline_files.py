"""What the phone needs to play on offline: the service worker served from ``/`` and asked for
again on every visit (``no-cache``), its address carrying the release (a changed static file
makes a new address, so a new worker replaces the kept files), the page for an address never
opened in the reader's language, and the words of the banner and the outbox on every page."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.app import assets


def test_the_worker_is_served_from_the_root_and_never_kept_stale(client: FlaskClient) -> None:
    answer = client.get("/sw.js?v=abc")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert 'addEventListener("fetch"' in answer.text


def test_every_page_names_the_worker_of_this_release(client: FlaskClient) -> None:
    page = client.get("/").text
    found = re.search(r'data-worker="/sw\.js\?v=([0-9a-f]{12})"', page)
    assert found
    assert 'id="offline-banner"' in page


def test_a_changed_static_file_changes_the_release(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.css").write_text("body { color: black }")
    (folder / "sw.js").write_text("// one")
    before = assets.release(str(folder))
    assert before == assets.release(str(folder))
    (folder / "app.css").write_text("body { color: red }")
    assert assets.release(str(folder)) != before
    shutil.rmtree(folder)
    assert assets.release(str(folder)) == ""


def test_the_page_never_opened_speaks_the_readers_language(client: FlaskClient) -> None:
    english = client.get("/offline?lang=en")
    assert english.status_code == 200 and "never opened on this phone" in english.text
    assert english.headers["Cache-Control"] == "no-cache"
    german = client.get("/offline?lang=de").text
    assert "nie geöffnet" in german
    polish = client.get("/offline?lang=pl").text
    assert "nigdy nie była otwarta" in polish
    assert "Offline — stan z {time}" in polish  # the banner's words, the time filled in later


def test_the_outbox_words_are_translated(app: Flask, client: FlaskClient) -> None:
    page = client.get("/?lang=de").text
    assert 'data-send="Jetzt senden"' in page
    assert 'data-title="Wartet aufs Speichern"' in page
