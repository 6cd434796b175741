"""A dispute asked in words (GET /api/v1/rules/search, /rules/search, the referee page): the
paragraph of the seeds that settles each question is among the first three answers."""

from __future__ import annotations

import sqlite3

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.web.rulebook.rule_map import rule_map
from scorekeeper.web.rulebook.search import (
    MAX_QUERY,
    RuleIndex,
    fold,
    query_terms,
    search_rules,
)

#: (language, question, the paragraph that answers it: seed and line)
QUESTIONS: list[tuple[str, str, str, int]] = [
    ("de", "ist der Stapel eingefroren, wenn ein Joker drauf liegt?", "000", 85),
    ("pl", "czy mogę wyjść bez kanasty?", "003", 112),
    ("en", "can I take the pile with a black three on top?", "002", 208),
    ("de", "Darf ich meinen Partner fragen, ob ich ausmachen darf?", "000", 125),
    ("de", "Was passiert, wenn die letzte Karte eine rote Drei ist?", "000", 134),
    ("pl", "czerwona trójka ze stosu odkrytego", "003", 80),
    ("en", "what happens when the stock runs out?", "002", 254),
    ("de", "Wie viele Punkte brauche ich für die erste Meldung?", "000", 58),
    ("pl", "ile kart dostaje każdy gracz?", "003", 27),
    ("en", "how many wild cards can a meld have?", "002", 182),
    ("de", "Wie lange sperrt eine schwarze Drei den Stapel?", "000", 97),
    ("en", "who plays alone in three player canasta?", "002", 137),
    ("de", "Wer gibt bei 3 ist 50 als nächster?", "001", 24),
    ("de", "Wird die Mitte bei 3 ist 50 nachgefüllt?", "001", 65),
    ("en", "may I ask my partner may I go out", "002", 53),
    ("pl", "ile punktów za czarną trójkę na ręce?", "003", 70),
    ("de", "Was zählt ein Joker?", "000", 31),
    ("en", "how much is a natural canasta worth", "002", 161),
    ("pl", "czy można dokładać do meldunków przeciwnika?", "003", 42),
    ("de", "verdeckt ausmachen Bonus", "000", 131),
    ("en", "two players draw two cards", "002", 129),
    ("pl", "kiedy stos jest zamrożony?", "003", 106),
    ("pl", "czy czarna trójka blokuje stos?", "003", 104),
    ("de", "Dürfen wir an die Meldung der Gegner anlegen?", "000", 72),
    # the partner's question typed as it is asked at the table (a phrase counts more)
    ("de", "Darf ich ausmachen?", "000", 125),
    ("en", "may I go out?", "002", 250),
    ("pl", "Czy mogę wyjść?", "002", 250),
]


@pytest.mark.parametrize(("lang", "question", "seed", "line"), QUESTIONS)
def test_the_answering_paragraph_is_among_the_first_three(
    lang: str, question: str, seed: str, line: int
) -> None:
    found = [(p.seed[:3], p.line) for p in search_rules(question, lang, 3)]
    assert (seed, line) in found, f"{question!r}: {found}"


def test_the_questions_cover_three_languages_and_many_rules() -> None:
    assert len(QUESTIONS) >= 20
    assert {lang for lang, *_ in QUESTIONS} == {"de", "pl", "en"}
    topics = set()
    for _, _, seed, line in QUESTIONS:
        p = rule_map().find(seed, line)
        assert p is not None and p.topic is not None, (seed, line)
        topics.add(p.topic.key)
    assert len(topics) >= 18


def test_this_pythons_sqlite_has_fts5_with_trigrams() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='trigram')")
    db.execute("INSERT INTO t VALUES ('abwurfstapel')")
    assert db.execute("SELECT count(*) FROM t WHERE t MATCH '\"stapel\"'").fetchone() == (1,)
    assert RuleIndex(rule_map()).trigram


def test_words_are_folded_and_stemmed() -> None:
    assert fold("Łódź zählt Trójkę") == "lodz zahlt trojke"
    assert query_terms("czy mogę wyjść bez kanasty?") == ["wyjs", "bez", "kanas"]
    assert query_terms("ist der Stapel eingefroren") == ["stap", "eingef"]
    assert query_terms('a " OR * ""') == []


def test_quotes_and_operators_in_a_question_are_plain_words() -> None:
    assert search_rules('Joker" OR NEAR(x', "de")
    assert search_rules("*** --- ()", "en") == []


# ---- the JSON API ------------------------------------------------------------------------------


