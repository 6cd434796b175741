"""The referee page (/referee) and the rules pages (/rules/<ruleset>), through the test client."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.rules.explain import (
    ITEM_PARAMS,
    SECTIONS,
    THREE_IS_FIFTY_ITEMS,
    THREE_IS_FIFTY_SECTIONS,
    rule_item,
    section_of,
)
from scorekeeper.rules.referee import RULE_OF_CODE_PREFIX, rule_anchor
from scorekeeper.rules.ruleset import RULESET_IDS
from scorekeeper.web.words.messages import MESSAGES

HX = {"HX-Request": "true"}

# question, form values, expected verdict (yes / no / info), a phrase of the answer (English)
CASES = [
    ("meld", {"ruleset": "german", "cards": "K K K"}, "yes", "Legal meld of kings"),
    ("meld", {"ruleset": "german", "cards": "7 7 7 7 7 2 2"}, "yes", "mixed canasta"),
    (
        "meld",
        {"ruleset": "german", "cards": "8 8 2 2 X"},
        "no",
        "at least as many natural cards as wild cards",
    ),
    (
        "meld",
        {"ruleset": "polish", "players": "2", "cards": "8 8 2 2 X"},
        "yes",
        "Legal meld of eights",
    ),
    ("meld", {"ruleset": "german", "cards": "3h 3h 3h"}, "no", "Red threes are never melded"),
    (
        "initial-meld",
        {"ruleset": "german", "score": "2000", "melds": "K K K 2 / 4 4 4"},
        "yes",
        "counts 95 and reaches the 90 needed",
    ),
    (
        "initial-meld",
        {"ruleset": "german", "score": "3000", "melds": "K K K 2 / 4 4 4"},
        "no",
        "counts 95, but the side needs 120",
    ),
    (
        "initial-meld",
        {"ruleset": "classic", "score": "1.000", "melds": "KKK2|444"},
        "yes",
        "counts 65 and reaches the 50 needed",
    ),  # twos are worth 20 in Classic
    (
        "discard-pile",
        {"ruleset": "german", "top_card": "K", "hand": "K K 5", "side_has_melded": "yes"},
        "yes",
        "two natural kings",
    ),
    (
        "discard-pile",
        {"ruleset": "german", "top_card": "2", "hand": "K K 5"},
        "no",
        "A wild card on top blocks the pile",
    ),
    (
        "discard-pile",
        {"ruleset": "german", "top_card": "K", "hand": "K 2 5", "pile_has_wild": "1"},
        "no",
        "The pile is frozen",
    ),
    (
        "discard-pile",
        {
            "ruleset": "polish",
            "players": "2",
            "top_card": "3\u2660",
            "hand": "3\u2660 3\u2660",
            "going_out": "1",
            "side_melds": "K K K K K K K / D D D D D D D",
        },
        "yes",
        "black three",
    ),
    # seed 003: the black-three exit still needs the side's canastas.
    (
        "discard-pile",
        {
            "ruleset": "polish",
            "players": "2",
            "top_card": "3\u2660",
            "hand": "3\u2660 3\u2660",
            "going_out": "1",
            "side_melds": "K K K",
        },
        "no",
        "Going out needs 2 canastas",
    ),
    # The pad writes black threes with their suit; the answer speaks of black threes and
    # quotes the black-three rule.
    (
        "meld",
        {"ruleset": "german", "cards": "3\u2660 3\u2660 3\u2663", "going_out": "1"},
        "yes",
        "Black threes are melded only when going out",
    ),
    # docs/rulebook.md §5: going out by adding to the side's melds on the table.
    (
        "go-out",
        {"ruleset": "german", "side_melds": "7 7 7 7 7 2 2", "melds": "7 7"},
        "yes",
        "going out scores",
    ),
    ("go-out", {"ruleset": "german", "natural": "1", "mixed": "0"}, "yes", "going out scores"),
    (
        "go-out",
        {"ruleset": "polish", "players": "2", "natural": "1"},
        "no",
        "Going out needs 2 canastas; the side has 1.",
    ),
    (
        "go-out",
        {"ruleset": "german", "natural": "0", "concealed": "1", "melds": "7 7 7 7 7 7 7 / K K K"},
        "yes",
        "Going out concealed scores 200",
    ),
    (
        "go-out",
        {
            "ruleset": "german",
            "mixed": "1",
            "concealed": "1",
            "melded_before": "1",
            "melds": "4 4 4",
        },
        "no",
        "has not melded anything earlier",
    ),
    ("minimum", {"ruleset": "german", "score": "2000"}, "info", "needs at least 90"),
    ("minimum", {"ruleset": "german", "score": "-50"}, "info", "needs no minimum"),
    (
        "minimum",
        {"ruleset": "classic", "players": "6", "score": "7000"},
        "info",
        "needs at least 150",
    ),
]


def _verdict(html: str, question: str) -> str | None:
    """The verdict class in a fragment, or in the question's answer slot of a full page."""
    marker = f'id="answer-{question}"'
    slot = html.split(marker, 1)[1].split("</section>", 1)[0] if marker in html else html
    found = re.search(r'data-verdict="([a-z-]+)"', slot)
    return found.group(1) if found else None


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


