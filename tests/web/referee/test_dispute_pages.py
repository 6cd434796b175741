"""The table disputes on the referee page: one tap on what happened gives the ruling, in the
reader's language, with the rule quoted; a dispute is settled in three taps from the game page
(seed lines in tests/data/dispute_cases.json)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.disputes import KINDS
from scorekeeper.web.referee.disputes import CASES

HX = {"HX-Request": "true"}


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _verdict(html: str) -> str | None:
    found = re.search(r'data-verdict="([a-z-]+)"', html)
    return found.group(1) if found else None


def test_every_dispute_has_its_section_buttons_and_jump_link(client: FlaskClient) -> None:
    html = client.get("/referee?lang=en&ruleset=classic").text
    for kind in KINDS:
        assert f'id="q-{kind}"' in html
        assert f'href="#q-{kind}"' in html
        section = html.split(f'id="q-{kind}"', 1)[1].split("</section>", 1)[0]
        for case in CASES[kind]:
            assert f'name="case" value="{case}"' in section, (kind, case)


# kind, form values, verdict, (English, German, Polish) phrases of the answer
RULINGS = [
    (
        "partner-permission",
        {"ruleset": "german", "case": "no"},
        "no",
        ("may not go out in this turn", "nicht ausmachen", "nie możesz wyjść"),
    ),
    (
        "partner-permission",
        {"ruleset": "german", "case": "yes"},
        "yes",
        ("you must go out", "musst in diesem Zug ausmachen", "musisz wyjść"),
    ),
    (
        "partner-permission",
        {"ruleset": "polish", "case": "yes"},
        "no",
        ("know no asking the partner", "kennen kein Fragen", "nie znają pytania"),
    ),
    (
        "end-of-stock",
        {"ruleset": "german", "case": "red_three_last"},
        "no",
        ("hand ends at once", "endet das Spiel sofort", "kończy się natychmiast"),
    ),
    (
        "end-of-stock",
        {"ruleset": "classic", "case": "red_threes_last"},
        "no",
        ("Red threes as the last cards", "Rote Dreien als letzte", "Czerwone trójki jako"),
    ),
    (
        "end-of-stock",
        {"ruleset": "polish", "case": "empty"},
        "no",
        ("hand ends as soon as", "endet, sobald", "kończy się, gdy tylko"),
    ),
    (
        "end-of-stock",
        {"ruleset": "classic", "case": "empty", "top_card": "K", "side_melds": "K K K"},
        "yes",
        ("you must take the pile", "musst du ihn aufnehmen", "musisz wziąć stos"),
    ),
    (
        "black-three-block",
        {"ruleset": "german", "case": "on_top"},
        "no",
        ("for the next player only", "nur für den nächsten", "tylko dla następnego"),
    ),
    (
        "black-three-block",
        {"ruleset": "german", "case": "covered"},
        "yes",
        ("one turn only", "nur für einen Zug", "tylko przez jeden ruch"),
    ),
    (
        "red-three-from-pile",
        {"ruleset": "polish", "players": "2", "case": "taken"},
        "no",
        ("no replacement card", "keine Ersatzkarte", "nie dobiera się"),
    ),
    (
        "two-player-draw",
        {"ruleset": "classic", "case": "red_three_of_two"},
        "yes",
        ("complete draw", "vollständiges Ziehen", "pełne dobranie"),
    ),
    (
        "two-player-draw",
        {"ruleset": "classic", "case": "two_red_threes"},
        "no",
        ("hand ends at once", "endet das Spiel sofort", "kończy się natychmiast"),
    ),
    (
        "three-is-fifty-deal",
        {"case": "refill", "fifty_players": "4"},
        "no",
        ("only at the next deal", "erst beim nächsten Geben", "dopiero przy następnym"),
    ),
    (
        "three-is-fifty-deal",
        {"case": "turn", "fifty_players": "3"},
        "no",
        ("out of turn is not allowed", "Zwischenwerfen", "poza kolejką"),
    ),
    (
        "three-is-fifty-deal",
        {"case": "dealer", "fifty_players": "4", "dealer": "4"},
        "yes",
        ("Player 1 deals next", "Spieler 1 gibt", "rozdaje gracz 1"),
    ),
    (
        "three-is-fifty-deal",
        {"case": "last_deal", "fifty_players": "3", "stock": "8", "middle": "4"},
        "yes",
        ("set aside unplayed: 2", "zur Seite: 2", "odłożone bez grania: 2"),
    ),
]


@pytest.mark.parametrize("lang", [0, 1, 2], ids=["en", "de", "pl"])
@pytest.mark.parametrize(("kind", "data", "verdict", "phrases"), RULINGS)
def test_one_tap_answers_in_the_readers_language(
    client: FlaskClient,
    kind: str,
    data: dict[str, str],
    verdict: str,
    phrases: tuple[str, str, str],
    lang: int,
) -> None:
    code = ("en", "de", "pl")[lang]
    response = client.post(f"/referee/{kind}?lang={code}", data=data, headers=HX)
    assert response.status_code == 200
    html = response.text
    assert _verdict(html) == verdict, _text(html)
    assert phrases[lang].lower() in _text(html).lower(), _text(html)
    # The rule is quoted from the ruleset's page, with the link to its section.
    assert 'class="rule-quote"' in html
    assert re.search(r'class="rule-link" href="/rules/[a-z-]+(\?[^"#]*)?#[a-z-]+"', html)


def test_without_javascript_the_page_comes_back_with_the_ruling(client: FlaskClient) -> None:
    response = client.post(
        "/referee/partner-permission?lang=en", data={"ruleset": "classic", "case": "no"}
    )
    assert response.status_code == 200
    slot = response.text.split('id="answer-partner-permission"', 1)[1].split("</section>")[0]
    assert _verdict(slot) == "no"
    assert "Your partner said no" in _text(slot)


def test_other_rulesets_are_compared(client: FlaskClient) -> None:
    html = client.post(
        "/referee/partner-permission?lang=en",
        data={"ruleset": "german", "case": "yes"},
        headers=HX,
    ).text
    text = _text(html)
    assert "Under other rules:" in text
    assert "No such rule here" in text  # the Polish rules know no asking


def test_nothing_tapped_asks_for_a_tap(client: FlaskClient) -> None:
    html = client.post("/referee/end-of-stock?lang=en", data={"ruleset": "german"}, headers=HX).text
    assert "Tap what happened" in html


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("end-of-stock", {"case": "empty", "top_card": "K Q"}),
        ("end-of-stock", {"case": "empty", "hand": "Z Z"}),
        ("partner-permission", {"case": "yes", "hand": "K" * 3000}),
        ("three-is-fifty-deal", {"case": "last_deal", "stock": "lots"}),
        ("three-is-fifty-deal", {"case": "dealer", "dealer": "9", "fifty_players": "4"}),
        ("three-is-fifty-deal", {"case": "turn", "fifty_players": "12"}),
    ],
)
def test_bad_input_gives_a_message_never_a_500(
    client: FlaskClient, kind: str, data: dict[str, str]
) -> None:
    response = client.post(f"/referee/{kind}?lang=en", data=data, headers=HX)
    assert response.status_code == 200
    assert _verdict(response.text) == "check-input"
    plain = client.post(f"/referee/{kind}?lang=en", data=data)
    assert plain.status_code == 422


def test_user_input_is_escaped(client: FlaskClient) -> None:
    html = client.post(
        "/referee/end-of-stock?lang=en",
        data={"case": "empty", "top_card": "<script>x</script>"},
        headers=HX,
    ).text
    assert "<script>x" not in html


def test_three_taps_from_the_game_page(client: FlaskClient) -> None:
    """A new user settles "my partner said no" from a German game: the game page's "Ask the
    referee" (1), the jump link (2), the situation (3)."""
    created = client.post(
        "/api/v1/games",
        json={
            "ruleset": "german",
            "players": 4,
            "sides": [
                {"name": "Wir", "players": ["A", "B"]},
                {"name": "Ihr", "players": ["C", "D"]},
            ],
        },
    ).get_json()
    game = client.get(f"/games/{created['id']}?lang=de").text
    tap1 = unescape(re.search(r'class="button ask-referee" href="([^"]+)"', game).group(1))
    page = client.get(tap1).text
    assert 'href="#q-partner-permission"' in page  # tap 2: the jump link, same page
    section = page.split('id="q-partner-permission"', 1)[1].split("</section>", 1)[0]
    action = unescape(re.search(r'hx-post="([^"]+)"', section).group(1))
    fields = dict(re.findall(r'type="hidden" name="([a-z_]+)" value="([^"]*)"', section))
    assert 'name="case" value="no"' in section
    answer = client.post(action, data={**fields, "case": "no"}, headers=HX).text  # tap 3
    assert _verdict(answer) == "no"
    assert "Dein Partner sagte Nein" in _text(answer)


def test_options_form_takes_an_empty_stock(client: FlaskClient) -> None:
    data = {
        "ruleset": "german",
        "hand": "K 5 6",
        "side_has_melded": "yes",
        "side_melds": "Q Q Q",
        "top_card": "K",
        "stock_empty": "1",
    }
    html = client.post("/referee/options?lang=en", data=data, headers=HX).text
    text = _text(html)
    assert "0 moves to consider" in text
    assert "draw from the stock" not in text
    assert "you cannot take the pile: the hand ends now" in text
    data["hand"] = "K K 5 6"
    text = _text(client.post("/referee/options?lang=en", data=data, headers=HX).text)
    assert "Take the discard pile" in text
    assert "If you do not, the hand ends" in text
