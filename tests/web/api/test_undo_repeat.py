"""An undo sent again is recognised, not refused (the brief's standard: "a repeated request is
recognised, not doubled"). A phone whose undo lost its answer cannot know whether the hand came
back; tapping again must give the first answer and change nothing, whether the copy comes
after the first (the answer was lost) or at the same moment (two taps racing). Once the hand
is deleted again, the old undo is stale: 409, nothing changes.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.web.api.test_fifty_games_api import create as create_fifty
from tests.web.api.test_fifty_games_api import totals as fifty_totals
from tests.web.api.test_games_api import GAMES, two_hands
from tests.web.games.test_corrections import a_game_whose_hand_was_deleted, undo_form
from tests.web.games.test_game_pages import totals as page_totals


def sheet(client: FlaskClient, game_id: str) -> dict[str, Any]:
    body = client.get(f"{GAMES}/{game_id}").get_json()
    assert isinstance(body, dict)
    return body


def twice_at_once(
    client: FlaskClient, send: Callable[[FlaskClient], TestResponse]
) -> list[tuple[int, Any]]:
    """The same request sent by two clients at the same moment: each answer's status and body."""
    app = client.application
    barrier = threading.Barrier(2)
    answers: list[tuple[int, Any]] = []

    def one() -> None:
        own = app.test_client()
        barrier.wait()
        answer = send(own)
        answers.append((answer.status_code, answer.get_json()))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_an_undo_sent_again_is_answered_as_the_first(any_client: FlaskClient) -> None:
    client = any_client
    game_id, hands = two_hands(client)
    deleted = client.delete(f"{hands}/2?version=3").get_json()
    # the Canasta delete answers without the offer; the undo names the version it answered
    request = {"version": deleted["version"]}
    first = client.post(f"{GAMES}/{game_id}/undo", json=request)
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["hand"] == 2 and first.get_json()["version"] == 5
    again = client.post(f"{GAMES}/{game_id}/undo", json=request)
    assert again.status_code == 200, again.get_json()
    assert again.get_json() == first.get_json()
    # an undo is known by the version it was offered at: a copy naming another deletion
    # still gets the first answer, and nothing changes
    other = client.post(f"{GAMES}/{game_id}/undo", json={"version": 4, "revision": 10**6})
    assert other.status_code == 200 and other.get_json() == first.get_json()
    after = sheet(client, game_id)
    assert after["version"] == 5 and [h["number"] for h in after["hands"]] == [1, 2]


def test_an_old_undo_after_the_hand_went_again_is_stale(any_client: FlaskClient) -> None:
    client = any_client
    game_id, hands = two_hands(client)
    deleted = client.delete(f"{hands}/2?version=3").get_json()
    request = {"version": deleted["version"]}
    assert client.post(f"{GAMES}/{game_id}/undo", json=request).status_code == 200
    # the hand is deleted once more; the first undo's copy arrives late
    second = client.delete(f"{hands}/2?version=5").get_json()
    assert second["version"] == 6
    late = client.post(f"{GAMES}/{game_id}/undo", json=request)
    assert late.status_code == 409, late.get_json()
    after = sheet(client, game_id)
    assert after["version"] == 6 and [h["number"] for h in after["hands"]] == [1]
    # the second deletion's own undo still works, and only once changes anything
    again = {"version": 6}
    answers = [client.post(f"{GAMES}/{game_id}/undo", json=again) for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].get_json() == answers[1].get_json()
    assert sheet(client, game_id)["version"] == 7


def test_two_copies_of_an_undo_at_the_same_moment_bring_the_hand_back_once(
    any_client: FlaskClient,
) -> None:
    game_id, hands = two_hands(any_client)
    deleted = any_client.delete(f"{hands}/2?version=3").get_json()
    request = {"version": deleted["version"]}
    answers = twice_at_once(any_client, lambda c: c.post(f"{GAMES}/{game_id}/undo", json=request))
    assert [status for status, _ in answers] == [200, 200], answers
    assert answers[0][1]["hand"] == answers[1][1]["hand"] == 2
    after = sheet(any_client, game_id)
    assert after["version"] == 5 and [h["number"] for h in after["hands"]] == [1, 2]


def test_an_undo_of_3_ist_50_sent_again(client: FlaskClient) -> None:
    key = create_fifty(client)["id"]
    client.post(f"{GAMES}/{key}/hands", json={"version": 1, "points": [10, 0, 5]})
    client.post(f"{GAMES}/{key}/hands", json={"version": 2, "points": [20, 30, 0]})
    deleted = client.delete(f"{GAMES}/{key}/hands/2?version=3").get_json()
    request = {"version": deleted["version"], "revision": deleted["undo"]["revision"]}
    first = client.post(f"{GAMES}/{key}/undo", json=request)
    assert first.status_code == 200 and fifty_totals(first.get_json()) == [30, 30, 5]
    again = client.post(f"{GAMES}/{key}/undo", json=request)
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert client.get(f"{GAMES}/{key}").get_json()["version"] == 5


def test_the_undo_form_sent_again_goes_to_the_game_page(client: FlaskClient) -> None:
    game_id = a_game_whose_hand_was_deleted(client)
    offer = undo_form(client.get(f"/games/{game_id}").text)
    url = offer.pop("url")
    back = client.post(url, data=offer)
    assert back.status_code == 303
    brought_back = page_totals(client, game_id)
    again = client.post(url, data=offer)
    assert again.status_code == 303 and again.headers["Location"] == back.headers["Location"]
    page = client.get(f"/games/{game_id}").text
    assert page_totals(client, game_id) == brought_back == ["690", "415"]
    assert len(re.findall(r'class="hand[ "]', page)) == 1


def test_two_copies_of_a_delete_at_the_same_moment_delete_one_hand(
    any_client: FlaskClient,
) -> None:
    """The delete's own repeat (``store.changes.already_deleted``) also holds when both copies
    arrive together: on PostgreSQL the second waits for the first's lock, then finds the
    version moved on by its own twin."""
    game_id, hands = two_hands(any_client)
    answers = twice_at_once(any_client, lambda c: c.delete(f"{hands}/2?version=3"))
    assert [status for status, _ in answers] == [200, 200], answers
    after = sheet(any_client, game_id)
    assert after["version"] == 4 and [h["number"] for h in after["hands"]] == [1]
