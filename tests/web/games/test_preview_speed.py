"""The live preview's shortcuts keep it right: a game an earlier preview loaded is
used again only while the database holds it unchanged (a change by another process shows at
once, a deleted game is a 404), the kept games are bounded, and words remembered per language
never leak into another language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.web.play import pages
from scorekeeper.web.play.notes import Notes
from tests.web.fifty.test_fifty_pages import create as create_fifty
from tests.web.games.test_game_pages import create_game, cutthroat_game, hand_form, save_hand
from tests.web.pagehelpers import HTMX, form_of, slot


@pytest.fixture
def game_id(client: FlaskClient) -> str:
    return create_game(client)


@pytest.fixture
def full_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the games loaded in full (an ORM session and the derived state)."""
    loads: list[str] = []
    real = pages.find_game

    def counting(key: str, *args: Any) -> Any:
        loads.append(key)
        return real(key, *args)

    monkeypatch.setattr(pages, "find_game", counting)
    return loads


def a_hand(client: FlaskClient, game_id: str, points: str) -> Any:
    """A quick hand: side 0 melded ``points`` and went out, side 1 melded 150."""
    return hand_form(
        client,
        game_id,
        out="0",
        t0__mode="quick",
        t0__meld_points=points,
        t0__mixed_canastas="1",
        t1__mode="quick",
        t1__meld_points="150",
    )


def after(preview: str) -> list[str]:
    """Each side's total after the hand, as the preview shows it."""
    return re.findall(r'<span class="after">total ([^<]*)</span>', preview)


def test_unchanged_game_is_loaded_once(
    client: FlaskClient, game_id: str, full_loads: list[str]
) -> None:
    data = a_hand(client, game_id, "200")
    full_loads.clear()
    first = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    second = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert full_loads == [game_id]  # the second preview read the game's stamp only
    assert first == second
    assert after(first) == ["600", "150"]  # 200 + 300 for the canasta + 100 for going out
    save_hand(client, game_id, data)
    data = a_hand(client, game_id, "50")
    full_loads.clear()
    third = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert full_loads == [game_id]  # a new version: loaded in full again
    assert after(third) == ["1,050", "300"]  # 600 + 450 on top of the saved hand


def test_a_change_by_another_process_shows_at_once(
    client: FlaskClient, game_id: str, other_process: Flask
) -> None:
    data = a_hand(client, game_id, "200")
    before = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    other_client = other_process.test_client()
    save_hand(other_client, game_id, a_hand(other_client, game_id, "100"))
    now = client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).text
    assert now != before
    assert after(now) == ["1,100", "300"]  # 600 on top of the other process's 500
    # the preview's form still names the version it was loaded at: saving it is a conflict
    save_hand(client, game_id, data, expect=409)


def test_a_deleted_game_is_gone_for_the_preview(
    app: Flask, client: FlaskClient, game_id: str
) -> None:
    data = a_hand(client, game_id, "200")
    assert client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).status_code == 200
    with app.extensions["scorekeeper.engine"].begin() as connection:
        connection.execute(text("DELETE FROM games WHERE id = :id"), {"id": game_id})
    assert client.post(f"/games/{game_id}/preview", data=data, headers=HTMX).status_code == 404


def test_unknown_and_other_kinds_of_game_are_not_found(client: FlaskClient, game_id: str) -> None:
    data = a_hand(client, game_id, "200")
    for key in ("A" * 22, "no such game"):
        response = client.post(f"/games/{key}/preview", data=data, headers=HTMX)
        assert response.status_code == 404
    fifty = create_fifty(client)
    for _ in range(2):  # also once its row has been read for the stamp
        assert client.post(f"/games/{fifty}/preview", data=data, headers=HTMX).status_code == 404


def test_words_remembered_per_language_stay_in_their_language(
    client: FlaskClient, game_id: str
) -> None:
    data = hand_form(
        client,
        game_id,
        out="0",
        t0__mode="detail",
        t0__meld=["K K K K K K K", "5 5 5", ""],
        t0__hand=["", "4 4"],
        t1__mode="quick",
        t1__meld_points="150",
    )
    expected = {
        "en": ("7 cards · natural canasta: 70 + 500", "3 cards · 15 points", "2 cards · −10"),
        "de": (
            "7 Karten · Canasta (natürlich): 70 + 500",
            "3 Karten · 15 Punkte",
            "2 Karten · −10",
        ),
        "pl": ("7 kart · kanasta czysta: 70 + 500", "3 karty · 15 punktów", "2 karty · −10"),
    }
    for lang in ("en", "de", "pl", "en", "pl", "de"):
        preview = client.post(f"/games/{game_id}/preview?lang={lang}", data=data, headers=HTMX)
        meld, small, hand = expected[lang]
        assert slot(preview.text, "t0-m0") == meld
        assert slot(preview.text, "t0-m1") == small
        assert slot(preview.text, "t0-h1") == hand
        labels = {"en": "Melded cards", "de": "Gemeldete Karten", "pl": "Wyłożone karty"}
        assert labels[lang] in preview.text


def test_notes_answer_an_empty_list_for_a_slot_without_notes() -> None:
    notes = Notes()
    assert notes["t0-m0"] == []
    assert "t0-m0" not in notes  # asking adds nothing
    notes.add("t0-m0", "a problem")
    assert [n.text for n in notes["t0-m0"]] == ["a problem"]