# ---- the referee page -------------------------------------------------------------------------


def test_page_has_five_questions_and_the_card_pad(client: FlaskClient) -> None:
    response = client.get("/referee?lang=en")
    assert response.status_code == 200
    html = response.text
    for question in ("meld", "initial-meld", "discard-pile", "go-out", "minimum"):
        assert f'id="q-{question}"' in html
        assert f'hx-post="/referee/{question}"' in html
        assert f'action="/referee/{question}#q-{question}"' in html
    assert "data-cardpad" in html
    assert 'name="csrf_token"' in html
    # The minimum is answered at once, for a score of 0.
    assert _verdict(html, "minimum") == "info"
    assert _verdict(html, "meld") is None


@pytest.mark.parametrize(
    ("lang", "letters"),
    [("de", ["B", "D", "K", "A"]), ("pl", ["W", "D", "K", "A"]), ("en", ["J", "Q", "K", "A"])],
)
def test_card_pad_letters_follow_the_reader(
    client: FlaskClient, lang: str, letters: list[str]
) -> None:
    html = client.get(f"/referee?lang={lang}").text
    assert f'<html lang="{lang}">' in html
    pad = html.split("data-cardpad", 1)[1]
    shown = re.findall(r'data-card="([^"]+)"', pad)
    for letter in letters:
        assert letter in shown
    # Threes carry their suit, as on the hand pad: "3b" would read as a three and a jack
    # (Bube) to a German player.
    assert shown[-4:] == ["2", "X", "3\u2665", "3\u2660"]


