"""Routes registered from what the last start kept (``web/app/lazy_views.py``): the same URL
map as registering every area's module, every URL built from the start, each view imported on
its first call or once the first answer is out."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, url_for

from scorekeeper import create_app
from scorekeeper.web import AREAS, EAGER
from scorekeeper.web.app import lazy_views
from scorekeeper.web.app.lazy_views import LazyView


def _make(tmp_path: Path, name: str, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / name}",
            **config,
        }
    )


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "lazy-routes.json"
    monkeypatch.setattr(lazy_views, "FILE", path)
    return path


def _rules(app: Flask) -> list[tuple[Any, ...]]:
    return [
        (
            rule.rule,
            rule.endpoint,
            tuple(sorted(rule.methods or ())),
            rule.defaults,
            rule.subdomain,
            rule.host,
            rule.strict_slashes,
            rule.merge_slashes,
            rule.redirect_to,
            rule.alias,
            rule.build_only,
            rule.websocket,
            getattr(rule, "provide_automatic_options", None),
            type(rule),
        )
        for rule in app.url_map.iter_rules()
    ]


def _lazy_views(app: Flask) -> dict[str, LazyView]:
    found = {}
    for endpoint, view in app.view_functions.items():
        while not isinstance(view, LazyView) and hasattr(view, "__wrapped__"):
            view = view.__wrapped__
        if isinstance(view, LazyView):
            found[endpoint] = view
    return found


def test_kept_routes_give_the_same_url_map(tmp_path: Path, kept: Path) -> None:
    eager = _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    assert kept.exists()  # written by the start from the modules
    assert _lazy_views(eager) == {}
    lazy = _make(tmp_path, "b.sqlite3", LAZY_VIEWS=True)
    views = _lazy_views(lazy)
    # every area comes from the file but the start page's
    assert {e.split(".")[0] for e in views} == set(lazy.blueprints) - {"home", "health", "engine"}
    assert not any(e.startswith("home.") for e in views)
    # the JSON API's error handler, registered from the file for its blueprint alone
    assert lazy.error_handler_spec["api"] == eager.error_handler_spec["api"]
    assert set(lazy.error_handler_spec) == set(eager.error_handler_spec) == {None, "api"}
    assert _rules(lazy) == _rules(eager)
    assert lazy.url_map.converters == eager.url_map.converters
    assert {
        n: (bp.url_prefix, bp.import_name, Path(bp.root_path).resolve())
        for n, bp in lazy.blueprints.items()
    } == {
        n: (bp.url_prefix, bp.import_name, Path(bp.root_path).resolve())
        for n, bp in eager.blueprints.items()
    }
    for endpoint, view in views.items():
        assert view.load() is eager.view_functions[endpoint], endpoint


def test_every_url_builds_from_the_start(tmp_path: Path, kept: Path) -> None:
    eager = _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    lazy = _make(tmp_path, "b.sqlite3", LAZY_VIEWS=True)
    built: dict[str, list[str]] = {}
    for app in (eager, lazy):
        with app.test_request_context("/"):
            built[str(id(app))] = [
                url_for(rule.endpoint, **dict.fromkeys(rule.arguments, "1"))
                for rule in app.url_map.iter_rules()
            ]
    first, second = built.values()
    assert first == second and len(first) > 100


def test_a_view_from_the_file_answers_and_all_are_warmed_after_the_first_answer(
    tmp_path: Path, kept: Path
) -> None:
    _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    lazy = _make(tmp_path, "b.sqlite3", LAZY_VIEWS=True, WTF_CSRF_ENABLED=True)
    views = _lazy_views(lazy)
    client = lazy.test_client()
    first = client.get("/tables")
    assert first.status_code == 200  # a lazily registered page
    first.close()  # the answer is out: the views are imported in a thread from now on
    # the JSON API's blueprints are exempt from CSRF from the start
    answer = client.post("/api/v1/games", json={})
    assert answer.status_code == 400
    assert answer.get_json()["problems"][0]["code"] == "request.missing"  # the view's answer
    refused = client.put("/api/v1/score")  # the API's error handler, from the start
    assert refused.status_code == 405
    assert refused.get_json()["problems"][0]["code"] == "request.method"
    deadline = time.monotonic() + 30
    while any(v._target is None for v in views.values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [e for e, v in views.items() if v._target is None] == []


def test_a_changed_module_registers_from_the_modules(
    tmp_path: Path, kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    key = lazy_views.fingerprint()
    monkeypatch.setattr(lazy_views, "fingerprint", lambda: [*key, ["new.py", 1, 1]])
    app = _make(tmp_path, "b.sqlite3", LAZY_VIEWS=True)
    assert _lazy_views(app) == {}
    assert lazy_views._read(kept, lazy_views.fingerprint()) is not None  # kept anew


def test_a_blueprint_with_a_hook_is_not_kept(
    tmp_path: Path, kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    areas = lazy_views._read(kept, lazy_views.fingerprint())
    assert areas is not None
    assert set(areas["areas"]) == set(AREAS) - EAGER
    tables = sys.modules["scorekeeper.web.tables.routes"].bp
    assert lazy_views._routes_of(app, sys.modules["scorekeeper.web.tables.routes"], set())
    monkeypatch.setattr(tables, "before_request_funcs", {None: [lambda: None]})
    assert lazy_views._routes_of(app, sys.modules["scorekeeper.web.tables.routes"], set()) is None


def test_a_start_imports_no_page_module_before_its_first_answer(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from scorekeeper.web.app import lazy_views
        lazy_views.FILE = Path({str(tmp_path / "kept.json")!r})
        from scorekeeper import create_app
        app = create_app({{"SECRET_KEY": "t", "DATABASE_URL": "sqlite:///{tmp_path}/db.sqlite3"}})
        print(sorted(m for m in sys.modules if m.endswith(".routes")
                     and m.startswith("scorekeeper.web.")))
        """
    )
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    second = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "scorekeeper.web.tables.routes" in first.stdout
    assert second.stdout.strip() == str(
        ["scorekeeper.web.home.routes", "scorekeeper.web.live.routes"]
    )


