"""The reference site: docs/ builds in MkDocs' strict mode (a broken link fails), the README
stays a newcomer's page, and the app serves the built site at /docs/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper import ROOT
from scorekeeper.web.docs import routes

README_LIMIT = 15_000


def test_the_readme_is_a_first_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= README_LIMIT
    # the two commands of a fresh machine, and the way to the reference
    start = (
        "python3 -m venv .venv && .venv/bin/pip install uv && "
        ".venv/bin/uv pip install -p .venv -e '.[docs]' && .venv/bin/scorekeeper serve"
    )
    assert start in readme
    assert "bash scripts/test" in readme
    for link in ("docs/api.md", "docs/rulebook.md", "docs/deployment.md", "docs/cli.md"):
        assert f"({link})" in readme
    for target in [part.split(")", 1)[0] for part in readme.split("](")[1:]]:
        if not target.startswith("http"):
            path, _, anchor = target.partition("#")
            assert (ROOT / path).exists(), target
            if anchor:  # a heading of that page, as MkDocs names its anchor
                headings = [
                    "-".join(line.lstrip("#").lower().split())
                    for line in (ROOT / path).read_text(encoding="utf-8").splitlines()
                    if line.startswith("#")
                ]
                assert anchor in headings, target
    shot = readme.split('<img src="', 1)[1].split('"', 1)[0]
    assert (ROOT / shot).is_file()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    return site


def test_every_docs_page_is_in_the_site(built: Path) -> None:
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    for name in pages:
        assert (built / f"{name}.html").is_file(), name


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# x\n\n[gone](nowhere.md)\n")
    config = (ROOT / "mkdocs.yml").read_text().split("\nnav:", 1)[0]
    (tmp_path / "mkdocs.yml").write_text(config)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "s")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode != 0
    assert "nowhere.md" in done.stderr


def test_the_app_serves_the_site(
    client: FlaskClient, built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes, "site_folder", lambda: built)
    with client.get("/docs/") as page:
        assert page.status_code == 200
        assert "rulebook.html" in page.text
    with client.get("/docs/rulebook.html") as rulebook:
        assert rulebook.status_code == 200 and "3 ist 50" in rulebook.text
        assert "'unsafe-inline'" in rulebook.headers["Content-Security-Policy"]
    assert client.get("/docs/../pyproject.toml").status_code == 404
    assert client.get("/docs/nothing.html").status_code == 404
    # the app's own pages keep their strict policy
    assert "'unsafe-inline'" not in client.get("/").headers["Content-Security-Policy"]


def test_without_a_built_site_the_page_says_how(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes, "site_folder", lambda: None)
    page = client.get("/docs/?lang=de")
    assert page.status_code == 404
    assert "[docs]" in page.text  # the extra that brings MkDocs into a checkout's venv


def test_a_checkout_without_a_built_site_builds_it_at_the_first_visit(
    client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's start command (no mkdocs build run) still gives a working /docs/: the site
    is built once into the instance folder; /docs/rulebook/ leads to the page."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text())
    shutil.copytree(ROOT / "docs", checkout / "docs")
    monkeypatch.setattr(routes, "ROOT", checkout)
    monkeypatch.setattr(routes, "PACKAGE", tmp_path / "package")
    with client.get("/docs/") as page:
        assert page.status_code == 200 and "rulebook.html" in page.text
    assert (Path(client.application.instance_path) / "docs_site" / "index.html").is_file()
    moved = client.get("/docs/rulebook/")
    assert moved.status_code == 301 and moved.headers["Location"].endswith("/docs/rulebook.html")


def test_only_a_standard_wheel_build_asks_for_mkdocs() -> None:
    """MkDocs is in neither the app's dependencies nor the build requirements: the README's
    editable install gets it once, from the docs extra, and pip's isolated build environment
    gets it only for a standard wheel, which carries the built site (hatch_build.py)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    docs = project["project"]["optional-dependencies"]["docs"]
    assert {name.split(">")[0] for name in docs} == {"mkdocs", "mkdocs-material"}
    for listed in (project["build-system"]["requires"], project["project"]["dependencies"]):
        assert not [name for name in listed if name.startswith("mkdocs")], listed
    asked = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, hatchling.build as b; print(json.dumps("
            "[b.get_requires_for_build_wheel(), b.get_requires_for_build_editable()]))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    wheel, editable = json.loads(asked.stdout)
    assert sorted(wheel) == sorted(docs)
    assert not [name for name in editable if name.startswith("mkdocs")], editable
