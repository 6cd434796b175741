"""The start page: the ways into everything the app does, each a button a thumb hits."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def test_every_way_in_is_a_button(client: FlaskClient) -> None:
    for lang, fifty in (
        ("en", "Play 3 is 50"),
        ("de", "3 ist 50 spielen"),
        ("pl", "Zagraj w 3 to 50"),
    ):
        html = client.get(f"/?lang={lang}").text
        main = html[html.index('<section class="card start">') :]
        main = main[: main.index("</section>")]
        links = re.findall(r"<a ([^>]*)>([^<]+)</a>", main)
        assert links and all('class="button' in attrs for attrs, _ in links), links
        assert ('class="button" href="/fifty/new"', fifty) in links