def test_api_answers_best_first_with_the_referee_question(client: FlaskClient) -> None:
    response = client.get(
        "/api/v1/rules/search", query_string={"q": "Joker oben auf dem Stapel", "lang": "de"}
    )
    assert response.status_code == 200
    results = response.get_json()["results"]
    assert 1 <= len(results) <= 10
    first = results[0]
    assert set(first) >= {"seed", "line", "text", "referee"}
    assert first["seed"].endswith(".txt") and first["seed"].startswith("000_")
    p = rule_map().find(first["seed"], first["line"])
    assert p is not None and p.text == first["text"]
    assert first["referee"] == "discard-pile"
    # a rule kept on the rules page only has no referee question
    dealt = client.get("/api/v1/rules/search", query_string={"q": "who sits where", "lang": "en"})
    assert any(r["referee"] is None for r in dealt.get_json()["results"])


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"lang": "de"}, "request.missing"),
        ({"q": "   ", "lang": "de"}, "request.missing"),
        ({"q": "x" * (MAX_QUERY + 1), "lang": "pl"}, "request.text_too_long"),
        ({"q": "Joker", "lang": "fr"}, "request.value"),
    ],
)
def test_api_refuses_empty_long_or_unknown(
    client: FlaskClient, query: dict[str, str], code: str
) -> None:
    response = client.get("/api/v1/rules/search", query_string=query)
    assert response.status_code == 400
    problem = response.get_json()["problems"][0]
    assert problem["code"] == code


def test_api_problem_is_in_the_askers_language(client: FlaskClient) -> None:
    german = client.get("/api/v1/rules/search?q=&lang=de").get_json()["problems"][0]
    polish = client.get("/api/v1/rules/search?q=&lang=pl").get_json()["problems"][0]
    assert german["message"] != polish["message"]
    assert "q" in german["message"] and "q" in polish["message"]


def test_api_reads_are_rate_limited(tmp_path: object) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": "sqlite://",
            "RATELIMIT_ENABLED": True,
            "LIMIT_ANY": "3 per minute",
        }
    )
    client = app.test_client()
    codes = [client.get("/api/v1/rules/search?q=Joker&lang=de").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


# ---- the pages ---------------------------------------------------------------------------------


def test_referee_page_asks_in_words_and_links_the_question_opened(client: FlaskClient) -> None:
    page = client.get("/referee?ruleset=german&lang=de")
    assert page.status_code == 200
    assert 'action="/rules/search"' in page.text and 'name="q"' in page.text
    asked = client.get(
        "/rules/search",
        query_string={
            "q": "ist der Stapel eingefroren, wenn ein Joker drauf liegt?",
            "ruleset": "german",
            "lang": "de",
        },
        headers={"HX-Request": "true"},
    )
    assert asked.status_code == 200
    assert "<html" not in asked.text  # htmx gets the answers alone
    assert 'href="/referee?ruleset=german#q-discard-pile"' in asked.text
    assert "Schiedsrichter" in asked.text


def test_a_shared_link_of_the_referee_page_answers_at_once(client: FlaskClient) -> None:
    page = client.get("/referee?ruleset=polish&lang=pl&words=czy+mogę+wyjść+bez+kanasty")
    assert page.status_code == 200
    assert 'value="czy mogę wyjść bez kanasty"' in page.text
    assert "#q-go-out" in page.text


def test_search_page_without_javascript_and_its_problems(client: FlaskClient) -> None:
    page = client.get("/rules/search?q=red+three+last+card&lang=en")
    assert page.status_code == 200 and "<html" in page.text
    assert "A red three drawn as the last card" in page.text
    empty = client.get("/rules/search?q=&lang=pl")
    assert empty.status_code == 400 and 'role="alert"' in empty.text
    fresh = client.get("/rules/search?lang=de")
    assert fresh.status_code == 200 and 'role="alert"' not in fresh.text
    long = client.get("/rules/search", query_string={"q": "x" * 500, "lang": "de"})
    assert long.status_code == 400


def test_user_text_is_escaped(client: FlaskClient) -> None:
    page = client.get("/rules/search", query_string={"q": "<script>alert(1)</script> Joker"})
    assert "<script>alert(1)" not in page.text
    assert "&lt;script&gt;" in page.text


def test_rules_page_has_the_question_box(client: FlaskClient, app: Flask) -> None:
    page = client.get("/rules/polish?lang=pl")
    assert 'name="ruleset" value="polish"' in page.text
    assert 'id="ask-results"' in page.text
