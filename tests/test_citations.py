"""Every citation points inside the repository: the code, tests, templates and docs cite the
project's own rulebook (docs/rulebook.md), API reference (docs/api.md) and docs/, never a file a
clone does not hold. Tests may still read the seed documents (shared/seeds beside the
repository) as their source."""

from __future__ import annotations

import re
import subprocess

from scorekeeper import ROOT

# built from parts, so that this file does not cite them itself
OUTSIDE = re.compile(
    "|".join(
        [
            r"\b" + "RULES" + r"\.md",
            r"\b" + "CONTRACT" + r"\.md",
            "STACK" + "-NOTES",
            r"\b" + "STYLE" + r"\.md",
            r"\.\./" + r"shared/(?!seeds\b)",
        ]
    )
)
TEXT = (".py", ".html", ".md", ".js", ".mjs", ".css", ".json", ".toml", ".yml", ".yaml", ".po")


def tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [name for name in done.stdout.splitlines() if name.endswith(TEXT)]


def test_no_citation_points_outside_the_repository() -> None:
    found = []
    names = tracked()
    assert "docs/rulebook.md" in names and "docs/api.md" in names
    for name in names:
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found[:40])


def test_the_check_finds_such_a_citation() -> None:
    assert OUTSIDE.search("see " + "RULES" + ".md §3")
    assert OUTSIDE.search("../" + "shared/" + "CONTRACT" + ".md")
    assert not OUTSIDE.search("the seed ../shared/seeds/000_x.txt and docs/rulebook.md §3")
