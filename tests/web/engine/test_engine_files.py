"""The engine's files as the app serves them (docs/engine.md): the archive made from the source
tree and held to it, the vendored runtime cached for a year, the worker's own policy."""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from gettext import GNUTranslations
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper import data_folder
from scorekeeper.web import engine
from scorekeeper.web.engine import archive

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "scorekeeper"


def entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def test_the_archive_is_reproducible() -> None:
    assert archive.build() == archive.build()
    with zipfile.ZipFile(io.BytesIO(archive.build())) as z:
        assert {i.date_time for i in z.infolist()} == {archive.STAMP}


def test_the_archive_holds_exactly_the_engine_as_the_source_tree_has_it() -> None:
    """Every module of edge/, rules/ and stateless/ (and the package's __init__), byte for byte, and
    nothing of the web, the store or the sheets."""
    found = entries(archive.current().data)
    sources = {
        "scorekeeper/" + p.relative_to(PACKAGE).as_posix(): p.read_bytes()
        for folder in ("edge", "rules", "stateless")
        for p in (PACKAGE / folder).rglob("*.py")
    }
    sources["scorekeeper/__init__.py"] = (PACKAGE / "__init__.py").read_bytes()
    modules = {name: data for name, data in found.items() if name.endswith(".py")}
    assert modules == sources
    assert set(found) - set(modules) == {
        f"{archive.CATALOGUES}/{lang}/LC_MESSAGES/messages.mo" for lang in ("de", "pl")
    }


def test_the_archive_catalogues_translate_every_message_as_the_servers() -> None:
    found = entries(archive.current().data)
    said = archive.said()
    assert len(said) > 100
    for lang in ("de", "pl"):
        cut = GNUTranslations(
            io.BytesIO(found[f"{archive.CATALOGUES}/{lang}/LC_MESSAGES/messages.mo"])
        )
        po = data_folder("translations") / lang / "LC_MESSAGES" / "messages.po"
        whole = GNUTranslations(io.BytesIO(archive.catalogue(po, {(None, "")} | _all(po))))
        assert cut.info()["plural-forms"] == whole.info()["plural-forms"]
        translated = 0
        for context, msgid in said:
            if context:
                assert cut.pgettext(context, msgid) == whole.pgettext(context, msgid)
                continue
            assert cut.gettext(msgid) == whole.gettext(msgid), msgid
            for n in (1, 2, 5, 22):
                assert cut.ngettext(msgid, msgid, n) == whole.ngettext(msgid, msgid, n)
            translated += cut.gettext(msgid) != msgid or cut.ngettext(msgid, msgid, 5) != msgid
        assert translated > 0.95 * len(said)
        assert len(cut._catalog) < len(whole._catalog) / 3  # type: ignore[attr-defined]


def _all(po: Path) -> set[tuple[str | None, str]]:
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}


def test_a_changed_source_changes_the_archive(tmp_path: Path) -> None:
    """The archive follows the source: a module edited gives other bytes and another digest."""
    import shutil

    copy = tmp_path / "scorekeeper"
    for part in ("edge", "rules", "stateless"):
        shutil.copytree(PACKAGE / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PACKAGE / "__init__.py", copy / "__init__.py")
    before = archive.build(copy)
    assert before == archive.build()
    with (copy / "rules" / "scoring.py").open("a") as handle:
        handle.write("\n# changed\n")
    assert archive.build(copy) != before


def test_the_app_serves_the_archive_of_the_source_tree(client: FlaskClient) -> None:
    built = archive.build()
    digest = archive.current().digest
    sent = client.get(f"/engine/{digest}/scorekeeper.zip")
    assert sent.status_code == 200 and sent.data == built
    assert sent.mimetype == "application/zip"
    assert "immutable" in sent.headers["Cache-Control"]
    assert client.get("/engine/0123456789abcdef/scorekeeper.zip").status_code == 404


