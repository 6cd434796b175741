"""The one place for ruleset titles and item labels, as the pages show them."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import get_ruleset
from scorekeeper.web.words.names import item_labels, ruleset_title


def test_ruleset_title_takes_a_ruleset_or_its_id(app: Flask) -> None:
    with app.test_request_context("/?lang=de"):
        assert ruleset_title("polish") == "Canasta (polnische Regeln)"
        assert ruleset_title(get_ruleset("polish")) == "Canasta (polnische Regeln)"
        assert ruleset_title("classic", short=True) == "Klassisch"


@pytest.mark.parametrize(
    "lang, titles",
    [
        (
            "de",
            [
                "Canasta (deutsche Regeln)",
                "Canasta (polnische Regeln)",
                "Klassisches Canasta (international)",
                "Modernes amerikanisches Canasta",
            ],
        ),
        (
            "en",
            [
                "Canasta (German rules)",
                "Canasta (Polish rules)",
                "Classic Canasta (international)",
                "Modern American Canasta",
            ],
        ),
    ],
)
def test_new_game_form_names_the_rulesets(
    client: FlaskClient, lang: str, titles: list[str]
) -> None:
    html = client.get(f"/games/new?lang={lang}").text
    chips = re.findall(r'name="ruleset" value="(\w+)"[^>]*>\s*([^<]+?)\s*</label>', html)
    assert chips == list(zip(["german", "polish", "classic", "american"], titles, strict=True))


def test_item_labels_in_the_order_of_a_breakdown(app: Flask) -> None:
    # docs/api.md §3: the items of a side's score; the game page lists them in this order.
    with app.test_request_context("/?lang=en"):
        assert list(item_labels().items()) == [
            ("melded_cards", "Melded cards"),
            ("canasta_bonus", "Canastas"),
            ("red_threes", "Red threes"),
            ("going_out", "Going out"),
            ("in_hand", "Left in hand"),
        ]
        assert item_labels(short=True)["in_hand"] == "In hand"