@pytest.mark.parametrize(("question", "data", "expected", "phrase"), CASES)
def test_fragment_answers(
    client: FlaskClient, question: str, data: dict[str, str], expected: str, phrase: str
) -> None:
    response = client.post(f"/referee/{question}?lang=en", data=data, headers=HX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert _verdict(response.text, question) == expected
    assert phrase in _text(response.text)
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize(("question", "data", "expected", "phrase"), CASES[::3])
def test_without_htmx_the_whole_page_answers(
    client: FlaskClient, question: str, data: dict[str, str], expected: str, phrase: str
) -> None:
    response = client.post(f"/referee/{question}?lang=en", data=data)
    assert response.status_code == 200
    assert '<html lang="en">' in response.text
    assert _verdict(response.text, question) == expected
    assert phrase in _text(response.text)
    assert "HX-Request" in response.headers["Vary"]
    # The form keeps what was entered.
    for key, value in data.items():
        if key not in ("ruleset", "players") and key in ("cards", "melds", "top_card", "hand"):
            assert f'value="{value}"' in response.text


def test_history_restore_gets_the_whole_page(client: FlaskClient) -> None:
    response = client.post(
        "/referee/meld",
        data={"cards": "K K K"},
        headers={**HX, "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.text


def test_page_and_api_say_the_same(client: FlaskClient) -> None:
    page = client.post(
        "/referee/meld",
        data={"ruleset": "german", "cards": "8 8 2 2 X"},
        headers={**HX, "Accept-Language": "de"},
    )
    api = client.post(
        "/api/v1/referee/meld",
        json={"ruleset": "german", "cards": "8 8 2 2 X"},
        headers={"Accept-Language": "de"},
    ).get_json()
    message = api["reasons"][0]["message"]
    assert _text(message) in _text(page.text)
    assert f"/rules/german#{api['reasons'][0]['rule']}" in page.text


def test_other_rulesets_are_compared(client: FlaskClient) -> None:
    html = client.post(
        "/referee/meld?lang=en", data={"ruleset": "german", "cards": "88 2 2 X"}, headers=HX
    ).text
    text = _text(html)
    assert "Under other rules:" in text
    assert "Polish : Yes (worth 110)" in text
    assert "Classic : No" in text
    same = client.post(
        "/referee/meld?lang=en", data={"ruleset": "german", "cards": "K K K"}, headers=HX
    ).text
    assert "Under other rules:" not in same
    assert "The same under the other rules (Polish, Classic, American)" in _text(same)


def test_players_limit_the_comparison(client: FlaskClient) -> None:
    # Going out with 2 players: German is not played by two, so it is not compared.
    html = client.post(
        "/referee/go-out?lang=en",
        data={"ruleset": "polish", "players": "2", "natural": "1"},
        headers=HX,
    ).text
    assert "Classic" in html
    assert "German" not in html


def test_house_rules_change_the_answer_and_are_shown(client: FlaskClient) -> None:
    options = quote(json.dumps({"two_value": 20}))
    page = client.get(f"/referee?lang=en&ruleset=german&options={options}").text
    assert "House rules" in page
    assert "Value of a two" in page
    assert 'name="options" value="{&#34;two_value&#34;:20}"' in page
    html = client.post(
        "/referee/meld?lang=en",
        data={"ruleset": "german", "cards": "K K 2", "options": '{"two_value": 20}'},
        headers=HX,
    ).text
    text = _text(html)
    assert "worth 40" in text
    assert "German without house rules : Yes (worth 70)" in text
    assert "options=" in html  # the quoted rule links to the rules with the house rules


def test_the_score_setting_fills_the_score_fields(client: FlaskClient) -> None:
    html = client.get("/referee?ruleset=polish&players=2&score=1500").text
    assert html.count('name="score" value="1500"') >= 4
    assert "needs at least 90" in _text(html)
    assert 'name="players" value="2"' in html


def test_a_ruling_can_be_linked(client: FlaskClient) -> None:
    html = client.get("/referee?lang=en&q=meld&cards=8+8+2+2+X&ruleset=polish").text
    assert _verdict(html, "meld") == "yes"
    assert 'value="8 8 2 2 X"' in html


def test_game_link_hook(client: FlaskClient) -> None:
    html = client.get("/referee?game=abcDEF_123-x").text
    assert 'href="/games/abcDEF_123-x"' in html
    assert 'name="game" value="abcDEF_123-x"' in html
    html = client.get("/referee?game=../../etc").text
    assert "/games/" not in html


# ---- bad input: a message, never a 500 --------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "data", "phrase"),
    [
        ("meld", {"cards": "K Z"}, "Unknown card \u201cZ\u201d."),
        ("meld", {"cards": "3 3 3"}, "A three needs its colour"),
        ("meld", {"cards": "K" * 3000}, "Too much input"),
        ("initial-meld", {"melds": "K K K", "score": "lots"}, "whole number"),
        ("initial-meld", {"melds": "K K K", "top_card": "K Q"}, "Unknown card"),
        ("discard-pile", {"top_card": "K", "score": "1e9"}, "whole number"),
        ("go-out", {"natural": "-1"}, "number of canastas"),
        ("go-out", {"natural": "99"}, "number of canastas"),
        ("go-out", {"mixed": "\u00b2"}, "number of canastas"),
        ("minimum", {"score": "\u00b2"}, "whole number"),
        ("minimum", {"score": "\u221210x"}, "whole number"),
    ],
)
def test_bad_input_gives_a_message(
    client: FlaskClient, question: str, data: dict[str, str], phrase: str
) -> None:
    fragment = client.post(f"/referee/{question}?lang=en", data=data, headers=HX)
    assert fragment.status_code == 200
    assert _verdict(fragment.text, question) == "check-input"
    assert phrase in _text(fragment.text).replace("&#34;", '"')
    page = client.post(f"/referee/{question}?lang=en", data=data)
    assert page.status_code == 422
    assert phrase in _text(page.text)


@pytest.mark.parametrize(
    "query",
    [
        "ruleset=nope",
        "ruleset=german&players=2",
        "players=abc",
        "players=99999999999",
        "players=%C2%B2",
        "ruleset=%00",
        "game=%C2%B2",
        "options=%7Bnot+json",
        "options=%5B1%5D",
        "options=%7B%22nope%22%3A1%7D",
        "options=%7B%22two_value%22%3A-5%7D",
        "score=abc",
        "q=nope",
        "q=meld&cards=%00%01",
        "options=" + "%5B" * 5000,
    ],
)
def test_bad_settings_give_a_note(client: FlaskClient, query: str) -> None:
    response = client.get(f"/referee?lang=en&{query}")
    assert response.status_code == 200
    assert 'id="q-meld"' in response.text
    posted = client.post(
        "/referee/meld?lang=en",
        data=dict(pair.split("=", 1) for pair in query.split("&")),
        headers=HX,
    )
    assert posted.status_code == 200


def test_bad_settings_are_explained(client: FlaskClient) -> None:
    assert "Unknown ruleset \u201cnope\u201d." in client.get("/referee?lang=en&ruleset=nope").text
    german_for_two = client.get("/referee?lang=en&ruleset=german&players=2").text
    assert "played by 4 players, not 2" in german_for_two
    assert "could not be read" in client.get("/referee?lang=en&options=%7Bx").text
    assert "Unknown house rule" in client.get("/referee?lang=en&options=%7B%22x%22%3A1%7D").text


def test_empty_questions_ask_for_input(client: FlaskClient) -> None:
    for question in ("meld", "initial-meld", "discard-pile"):
        html = client.post(f"/referee/{question}", data={}, headers=HX).text
        assert "answer-hint" in html
        assert "data-verdict" not in html


def test_user_input_is_escaped(client: FlaskClient) -> None:
    evil = '<script>alert(1)</script>"'
    html = client.post("/referee/meld", data={"cards": evil}, headers=HX).text
    assert "<script>alert" not in html
    page = client.post("/referee/meld", data={"cards": evil, "game": evil}).text
    assert "<script>alert" not in page
    assert "&lt;script&gt;" in page


def test_unknown_question_is_404(client: FlaskClient) -> None:
    assert client.post("/referee/nope", data={}).status_code == 404
    assert client.get("/referee/meld").status_code == 405


def test_plain_forms_need_the_csrf_token(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'csrf.sqlite3'}",
        }
    )
    try:
        client = app.test_client()
        page = client.get("/referee?lang=en").text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token is not None
        assert client.post("/referee/meld", data={"cards": "K K K"}).status_code == 400
        answered = client.post(
            "/referee/meld", data={"cards": "K K K", "csrf_token": token.group(1)}
        )
        assert answered.status_code == 200
        assert _verdict(answered.text, "meld") == "yes"
    finally:
        app.extensions["scorekeeper.engine"].dispose()


