"""deploy/compose.yaml and its Caddyfile: Docker is not available here, so the
configuration is read and checked against the app: every setting it gives exists, every flag
of the command is one ``scorekeeper serve`` has, and the pieces fit together."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from scorekeeper.cli import serve
from scorekeeper.settings import ENVIRONMENT, from_environment

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def substituted(text: str) -> str:
    """``${NAME:?message}``, ``${NAME:-default}`` and ``${NAME}`` as compose fills them from a
    complete .env."""
    example = dict(
        line.split("=", 1)
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    values = {k: v or "x" * 32 for k, v in example.items()}
    return re.sub(r"\$\{(\w+)(?::[?-][^}]*)?\}", lambda m: values[m.group(1)], text)


def test_the_services(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"app", "db", "redis", "caddy"}
    assert services["app"]["deploy"]["replicas"] == 2
    assert services["db"]["image"].startswith("postgres:")
    assert services["caddy"]["image"].startswith("caddy:")
    assert "443:443" in services["caddy"]["ports"]
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "ports" not in services["app"]  # only Caddy is reachable from outside


def test_every_app_setting_exists(compose: dict[str, Any]) -> None:
    environment = compose["services"]["app"]["environment"]
    unknown = [name for name in environment if name not in ENVIRONMENT]
    assert unknown == []
    config = from_environment({k: substituted(v) for k, v in environment.items()})
    assert config["DATABASE_URL"].startswith("postgresql+psycopg://scorekeeper:")
    assert config["DATABASE_URL"].endswith("@db:5432/scorekeeper")
    assert config["BASE_URL"] == "https://canasta.example.org"
    assert config["SCOREKEEPER_TRUSTED_HOSTS"] == "canasta.example.org"
    assert config["RATELIMIT_STORAGE_URI"].startswith("redis://redis:")
    assert len(config["SECRET_KEY"]) >= 32
    assert config["BABEL_DEFAULT_TIMEZONE"] == "UTC"


def test_the_command_is_one_serve_understands(compose: dict[str, Any]) -> None:
    command = compose["services"]["app"]["command"]
    assert command[:2] == ["scorekeeper", "serve"]
    context = serve.make_context("serve", list(command[2:]))
    assert context.params["behind_proxy"] is True
    # the app's port is published to Caddy only, so any peer is the proxy
    assert context.params["trusted_proxy"] == "*"
    assert context.params["hosts"] == ("0.0.0.0",) and context.params["port"] == 8000
    with pytest.raises(click.UsageError):
        serve.make_context("serve", ["--no-such-flag"])


def test_caddy_proxies_to_the_app(compose: dict[str, Any]) -> None:
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    assert "{$SCOREKEEPER_DOMAIN} {" in caddyfile
    # static upstreams (active health checks skip dynamic ones): the replicas by the names
    # Docker gives them in the project "scorekeeper"
    assert compose["name"] == "scorekeeper"
    assert compose["services"]["app"]["deploy"]["replicas"] == 2
    assert re.search(
        r"\bto \{\$SCOREKEEPER_UPSTREAMS:scorekeeper-app-1:8000 scorekeeper-app-2:8000\}",
        caddyfile,
    )
    # pages and the live updates' streams go to the same processes, chosen the same way
    assert caddyfile.count("import app_processes") == 2
    mounted = compose["services"]["caddy"]["volumes"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in mounted
    assert "SCOREKEEPER_DOMAIN" in compose["services"]["caddy"]["environment"]
    assert not (DEPLOY / ".env").exists()  # secrets are never part of the checkout


def test_failover_health_checks_and_the_caddy_release() -> None:
    """Failover: active checks of GET /healthz and passive ones, retries for a while;
    the image is a release whose POST retry works (tests/test_proxy_stack.py runs the file)."""
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    for line in ("health_uri /healthz", "health_interval", "fail_duration", "lb_try_duration"):
        assert line in caddyfile, line
    # round_robin can pass over the one healthy process when requests race
    # (docs/deployment.md "Failover")
    assert "lb_policy least_conn" in caddyfile
    image = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["caddy"]["image"]
    version = tuple(int(part) for part in image.split(":")[1].split("."))
    assert version >= (2, 11, 4), image
    dockerfile = (DEPLOY.parent / "Dockerfile").read_text()
    assert "http://127.0.0.1:8000/healthz" in dockerfile.split("HEALTHCHECK", 1)[1]


def test_the_docs_section_the_compose_file_names_exists() -> None:
    named = re.search(r'docs/deployment\.md "([^"]+)"', (DEPLOY / "compose.yaml").read_text())
    assert named is not None
    headings = [
        line.lstrip("#").strip()
        for line in (DEPLOY.parent / "docs" / "deployment.md").read_text().splitlines()
        if line.startswith("#")
    ]
    assert named.group(1) in headings, headings


def test_what_the_dockerfile_imports_exists() -> None:
    """The image's build steps import the app's modules by name (docs/deployment.md): a module
    that moved would stop ``docker build`` only when someone builds, so each is checked here."""
    import importlib

    dockerfile = (DEPLOY.parent / "Dockerfile").read_text()
    imports = re.findall(r"from (scorekeeper[\w.]*) import ([\w, ]+?)[;\"]", dockerfile)
    assert len(imports) >= 3, imports
    for module, names in imports:
        loaded = importlib.import_module(module)
        for name in re.sub(r"\s+as\s+\w+", "", names).split(","):
            assert hasattr(loaded, name.strip()), f"{module}.{name.strip()}"
