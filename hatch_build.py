"""Wheel build hook: map the checkout's top-level templates/ and translations/ into the package.

The folders stay where a reader of the repository expects them; an installed wheel finds them
inside ``scorekeeper/`` (see ``scorekeeper.data_folder``). Editable installs get nothing copied:
they read the checkout itself. A wheel also carries the reference site built from docs/ by
MkDocs (``docs``), which the app serves at /docs/; only that build asks for MkDocs
(``dependencies``). The mapping and the skipped patterns are configured in pyproject.toml
(``[tool.hatch.build.targets.wheel.hooks.custom]``).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _asked_for_editable() -> bool:
    """Whether this process is answering PEP 660's ``get_requires_for_build_editable``.

    Hatchling asks a hook for its dependencies without saying which kind of wheel is wanted,
    so the question is read from the calling frames (the backend's own function names).
    """
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "get_requires_for_build_editable":
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def dependencies(self) -> list[str]:
        """The ``docs`` extra (MkDocs and its theme) for a standard wheel, which carries the
        built site; nothing for an editable install (the README's ``pip install -e``): that one
        builds /docs/ from the checkout with the extra installed into the venv, and the first
        install does not put a second copy of MkDocs (mkdocs-material alone is some 15,000
        files) into pip's isolated build environment."""
        if not self.config.get("docs") or _asked_for_editable():
            return []
        return list(self.metadata.core.optional_dependencies.get("docs", []))

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        skip = list(self.config.get("skip", []))
        for source, target in self.config.get("map", {}).items():
            folder = root / source
            for path in sorted(folder.rglob("*")):
                relative = path.relative_to(folder).as_posix()
                if not path.is_file() or "__pycache__" in path.parts:
                    continue
                if any(fnmatch(path.name, pattern) for pattern in skip):
                    continue
                build_data["force_include"][str(path)] = f"{target}/{relative}"
        docs = self.config.get("docs")
        if docs and (root / "mkdocs.yml").is_file():
            # The reference site, built in strict mode (a broken link stops the build).
            site = Path(tempfile.mkdtemp(prefix="scorekeeper-docs-"))
            subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
                cwd=root,
                check=True,
            )
            for path in sorted(site.rglob("*")):
                if path.is_file():
                    build_data["force_include"][str(path)] = (
                        f"{docs}/{path.relative_to(site).as_posix()}"
                    )
