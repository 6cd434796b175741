"""What htmx says of the current request, typed.

htmx-flask gives every request an ``htmx`` attribute (its ``HX-*`` headers); Flask's ``request``
does not declare it, so the areas ask here.
"""

from __future__ import annotations

from typing import cast

from flask import request
from htmx_flask.requests import HtmxAwareRequest, HtmxHeaders


def headers() -> HtmxHeaders:
    """The current request's ``HX-*`` headers (false when htmx did not send it)."""
    return cast(HtmxAwareRequest, request).htmx


def sent_by_htmx() -> bool:
    """htmx sent the request (``HX-Request``): it swaps the answer into the page."""
    return bool(headers())


def wants_fragment() -> bool:
    """htmx asks for the part of a page it swaps, not for a page it lost from its history
    cache (that restore needs the whole page)."""
    sent = headers()
    return bool(sent) and not sent.history_restore_request