# ---- the rules pages --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_rules_page_has_every_section(client: FlaskClient, ruleset_id: str) -> None:
    response = client.get(f"/rules/{ruleset_id}?lang=en")
    assert response.status_code == 200
    for anchor in SECTIONS:
        assert f'id="{anchor}"' in response.text
    for anchor in set(RULE_OF_CODE_PREFIX.values()) - {"moves"}:
        assert f'id="{anchor}"' in response.text


def test_three_is_fifty_has_a_rules_page(client: FlaskClient) -> None:
    html = client.get("/rules/three-is-fifty?lang=en").text
    for anchor in THREE_IS_FIFTY_SECTIONS:
        assert f'id="{anchor}"' in html
    assert f'id="{rule_anchor("three_is_fifty.no_match")}"' in html
    text = _text(html)
    assert "Three 50" in text and "Ace 11" in text and "Joker 10" in text
    house = _text(client.get('/rules/three-is-fifty?lang=en&options={"joker":25}').text)
    assert "Joker 25 House rule" in house
    assert "could not be read" in client.get('/rules/three-is-fifty?options={"joker":-1}').text


@pytest.mark.parametrize("lang", ["de", "pl", "en"])
def test_rules_page_answers_in_the_readers_language(client: FlaskClient, lang: str) -> None:
    html = client.get(f"/rules/german?lang={lang}").text
    assert f'<html lang="{lang}">' in html
    # Card letters of the reader's language in the value table.
    expected = {"de": "K D B 10 9 8", "pl": "K D W 10 9 8", "en": "K Q J 10 9 8"}[lang]
    assert expected in html


