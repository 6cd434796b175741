"""The API reference page (``GET /api-reference``, docs/api.md §6) read as a newcomer reads it:
a nested type reads one way only, a nullable field keeps the words and bounds its description
gives it, the description's code spans show as code (no Markdown backticks on the page), and an
operation's "Problem codes: …" paragraph is not shown as its description (the codes are listed
under its answers)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.web.api.openapi import _notes, code_spans, document, kind_of


def test_a_nested_type_is_bracketed_so_it_reads_one_way() -> None:
    cards = {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": ["string", "integer"]}}]
    }
    melds = {"anyOf": [{"type": "array", "items": cards}, {"type": "null"}]}
    assert str(kind_of(melds)) == "list of (string or list of (string or integer)) or null"
    assert str(kind_of({"type": "array", "items": {"type": "string"}})) == "list of string"
    assert str(kind_of({"type": "object", "additionalProperties": {"type": "integer"}})) == (
        "object of integer"
    )


def test_a_nullable_field_keeps_the_words_and_bounds_of_its_branch() -> None:
    side = document()["components"]["schemas"]["Side"]["properties"]
    melds = _notes(side["melds"])
    # the description of the meld list and of each meld's cards, and the list's bound
    assert "Groups of cards" in melds and "notation of docs/api.md §2" in melds
    assert "at most 30 entries" in melds and "default null" in melds
    assert ".;" not in melds  # a closing full stop gives way to the separator
    players = _notes(document()["components"]["schemas"]["NewSide"]["properties"]["players"])
    assert "1 to 40 visible characters" in players and "matches" not in players
    # a bound given as a pattern is shown too: an entry id is 8 to 64 of A-Z a-z 0-9 _ -
    # (docs/api.md §5), not just "at most 64 characters"
    entry = _notes(document()["components"]["schemas"]["HandEntry"]["properties"]["entry_id"])
    assert "matches `^[A-Za-z0-9_-]{8,64}$`" in entry


def test_code_spans_become_code_and_everything_else_is_escaped() -> None:
    shown = str(code_spans("send `<b>` & `Retry-After` ` alone"))
    assert shown == "send <code>&lt;b&gt;</code> &amp; <code>Retry-After</code> ` alone"


def test_the_page_shows_code_not_backticks_and_no_problem_code_paragraph(
    client: FlaskClient,
) -> None:
    page = client.get("/api-reference").get_data(as_text=True)
    body = page.split("</head>", 1)[1]
    assert "`" not in re.sub(r"<pre[^>]*>.*?</pre>", "", body, flags=re.S)
    assert "<code>Accept-Language</code>" in body
    create = body.split('id="games_api_create"', 1)[1].split("</article>", 1)[0]
    assert '<p class="api-summary"><strong>Create a game</strong></p>' in create
    assert "Problem codes:" not in create
    # the codes are still listed, under the answers
    assert "<code>game.version_conflict</code>" in create
    # an operation with words of its own keeps them, without the codes' paragraph
    score = body.split('id="api_score"', 1)[1].split("</article>", 1)[0]
    assert "Every side of one hand scored" in score and "Problem codes:" not in score
