"""The stateless answers (scorekeeper.stateless.questions): pure Python that the server's
endpoints and the phone's engine both call (docs/engine.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from babel import numbers
from flask import Flask

from scorekeeper.stateless.questions import QUESTIONS, answer, answer_json
from scorekeeper.stateless.words import LANGUAGES, language, number
from scorekeeper.web.engine import archive

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("flask", "flask_babel", "babel", "sqlalchemy", "werkzeug", "jinja2", "reportlab")


def test_importing_the_stateless_answers_loads_no_web_library() -> None:
    probe = (
        "import json, sys\nimport scorekeeper.stateless.questions\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r}))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_archive_alone_answers_in_german_and_polish(tmp_path: Path) -> None:
    """A Python with nothing but the standard library and the archive (as the phone's
    Pyodide has) imports the answers and words them from the archive's own catalogues."""
    zipped = tmp_path / "scorekeeper.zip"
    zipped.write_bytes(archive.build())
    probe = (
        "import sys\n"
        f"sys.path[:] = [{str(zipped)!r}] + [p for p in sys.path if 'site-packages' not in p]\n"
        "from scorekeeper.stateless.questions import answer_json\n"
        'print(answer_json(\'referee/meld\', \'{"ruleset": "german", "cards": "K K"}\', \'de\'))\n'
        "print(answer_json('score', '{\"ruleset\": \"polish\", \"teams\": 5}', 'pl'))\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    meld, score, loaded = result.stdout.strip().splitlines()
    status, body = json.loads(meld)
    assert status == 200 and body["allowed"] is False
    assert body["reasons"][0]["message"].startswith("Eine Meldung braucht")
    status, body = json.loads(score)
    assert status == 400 and body["problems"][0]["code"] == "request.type"
    assert body["problems"][0]["message"] == "Pole „teams” ma wartość niewłaściwego rodzaju."
    assert loaded == "[]"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_are_written_as_babel_writes_them(lang: str) -> None:
    for value in (0, 5, -15, 999, 1000, -1000, 12345, 1234567, -99999999, 10**14):
        with language(lang):
            assert number(value) == numbers.format_decimal(value, locale=lang).replace(
                "-", "\u2212"
            ), value


def test_the_server_and_the_stateless_answer_word_alike(app: Flask) -> None:
    """The endpoint answers what the pure function answers, for the language asked."""
    client = app.test_client()
    request = {"ruleset": "german", "players": 4, "teams": [{"melds": [["K", "K"]]}, {}]}
    for lang in LANGUAGES:
        sent = client.post(f"/api/v1/score?lang={lang}", json=request)
        assert (sent.status_code, sent.get_json()) == answer("score", json.dumps(request), lang)


def test_every_question_of_the_api_is_answered() -> None:
    assert set(QUESTIONS) == {
        "score",
        "referee/meld",
        "referee/initial-meld",
        "referee/discard-pile",
        "referee/go-out",
        "referee/options",
        "referee/three-is-fifty",
    }
    for question in QUESTIONS:
        status, body = answer(question, "{", "en")
        assert status == 400 and body["problems"][0]["code"] == "request.invalid_json"
        status, body = answer(question, "[1]", "de")
        assert status == 400, question
    assert answer("referee/nothing", "{}", "en")[0] == 404


def test_answer_json_is_the_status_and_the_body() -> None:
    text = answer_json("referee/three-is-fifty", '{"middle": "5"}', "pl")
    status, body = json.loads(text)
    assert (status, body) == answer("referee/three-is-fifty", '{"middle": "5"}', "pl")


def test_a_deep_request_is_refused_not_raised() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert answer("score", deep, "en")[0] == 400


def test_the_docstring_example_runs() -> None:
    import doctest

    import scorekeeper.stateless.questions

    result = doctest.testmod(scorekeeper.stateless.questions)
    assert result.attempted >= 2 and result.failed == 0
