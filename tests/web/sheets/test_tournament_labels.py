"""The tournament sheets' words from the catalogues: every label filled in German and Polish,
the counts in Polish with their three plural forms, figures in the locale's format."""

from __future__ import annotations

import dataclasses

import pytest
from flask import Flask

from scorekeeper.web.sheets.tournament_labels import tournament_labels
from scorekeeper.web.words.i18n import forced_locale


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_label_is_translated(app: Flask, lang: str) -> None:
    with app.test_request_context("/"), forced_locale(lang):
        labels = tournament_labels()
        with forced_locale("en"):
            english = {
                f.name: getattr(tournament_labels(), f.name) for f in dataclasses.fields(labels)
            }
        for field in dataclasses.fields(labels):
            value = getattr(labels, field.name)
            if isinstance(value, str):  # a word of its own in this language
                assert value and value != english[field.name], field.name
            elif callable(value) and field.name != "format_number":
                assert value(5), field.name
    assert labels.compass != english["compass"]


def test_polish_counts_and_figures(app: Flask) -> None:
    with app.test_request_context("/"), forced_locale("pl"):
        labels = tournament_labels()
        tables = [labels.tables_count(n) for n in (1, 2, 5, 22)]
        pairs = [labels.pairs_count(n) for n in (1, 3, 12)]
        minutes = [labels.minutes(n) for n in (1, 4, 60)]
        target = labels.target(3000)
        rounds = labels.round(3), labels.after_round(3), labels.table_number(12)
    assert tables == ["1 stół", "2 stoły", "5 stołów", "22 stoły"]
    assert pairs == ["1 para", "3 pary", "12 par"]
    assert minutes == ["1 minuta", "4 minuty", "60 minut"]
    assert target == "do 3\u00a0000 punktów"
    assert rounds == ("Runda 3", "po rundzie 3", "Stół 12")


def test_german_counts_and_figures(app: Flask) -> None:
    with app.test_request_context("/"), forced_locale("de"):
        labels = tournament_labels()
        texts = (labels.tables_count(1), labels.tables_count(3), labels.target(3000))
        compass = labels.compass_short
    assert texts == ("1 Tisch", "3 Tische", "bis 3.000 Punkte")
    assert compass == ("N", "O", "S", "W")
