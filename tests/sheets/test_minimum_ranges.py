"""The score ranges of an initial-meld minimum table read the same on the PDF and on the rules
page (the house table below once printed "0 – 1.496" on the PDF, "0 – 1.500" on /rules/).

How a table is read: docs/rulebook.md §3 gives each minimum "by the side's cumulative score before
the
hand"; a side's minimum is the row of the highest threshold its total reaches, the first row
covering every total below the second threshold. Its own table prints "0 – 1,495", "1,500 –
2,995", "3,000 and more": every total of the presets is a multiple of 5 (docs/rulebook.md §1 card
values
5 to 50, §4 bonuses 100 to 500), so a range ends at the last such total below the next threshold.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.ruleset import get_ruleset
from scorekeeper.sheets import BlankSheet
from scorekeeper.sheets.pad import render_blank_sheet
from scorekeeper.web.sheets.routes import minimum_rows, scoring_rows, sheet_labels
from scorekeeper.web.words.i18n import number
from tests.sheets.helpers import contains_run, pdf_lines

#: The house table whose ranges once read differently on the PDF and on /rules/.
HOUSE_TABLE = [[-1000000, 15], [0, 50], [1501, 90], [3000, 120]]

#: What the house table's rows say: below 0 (the first row, to the second threshold); from 0
#: to 1,500 (1,501 is the next threshold, 1,500 a multiple of 5 below it); from 1,501 to
#: 2,995 (the last multiple of 5 below 3,000); 3,000 and more.
HOUSE_ROWS = {
    "de": [("unter 0", "15"), ("0 – 1.500", "50"), ("1.501 – 2.995", "90"), ("ab 3.000", "120")],
    "en": [
        ("below 0", "15"),
        ("0 – 1,500", "50"),
        ("1,501 – 2,995", "90"),
        ("3,000 and more", "120"),
    ],
}

SIDES = [{"name": "A", "players": ["Ala", "Jörg"]}, {"name": "B", "players": ["Ola", "Uwe"]}]


def page_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def rules_page(client: FlaskClient, lang: str, options: dict[str, Any]) -> str:
    url = f"/rules/german?lang={lang}&options={quote(json.dumps(options))}"
    response = client.get(url)
    assert response.status_code == 200
    return page_text(response.text)


def blank_pad_lines(app: Flask, lang: str, options: dict[str, Any]) -> list[str]:
    """The blank pad of the German rules with house rules, as the sheet route builds it."""
    rs, problems = get_ruleset("german").with_options(options)
    assert not problems
    with app.test_request_context(f"/?lang={lang}"):
        data = render_blank_sheet(
            BlankSheet(
                ruleset_name="Canasta",
                columns=2,
                rows=5,
                minimum_table=minimum_rows(rs, 4),
                scoring_summary=scoring_rows(rs, 4),
                target=5000,
                labels=sheet_labels(),
                format_number=number,
            )
        )
    return pdf_lines(data)[0]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_house_table_reads_the_same_on_the_pad_and_the_rules_page(
    app: Flask, client: FlaskClient, lang: str
) -> None:
    options = {"minimum_table": HOUSE_TABLE}
    pad = blank_pad_lines(app, lang, options)
    page = rules_page(client, lang, options)
    house_rule = {"de": "Hausregel", "en": "House rule"}[lang]
    for scores, minimum in HOUSE_ROWS[lang]:
        assert contains_run(pad, [scores, minimum]), pad
        assert f"{scores} {minimum} {house_rule}" in page
    assert "1.496" not in " ".join(pad) and "1,496" not in " ".join(pad)


@pytest.mark.parametrize(
    "lang, line",
    [
        ("de", "unter 0: 15; 0 – 1.500: 50; 1.501 – 2.995: 90; ab 3.000: 120"),
        ("en", "below 0: 15; 0 – 1,500: 50; 1,501 – 2,995: 90; 3,000 and more: 120"),
    ],
)
def test_house_table_in_the_house_rules_of_sheet_and_page(
    client: FlaskClient, lang: str, line: str
) -> None:
    response = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "sides": SIDES,
            "options": {"minimum_table": HOUSE_TABLE},
        },
    )
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    pdf = client.get(f"/games/{game['id']}/sheet.pdf?lang={lang}")
    assert pdf.status_code == 200
    assert line in " ".join(pdf_lines(pdf.data)[0])
    assert line in rules_page(client, lang, {"minimum_table": HOUSE_TABLE})


def test_standard_table_reads_as_rules_md(app: Flask, client: FlaskClient) -> None:
    # docs/rulebook.md §3, german column: below 0 none, 0 – 1,495 50, 1,500 – 2,995 90, 3,000 and
    # more 120.
    rows = [
        ("below 0", "none"),
        ("0 – 1,495", "50"),
        ("1,500 – 2,995", "90"),
        ("3,000 and more", "120"),
    ]
    pad = pdf_lines(client.get("/sheets/blank.pdf?ruleset=german&lang=en").data)[0]
    page = rules_page(client, "en", {})
    for scores, minimum in rows:
        assert contains_run(pad, [scores, minimum]), pad
        assert f"{scores} {minimum}" in page


def test_ranges_end_one_below_the_threshold_when_totals_are_not_multiples_of_5(
    app: Flask, client: FlaskClient
) -> None:
    # A house rule making a four worth 3 (docs/rulebook.md §1 gives 5): 4-4-4 scores 9, so a total
    # of
    # 1,499 is possible and still below the 1,500 threshold of docs/rulebook.md §3.
    options = {"low_value": 3}
    rows = [
        ("below 0", "none"),
        ("0 – 1,499", "50"),
        ("1,500 – 2,999", "90"),
        ("3,000 and more", "120"),
    ]
    pad = blank_pad_lines(app, "en", options)
    page = rules_page(client, "en", options)
    for scores, minimum in rows:
        assert contains_run(pad, [scores, minimum]), pad
        assert f"{scores} {minimum}" in page
