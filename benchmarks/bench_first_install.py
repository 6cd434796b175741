"""The README's start command on a fresh clone with empty caches: how long until the first page.

Clones this checkout's HEAD into a temporary folder, runs the start command that README.md
shows (``--pip``: the same install with pip alone, as the README names it) with empty pip and uv
caches and no pip configuration (a newcomer's machine has neither), then starts
``scorekeeper serve`` on a free loopback port and waits for its first ``GET /`` 200. Prints
the phases in seconds: the clone, the venv, the install, the first page. The install needs PyPI;
a run takes a minute or two. docs/measurements.md, "The first install", has the figures.

    .venv/bin/python benchmarks/bench_first_install.py [--pip] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = " && .venv/bin/scorekeeper serve"
PIP_INSTALL = ".venv/bin/pip install -e '.[docs]'"


def readme_command() -> str:
    """The start command exactly as README.md shows it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("## Start it", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0].strip()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def one_run(pip: bool) -> dict[str, float]:
    base = Path(tempfile.mkdtemp(prefix="first-install-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_", "VIRTUAL_ENV"))}
    env.update(PIP_CONFIG_FILE=os.devnull, HOME=str(base / "home"), XDG_CACHE_HOME=str(base / "c"))
    (base / "home").mkdir()
    clone = base / "scorekeeper"
    command = readme_command()
    assert command.endswith(SERVE), command
    venv, install = command[: -len(SERVE)].split(" && ", 1)
    if pip:
        install = PIP_INSTALL
    try:
        times: dict[str, float] = {}
        start = time.monotonic()
        for name, args in (
            ("clone", f"git clone -q {ROOT} {clone}"),
            ("venv", venv),
            ("install", install),
        ):
            began = time.monotonic()
            done = subprocess.run(
                ["bash", "-c", args],
                cwd=clone if name != "clone" else base,
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise RuntimeError(f"{args} failed:\n{done.stdout}{done.stderr}")
            times[name] = time.monotonic() - began
        began = time.monotonic()
        port = free_port()
        server = subprocess.Popen(
            [str(clone / ".venv/bin/scorekeeper"), "serve", "--port", str(port)],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                        if page.status == 200:
                            break
                except OSError:
                    if server.poll() is not None:
                        raise RuntimeError("serve ended before its first page") from None
                    time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=30)
        times["first page"] = time.monotonic() - began
        times["total"] = time.monotonic() - start
        return times
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pip", action="store_true", help="install with pip alone")
    parser.add_argument("--runs", type=int, default=1)
    options = parser.parse_args()
    print("command:", PIP_INSTALL if options.pip else readme_command())
    for _ in range(options.runs):
        times = one_run(options.pip)
        print("  ".join(f"{name} {seconds:.1f} s" for name, seconds in times.items()), flush=True)


if __name__ == "__main__":
    main()
