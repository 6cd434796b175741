"""The rules pages and the printed sheet state the American readings docs/rulebook.md §6 settles
(new
melds clean until five cards, mixed aces in the initial meld, the pile's top card onto a meld of
at most four, no going out concealed, melded cards minus without a canasta) and §5's one-card
rule for every ruleset, in the reader's language."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import get_ruleset
from scorekeeper.web.sheets.routes import scoring_rows


def page_text(client: FlaskClient, ruleset: str, lang: str) -> str:
    response = client.get(f"/rules/{ruleset}?lang={lang}")
    assert response.status_code == 200
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.text)))


AMERICAN = {
    "en": (
        "a new meld takes no wild card until it holds 5 natural cards",
        "Complete, such a meld of aces is a mixed canasta (300); unfinished, it costs no penalty.",
        "only while that meld holds at most 4 cards",
        "These rules know no going out concealed",
        "A side without a canasta counts its melded cards as minus points.",
    ),
    "de": (
        "wenn sie 5 natürliche Karten enthält",
        "ein gemischter Canasta (300); unfertig kostet sie keine Strafe",
        "solange diese höchstens 4 Karten hat",
        "Diese Regeln kennen kein verdecktes Ausmachen",
    ),
    "pl": (
        "gdy ma 5 naturalnych kart",
        "jest kanastą mieszaną (300); nieukończony nie kosztuje kary",
        "gdy ma on najwyżej 4 karty",
        "Te zasady nie znają wyjścia ukrytego",
    ),
}
ONE_CARD = {
    "en": "so that a single card is left in hand",
    "de": "sodass nur eine einzige Karte auf der Hand bleibt",
    "pl": "by na ręce została jedna karta",
}


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_the_american_page_states_the_readings(client: FlaskClient, lang: str) -> None:
    text = page_text(client, "american", lang)
    for sentence in AMERICAN[lang]:
        assert sentence in text, sentence
    assert ONE_CARD[lang] in text
    # No minimum for a concealed going out that the rules do not have (docs/rulebook.md §6).
    assert "goes out concealed needs" not in text


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_other_rulesets_keep_their_readings(client: FlaskClient, lang: str) -> None:
    text = page_text(client, "german", lang)
    assert ONE_CARD[lang] in text  # docs/rulebook.md §5 holds for every ruleset
    for sentence in AMERICAN[lang][:4]:
        assert sentence not in text, sentence
    if lang == "en":
        assert "Going out concealed: the player has melded nothing earlier" in text
        assert "goes out concealed needs no minimum" in text


def test_the_sheet_summary_lists_the_american_readings(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        american = dict(scoring_rows(get_ruleset("american"), 4))
        german = dict(scoring_rows(get_ruleset("german"), 4))
    assert american["Going out concealed"] == "not played"
    assert american["Melded cards, side without a canasta"] == "\u2212"
    assert american["New meld clean until (cards)"] == "5"
    assert american["Top card onto a meld of at most (cards)"] == "4"
    assert german["Going out concealed"] == "200"
    assert not {k for k in german if "without a canasta" in k or "(cards)" in k}