def test_rules_numbers_come_from_the_ruleset(client: FlaskClient) -> None:
    german = _text(client.get("/rules/german?lang=en").text)
    polish = _text(client.get("/rules/polish?lang=en").text)
    classic = _text(client.get("/rules/classic?lang=en").text)
    assert "Two 50" in german and "Two 20" in polish
    assert "there are no wild canastas" in german
    assert "2,000" in polish and "wild cards only earns a bonus of 2,000" in polish
    assert "black three left in hand costs 100" in polish
    assert "below 0 none" in german and "below 0 15" in polish
    assert "7,000 and more 150" in classic  # six players
    assert "7,500" in classic and "10,000" in classic  # targets by players
    assert "A side needs 1 canasta to go out." in german
    assert "Exception: a player who goes out may take a pile stopped by a black three" in polish
    assert "Exception" not in german


def test_rules_page_marks_house_rules(client: FlaskClient) -> None:
    options = quote(json.dumps({"two_value": 20, "target": 3000}))
    html = client.get(f"/rules/german?lang=en&options={options}").text
    text = _text(html)
    assert "House rules in this game" in text
    assert "Value of a two: 20 (normally 50)" in text
    assert "Two 20 House rule" in text
    assert "reach 3,000 points" in text
    assert html.count('class="badge"') >= 3


def test_rules_page_with_unreadable_house_rules(client: FlaskClient) -> None:
    response = client.get("/rules/german?lang=en&options=%7Bnope")
    assert response.status_code == 200
    assert "could not be read" in response.text


def test_unknown_ruleset_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/rules/nope?lang=en")
    assert response.status_code == 404
    assert '<html lang="en">' in response.text
    assert client.get("/rules/german%20").status_code == 404


def test_nav_links_to_referee_and_rules(client: FlaskClient) -> None:
    html = client.get("/?lang=de").text  # the rules a German reader most likely plays
    assert 'href="/referee"' in html
    assert 'href="/rules/german"' in html


# ---- which rule an answer quotes ---------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_quoted_rule_lies_in_the_linked_section(code: str) -> None:
    item = rule_item(code)
    assert section_of(item) == rule_anchor(code)
    assert item in ITEM_PARAMS or item in THREE_IS_FIFTY_ITEMS


def test_every_item_is_on_the_rules_page(app: Flask) -> None:
    from scorekeeper.rules.ruleset import PRESETS
    from scorekeeper.web.rulebook.book import rule_items

    with app.test_request_context("/?lang=en"):
        keys = set()
        for rs in PRESETS.values():
            keys |= set(rule_items(rs))
    # Items a ruleset leaves out (no exception, no largest meld) need not appear everywhere.
    assert keys <= set(ITEM_PARAMS)
    assert set(ITEM_PARAMS) - keys <= {"melds.max_size"}
    assert {section_of(k) for k in keys} == set(SECTIONS)


def test_the_rules_asked_about_follow_the_language(client: FlaskClient) -> None:
    """Without a ruleset in the query the referee answers for the rules the reader's language
    most likely means: German rules in German, Polish in Polish, Classic in English."""
    for lang, ruleset in (("de", "german"), ("pl", "polish"), ("en", "classic")):
        html = client.get(f"/referee?lang={lang}").text
        current = re.search(r'<a href="([^"]*)" class="active" aria-current="page">', html)
        assert current is not None and f"ruleset={ruleset}" in current.group(1), lang


# ---- "What may I do?" -----------------------------------------------------------------------


def test_options_form_answers_the_polish_pile_in_polish(client: FlaskClient) -> None:
    """seed 003: a Polish side that has not melded takes an unfrozen pile (K-K-X, 70 >= 50)."""
    response = client.post(
        "/referee/options?lang=pl",
        headers=HX,
        data={
            "ruleset": "polish",
            "players": "4",
            "hand": "K X D D D",
            "top_card": "K",
            "side_has_melded": "no",
            "score": "0",
        },
    )
    assert response.status_code == 200
    text = _text(response.text)
    assert _verdict(response.text, "options") == "info"
    assert "Weź stos kart odkrytych" in text
    assert "Pierwsze wyłożenie z największą liczbą punktów" in text
    assert 'data-move="take_pile"' in response.text
    # Each move quotes its rule and links the ruleset's rules page.
    assert 'href="/rules/polish#discard-pile"' in response.text