def test_the_runtime_is_sent_compressed_and_kept_for_a_year(client: FlaskClient) -> None:
    base = f"/engine/pyodide/{engine.PYODIDE_VERSION}/"
    folder = PACKAGE / "static" / "pyodide" / engine.PYODIDE_VERSION
    sent = client.get(base + "pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, br"})
    assert sent.status_code == 200
    assert sent.headers["Content-Type"] == "application/wasm"
    assert sent.headers["Content-Encoding"] == "gzip"
    assert "max-age=31536000" in sent.headers["Cache-Control"]
    assert "immutable" in sent.headers["Cache-Control"]
    assert gzip.decompress(sent.data) == (folder / "pyodide.asm.wasm").read_bytes()
    assert len(sent.data) == engine.PIN["sent_bytes"]["pyodide.asm.wasm"]
    plain = client.get(base + "pyodide.asm.wasm")
    assert "Content-Encoding" not in plain.headers
    assert plain.data == (folder / "pyodide.asm.wasm").read_bytes()
    assert client.get(base + "pyodide.mjs").mimetype == "text/javascript"
    stdlib = client.get(base + "python_stdlib.zip", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in stdlib.headers  # a zip is compressed already
    assert client.get(base + "package.json").status_code == 404
    assert client.get("/engine/pyodide/0.26.0/pyodide.mjs").status_code == 404


def test_only_the_worker_may_compile_webassembly(client: FlaskClient) -> None:
    worker = client.get("/engine/worker.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    policy = worker.headers["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy.replace("'wasm-", "")
    assert "connect-src" not in policy  # default-src 'self': nothing from another origin
    page = client.get("/rules/german")
    assert "wasm" not in page.headers["Content-Security-Policy"]


def test_the_pages_of_play_name_the_engine(client: FlaskClient) -> None:
    for url in ("/referee?lang=de", "/rules/german", "/rules/three-is-fifty"):
        html = client.get(url).text
        link = re.search(
            r"<link rel=\"prefetch\" as=\"script\" href=\"/static/engine.js[^>]+>", html
        )
        assert link, url
        size = int(re.search(r'data-engine-size="(\d+)"', link.group(0)).group(1))  # type: ignore[union-attr]
        assert size == engine.download_size()
        assert 5_000_000 < size <= 8_000_000
        assert (
            f'data-engine-archive="/engine/{archive.current().digest}/scorekeeper.zip"'
            in link.group(0)
        )
    assert "engine.js" not in client.get("/").text  # the start page does not load it


def test_the_download_size_counts_what_is_sent(client: FlaskClient) -> None:
    total = 0
    base = f"/engine/pyodide/{engine.PYODIDE_VERSION}/"
    for name in engine.PIN["files"]:
        total += len(client.get(base + name, headers={"Accept-Encoding": "gzip"}).data)
    total += len(client.get(f"/engine/{archive.current().digest}/scorekeeper.zip").data)
    assert total == engine.download_size()
    assert json.loads((PACKAGE / "web" / "engine" / "pyodide.json").read_text())["version"]


def test_the_operator_may_switch_the_engine_off(client: FlaskClient) -> None:
    client.application.config["PHONE_ENGINE"] = False
    assert "engine.js" not in client.get("/rules/german").text
    assert "data-engine" not in client.get("/referee").text


def test_the_engine_files_count_against_no_rate_limit(tmp_path: Path) -> None:
    """A table of phones fetching the engine at once is never refused its files."""
    from scorekeeper import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'e.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            "LIMIT_ANY": "3 per minute",
        }
    )
    try:
        client = app.test_client()
        urls = [
            f"/engine/pyodide/{engine.PYODIDE_VERSION}/pyodide.mjs",
            f"/engine/{archive.current().digest}/scorekeeper.zip",
            "/engine/worker.js",
        ]
        assert [client.get(u).status_code for u in urls * 3] == [200] * 9
        assert [client.get("/referee").status_code for _ in range(4)][-1] == 429
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_the_archive_is_made_once_the_first_answer_is_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not while the server starts (docs/measurements.md): after its first answer, in a thread
    of its own, once; a page that needs it meanwhile waits for that one build."""
    import threading

    from scorekeeper import create_app

    built: list[str] = []
    made = threading.Event()
    real = archive._built.__wrapped__

    def counted(*args: object) -> archive.Archive:
        built.append(threading.current_thread().name)
        found = real(*args)
        made.set()
        return found

    monkeypatch.setattr(archive, "_built", counted)
    monkeypatch.setattr(archive, "_looked", [])
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}
    )
    try:
        client = app.test_client()
        assert built == []  # nothing made by the start
        with client.get("/") as first:
            assert first.status_code == 200
            assert built == []  # nor before the answer is sent
        assert made.wait(60)
        assert built == ["engine-archive"]
        assert client.get("/referee").status_code == 200  # names it: made already
        client.get("/")
        assert built == ["engine-archive"]
    finally:
        app.extensions["scorekeeper.engine"].dispose()


def test_a_first_answer_that_streams_starts_the_archive_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event stream may stay open for hours: the archive does not wait for it to end."""
    import threading

    from flask import Response

    from scorekeeper import create_app

    asked = threading.Event()
    monkeypatch.setattr(archive, "current", asked.set)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 's.db'}"}
    )
    app.add_url_rule("/stream", "stream", lambda: Response(iter([b"a", b"b"])))
    try:
        answer = app.test_client().get("/stream", buffered=False)
        assert answer.is_streamed
        assert asked.wait(10)  # while the stream is still open
        answer.close()
    finally:
        app.extensions["scorekeeper.engine"].dispose()