def test_the_key_holds_every_module_of_the_web_layer() -> None:
    """The kept routes are found by the size and time of every module below ``web/``, nested
    folders too: an edited module anywhere makes the next start register from the modules."""
    key = lazy_views.fingerprint()
    on_disk = sorted(p.relative_to(lazy_views.WEB).as_posix() for p in lazy_views.WEB.rglob("*.py"))
    assert [name for name, _size, _time in key] == on_disk
    assert any("/" in name for name in on_disk)  # folders below web/ are walked
    routes = lazy_views.WEB / "games" / "routes.py"
    stat = routes.stat()
    assert ["games/routes.py", stat.st_size, stat.st_mtime_ns] in key


def test_the_guards_hold_on_views_from_the_file(tmp_path: Path, kept: Path) -> None:
    """The creation limit wraps a view from the file as it wraps the view itself, a form of a
    page from the file keeps its CSRF check, and a live preview from the file is exempt from
    it as the preview of a start from the modules is (docs/security.md)."""
    _make(tmp_path, "a.sqlite3", LAZY_VIEWS=False)
    lazy = _make(
        tmp_path,
        "b.sqlite3",
        LAZY_VIEWS=True,
        RATELIMIT_ENABLED=True,
        LIMIT_CREATE="2 per minute",
        WTF_CSRF_ENABLED=True,
    )
    views = _lazy_views(lazy)
    assert {"games_api.create", "games.new_game", "games.hand_preview"} <= set(views)
    client = lazy.test_client()
    body = {
        "ruleset": "german",
        "sides": [{"name": "A", "players": ["a", "b"]}, {"name": "B", "players": ["c", "d"]}],
    }
    created = [client.post("/api/v1/games", json=body) for _ in range(3)]
    assert [r.status_code for r in created] == [201, 201, 429]
    game_id = created[0].get_json()["id"]
    # a form without its token is refused by the CSRF check, before the view
    refused = client.post("/games/new", data={"ruleset": "german"})
    assert refused.status_code == 400
    assert "The form expired" in refused.get_data(as_text=True)
    # the live preview answers without a token: the view's own answer, a fragment
    preview = client.post(f"/games/{game_id}/preview", data={"out": "0"})
    assert preview.status_code == 200, preview.get_data(as_text=True)[:300]
