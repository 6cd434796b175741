"""A real package: the built wheel, installed into a fresh venv, serves pages and PDFs from any
folder.

The wheel is built from this checkout and installed (without dependencies) into a new venv; the
dependencies come from the test environment through a ``.pth`` line, so no network is needed.
``scorekeeper serve`` then starts with a temporary folder as its working directory and a fresh
SQLite file: the schema comes from the packaged migrations, the templates and catalogues from
inside the installed package (the German ``.mo`` compiled into the instance folder).
"""

from __future__ import annotations

import io
import os
import re
import socket
import sqlite3
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.wheel

# translations/de/LC_MESSAGES/messages.po: the start page's lead sentence.
GERMAN_LEAD = "Punkte am Tisch aufschreiben, Regelfragen klären, Punktelisten drucken."
GERMAN_REFEREE = "Schiedsrichter fragen"


def run(args: list[str], cwd: Path | None = None) -> str:
    result = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=cwd)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (the package only from the wheel)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--wheel-dir",
            str(dist),
            str(ROOT),
        ]
    )
    wheels = list(dist.glob("scorekeeper-*.whl"))
    assert len(wheels) == 1, wheels
    env = base / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(env)])
    python = env / "bin" / "python"
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip()
    )
    # The dependencies: the test environment's site-packages, after the venv's own.
    (site / "_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            str(wheels[0]),
        ]
    )
    return env


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's working directory, far from the checkout; its database lives here."""
    return tmp_path_factory.mktemp("elsewhere")


@pytest.fixture(scope="module")
def server(venv: Path, elsewhere: Path) -> Iterator[str]:
    cwd = elsewhere
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SCOREKEEPER_", "PYTHON"))
    }
    env["SCOREKEEPER_DATABASE_URL"] = f"sqlite:///{cwd / 'games.sqlite3'}"
    log = (cwd / "server.log").open("w")
    process = subprocess.Popen(
        [str(venv / "bin" / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (cwd / "server.log").read_text()
            try:
                fetch(url + "/api/v1/rulesets")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, (cwd / "server.log").read_text()
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_the_package_comes_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    where = run(
        [str(venv / "bin" / "python"), "-c", "import scorekeeper; print(scorekeeper.__file__)"],
        cwd=tmp_path,
    ).strip()
    assert Path(where).is_relative_to(venv), where
    package = Path(where).parent
    assert (package / "templates" / "base.html").is_file()
    assert (package / "translations" / "de" / "LC_MESSAGES" / "messages.po").is_file()
    assert (package / "migrations" / "versions").is_dir()
    assert (package / "sheets" / "fonts" / "DejaVuSans.ttf").is_file()
    assert not list(package.rglob("*.mo")), "compiled catalogues are never shipped"
    # the reference site built from docs/ (hatch_build.py), served at /docs/
    assert (package / "docs_site" / "index.html").is_file()
    assert (package / "docs_site" / "rulebook.html").is_file()


def test_serves_a_german_page(server: str) -> None:
    status, content_type, body = fetch(server + "/?lang=de")
    assert status == 200 and content_type.startswith("text/html")
    page = body.decode("utf-8")
    assert GERMAN_LEAD in page and GERMAN_REFEREE in page


def test_serves_the_reference_site(server: str) -> None:
    status, content_type, body = fetch(server + "/docs/api.html")
    assert status == 200 and content_type.startswith("text/html")
    assert b"card.too_many" in body


def test_serves_a_german_pdf(server: str) -> None:
    status, content_type, body = fetch(server + "/sheets/blank.pdf?ruleset=german&lang=de")
    assert status == 200 and content_type == "application/pdf"
    assert body.startswith(b"%PDF")


def test_serve_migrated_the_new_database(server: str, elsewhere: Path) -> None:
    with closing(sqlite3.connect(elsewhere / "games.sqlite3")) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        versions = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    assert {"games", "hands", "alembic_version"} <= tables
    assert len(versions) == 1


def test_catalogues_compiled_into_the_instance_folder(server: str, venv: Path) -> None:
    # Flask's instance folder of an installed package: <prefix>/var/<package>-instance.
    instance = venv / "var" / "scorekeeper-instance"
    assert (instance / "translations" / "de" / "LC_MESSAGES" / "messages.mo").is_file()
    assert (instance / "translations" / "pl" / "LC_MESSAGES" / "messages.mo").is_file()


def test_serves_the_phones_engine(server: str) -> None:
    """The installed package makes the engine archive from its own files (docs/engine.md) and
    serves the vendored runtime."""

    status, _type, body = fetch(server + "/rules/german?lang=de")
    page = body.decode("utf-8")
    found = re.search(r'data-engine-archive="([^"]+)"', page)
    assert status == 200 and found
    status, content_type, body = fetch(server + found.group(1))
    assert status == 200 and content_type == "application/zip"
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        names = set(z.namelist())
    assert "scorekeeper/stateless/__init__.py" in names
    assert "scorekeeper/edge/reading.py" in names
    assert "scorekeeper/stateless/catalogues/de/LC_MESSAGES/messages.mo" in names
    runtime = re.search(r'data-engine-runtime="([^"]+)"', page)
    assert runtime
    status, content_type, body = fetch(server + runtime.group(1) + "pyodide.asm.wasm")
    assert status == 200 and content_type == "application/wasm" and body[:4] == b"\0asm"
