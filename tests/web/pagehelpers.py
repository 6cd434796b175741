"""Helpers of the page tests (Canasta and "3 ist 50"): a form as a browser without JavaScript
submits it, and the text of a note slot next to a field."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict

HTMX = {"HX-Request": "true"}
NASTY = "<b>Ala & Ola</b>"


class _FormReader(HTMLParser):
    """The fields a browser without JavaScript would submit for one form, with their defaults
    (``<noscript>`` content counts: it is what such a browser shows)."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside or tag != "input" or not a.get("name"):
            return
        kind = a.get("type", "text")
        if kind in ("submit", "button"):
            return
        if kind in ("radio", "checkbox"):
            if "checked" in a:
                self.fields.append((a["name"], a.get("value") or "on"))
        else:
            self.fields.append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def form_of(html: str, form_id: str, **changes: str | list[str]) -> MultiDict[str, str]:
    """The form ``form_id`` of a page with some fields changed (``name__0`` is ``name-0``)."""
    reader = _FormReader(form_id)
    reader.feed(html)
    assert reader.fields, f"no form #{form_id}"
    data: MultiDict[str, str] = MultiDict(reader.fields)
    for key, value in changes.items():
        data.setlist(key.replace("__", "-"), value if isinstance(value, list) else [value])
    return data


def slot(html: str, slot_id: str) -> str:
    """The text of a note slot (problems and information next to one field)."""
    m = re.search(rf'<div class="slot" id="n-{re.escape(slot_id)}"[^>]*>(.*?)</div>', html, re.S)
    assert m, f"no slot {slot_id}"
    return re.sub(r"<[^>]+>", " ", m[1]).strip()
