"""The examples in the rules engine's docstrings are run, so none of them can drift from
what the code does (every module under ``scorekeeper/rules``, at any depth)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scorekeeper.rules

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(scorekeeper.rules.__path__, "scorekeeper.rules.")
)


def test_every_module_is_found() -> None:
    assert "scorekeeper.rules.fifty.moves" in MODULES
    assert "scorekeeper.rules.scoring" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_the_examples_are_many() -> None:
    # A module whose examples stopped being collected would pass above with nothing tried.
    tried = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert tried >= 100