def test_partners_in_cutthroat_each_see_their_total(client: FlaskClient) -> None:
    game_id = cutthroat_game(client)
    entry = client.get(f"/games/{game_id}/hands/new").text
    rebuilt = client.post(
        f"/games/{game_id}/hands", data=form_of(entry, "hand-form", lone="1", action="refresh")
    ).text
    data = form_of(
        rebuilt,
        "hand-form",
        out="1",
        t0__mode="quick",
        t0__meld_points="60",
        t1__mode="quick",
        t1__natural_canastas="1",
        t1__mixed_canastas="1",
        t1__meld_points="250",
        t1__red=["1", "0"],
    )
    for lang, total in (("en", "total"), ("de", "gesamt"), ("pl", "łącznie")):
        preview = client.post(f"/games/{game_id}/preview?lang={lang}", data=data, headers=HTMX)
        # Bo alone: 60; Ala and Cy: 1,150 each, Ala 100 more for her red three
        side = re.search(r'id="sc-t1".*?</div>\s*</div>|id="sc-t1".*?</p>', preview.text, re.S)
        assert side, preview.text
        shown = re.findall(r'<span class="after">([^<]*)</span>', side[0])
        thousands = {"en": ",", "de": ".", "pl": "\u00a0"}[lang]
        assert shown == [f"{total} 1{thousands}250", f"{total} 1{thousands}150"], shown
        assert f'<span class="after">{total} 60</span>' in preview.text


#: The preview as the hand form's macros write it: the fragment must be the very same HTML
#: (the slots without notes stay out of it: the browser empties every slot before the swap).
BY_MACROS = """\
{%- from "_fields.html" import slot -%}
{%- from "games/_macros.html" import side_score, summary -%}
{{ summary(hand_form, preview) }}
{%- for side in hand_form.sides %}
{{ side_score(side, preview.sides[loop.index0], item_labels, item_order, oob=True) }}
{%- endfor %}
{%- for id in slots if notes[id] %}
{{ slot(id, notes, oob=True) }}
{%- endfor %}"""


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_fragment_is_the_markup_of_the_forms_macros(
    app: Flask, client: FlaskClient, game_id: str, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    from scorekeeper.web.play import entry

    contexts: list[dict[str, Any]] = []
    real = entry.render_fragment

    def capturing(name: str, **context: Any) -> str:
        contexts.append(context)
        return real(name, **context)

    monkeypatch.setattr(entry, "render_fragment", capturing)
    forms = [
        a_hand(client, game_id, "200"),  # quick, a canasta, went out
        hand_form(  # in detail: meld notes, a hand's value, a warning or two
            client,
            game_id,
            out="1",
            t0__mode="detail",
            t0__meld=["K K K K K K K", "5 5 5", "X 2 2 2"],
            t0__hand=["4 4", "3♠"],
            t1__mode="quick",
            t1__meld_points="150",
        ),
        hand_form(client, game_id, out="0", t0__mode="detail", t0__meld=["K K Z"]),  # blocked
        hand_form(client, game_id, t0__mode="quick", t0__meld_points="abc", t1__red="9"),
    ]
    texts = []
    for data in forms:
        contexts.clear()
        shown = client.post(f"/games/{game_id}/preview?lang={lang}", data=data, headers=HTMX)
        assert shown.status_code == 200
        with app.test_request_context(f"/?lang={lang}"):
            expected = render_template_string(BY_MACROS, **contexts[0])
        assert shown.text == expected
        texts.append(shown.text)
    # each part of the fragment was held to the macros: scores and items, notes, a problem
    assert all('<dl class="items"><div><dt>' in t for t in texts[:2])
    assert 'class="note info"' in texts[1] and "data-first-problem" in texts[3]
    # only slots with notes travel: far fewer than the form has
    assert texts[0].count('class="slot"') < len(contexts[0]["slots"]) // 2
    assert not re.search(r'<div class="slot"[^>]*></div>', "".join(texts))


def test_a_score_answers_warnings_are_in_words(client: FlaskClient) -> None:
    """POST /api/v1/score words only the warnings of its answer (the sides hold no problems)."""
    went_out = {
        "melds": [["K"] * 7, ["5", "5", "5"]],
        "hands": [["4", "4"]],  # cards left in hand by the side that went out
        "red_threes": 0,
        "went_out": True,
        "concealed": False,
    }
    other = {"melds": [["Q", "Q", "Q"]], "hands": [["9"]], "red_threes": 0, "went_out": False}
    body = {"ruleset": "classic", "players": 4, "teams": [went_out, other]}
    for lang, word in (("en", "hand"), ("de", "Hand"), ("pl", "rę")):
        response = client.post(f"/api/v1/score?lang={lang}", json=body)
        assert response.status_code == 200, response.text
        answer = response.get_json()
        assert [w["code"] for w in answer["warnings"]] == ["going_out.cards_in_hand"]
        assert answer["warnings"][0]["where"] == "teams[0].hands"
        assert word in answer["warnings"][0]["message"]
        assert answer["teams"][0]["melds"][0]["cards"] == ["K"] * 7
        assert response.headers["Vary"].startswith("Accept-Language")  # once, not twice
        assert response.headers["Vary"].count("Accept-Language") == 1
