"""The app around the pages: the web app manifest and icons that let a phone keep the
scorekeeper on its home screen, in the reader's language."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def test_every_page_links_the_manifest_and_icons(client: FlaskClient) -> None:
    for url in ("/", "/games/new", "/referee", "/rules/german", "/fifty/new", "/nope"):
        html = client.get(url + "?lang=pl").text
        assert '<link rel="manifest" href="/manifest.webmanifest?lang=pl">' in html, url
        assert '<meta name="theme-color" content="#b3261e">' in html, url
        for icon in re.findall(r'<link rel="(?:icon|apple-touch-icon)"[^>]*href="([^"]+)"', html):
            answer = client.get(icon)
            assert answer.status_code == 200 and answer.mimetype == "image/png", icon


def test_manifest_speaks_the_readers_language(client: FlaskClient) -> None:
    names = {}
    for lang in ("de", "pl", "en"):
        answer = client.get(f"/manifest.webmanifest?lang={lang}")
        assert answer.status_code == 200
        assert answer.mimetype == "application/manifest+json"
        body = answer.get_json(force=True)
        assert body["lang"] == lang and body["display"] == "standalone"
        assert body["start_url"] == "/"
        names[lang] = (body["name"], body["short_name"])
        sizes = {(i["sizes"], i["purpose"]) for i in body["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
        for icon in body["icons"]:
            png = client.get(icon["src"])
            assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"
            width = int.from_bytes(png.data[16:20], "big")
            assert f"{width}x{width}" == icon["sizes"]
    assert names["de"] == ("Canasta-Schreiber", "Canasta")
    assert names["pl"][1] == "Kanasta"
    assert names["en"] == ("Canasta scorekeeper", "Canasta")
