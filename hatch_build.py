"""Wheel build hook: map the checkout's top-level templates/ and translations/ into the package.

The folders stay where a reader of the repository expects them; an installed wheel finds them
inside ``scorekeeper/`` (see ``scorekeeper.data_folder``). Editable installs get nothing copied:
they read the checkout itself. A wheel also carries the reference site built from docs/ by
MkDocs (``docs``), which the app serves at /docs/. The mapping and the skipped patterns are
configured in pyproject.toml (``[tool.hatch.build.targets.wheel.hooks.custom]``).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
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