def test_options_form_goes_out_in_german(client: FlaskClient) -> None:
    """seed 000: 7 7 onto the mixed canasta of sevens, discard the 9 (35+100+300+100 = 535)."""
    response = client.post(
        "/referee/options?lang=de",
        headers=HX,
        data={
            "ruleset": "german",
            "hand": "7 7 9",
            "side_melds": "7 7 7 7 7 2 2",
            "drawn": "1",
            "melded_before": "1",
        },
    )
    text = _text(response.text)
    assert "Ausmachen" in text and "535" in text
    assert "Zuletzt 9 abwerfen." in text


def test_options_form_problems_and_empty(client: FlaskClient) -> None:
    bad = client.post("/referee/options", headers=HX, data={"ruleset": "german", "hand": "K Z"})
    assert _verdict(bad.text, "options") == "check-input"
    assert "Unknown card" in _text(bad.text)
    empty = client.post("/referee/options", headers=HX, data={"ruleset": "german", "hand": ""})
    assert _verdict(empty.text, "options") is None
    assert "every move you may make appears here" in empty.text
    # Without JavaScript: the whole page, the answer in place.
    page = client.post(
        "/referee/options",
        data={"ruleset": "classic", "hand": "K K Q Q 2", "top_card": "K", "side_has_melded": "no"},
    )
    assert page.status_code == 200
    assert _verdict(page.text, "options") == "info"
    assert "Take the discard pile" in _text(page.text)


def test_options_api(client: FlaskClient) -> None:
    """docs/api.md §3 "Referee questions": moves with kind, cards, melds, points, rule."""
    response = client.post(
        "/api/v1/referee/options",
        json={
            "ruleset": "classic",
            "players": 4,
            "hand": ["K", "K", "Q", "Q", "2"],
            "top_card": "K",
            "side_has_melded": False,
            "cumulative_score": 0,
        },
    )
    assert response.status_code == 200
    body = response.get_json()
    take = [m for m in body["moves"] if m["kind"] == "take_pile"]
    assert len(take) == 1
    # seed 002: "K-K-K, Q-Q-2 using the king from the top of the pile, for 70 points"
    assert take[0]["points"] == 70
    assert sorted(sorted(m) for m in take[0]["melds"]) == [["2", "Q", "Q"], ["K", "K", "K"]]
    assert take[0]["rule"] == "discard-pile"
    assert take[0]["reason"]["message"]
    bad = client.post("/api/v1/referee/options", json={"ruleset": "classic", "hand": "K Z"})
    assert bad.status_code == 422  # as the other referee questions answer an unknown card
    assert [p["code"] for p in bad.get_json()["problems"]] == ["card.unknown"]
    missing = client.post("/api/v1/referee/options", json={"ruleset": "classic"})
    assert missing.status_code == 400


@pytest.mark.parametrize(
    ("ruleset", "lang", "phrases"),
    [
        (
            "polish",
            "en",
            [
                "A reading:",
                "Zamrożenie stosu odkrytego",
                "-100 punktów",
                "eight or more wild cards",
                "with 2 canastas needed, both",
            ],
        ),
        ("german", "de", ["Eine Auslegung:", "Über 3.000", "genau 3.000 Punkten: 120"]),
        ("classic", "en", ["A reading:", "nobody has won yet"]),
    ],
)
def test_readings_are_on_the_rules_pages(
    client: FlaskClient, ruleset: str, lang: str, phrases: list[str]
) -> None:
    """Every reading of an unclear seed is stated on the rules page with the seed's
    words (seed 000, seed 003)."""
    text = _text(client.get(f"/rules/{ruleset}?lang={lang}").text).replace("&#34;", '"')
    for phrase in phrases:
        assert phrase in text, phrase


def test_a_reading_that_is_a_house_rule_is_marked(client: FlaskClient) -> None:
    options = quote(json.dumps({"pile_frozen_until_melded": True}))
    html = client.get(f"/rules/polish?options={options}&lang=en").text
    block = html.split('id="rule-discard-pile-not_melded"', 1)[1].split("</div>", 1)[0]
    assert "House rule" in block
    assert "always frozen" in block
