"""What every request and response goes through, for a table on a LAN and for a
public server.

Before a request:

- **Trusted hosts.** A ``Host`` the app does not know is answered 400, so no page ever shows a
  link built from a stranger's ``Host`` header. Trusted: loopback (127.0.0.0/8, ::1,
  ``localhost``) always; then ``SCOREKEEPER_TRUSTED_HOSTS`` (names, addresses, ``.example.org``
  for every subdomain, ``*`` for any), by default this machine's own names and addresses (read
  from its interfaces); and the hosts of ``BASE_URL`` and ``LAN_URL``. Flask 3.1's own
  ``TRUSTED_HOSTS`` is not used: it cannot match an IPv6 literal (``[::1]``) or the loopback
  range.
- **No cross-site writes.** POST, PUT, PATCH and DELETE (except the stateless questions of
  ``/api/v1/score`` and ``/api/v1/referee/…``, which change nothing) are refused (403) when
  the browser says ``Sec-Fetch-Site: cross-site`` or sends an ``Origin`` that is not this
  site's (the forms also carry a CSRF token; the JSON API has none, so this is its guard).
- **The API's writes are JSON.** A POST or PUT to ``/api/v1/games…`` (or a DELETE with a
  body) without ``Content-Type: application/json`` is 415: a plain HTML form or a no-cors
  ``fetch`` cannot send that type to another site.

After it: a Content-Security-Policy without inline script or style (``CSP``), no framing,
``nosniff``, ``Referrer-Policy: no-referrer`` (the editing key is in the URL), ``SameSite=Lax``
on every cookie, and over HTTPS ``Secure`` cookies and HSTS. Behind a proxy (``serve
--behind-proxy``) waitress reads the proxy's ``X-Forwarded-*`` headers and hands the app the
real scheme, host and client address (scorekeeper/serving.py); the app trusts no such header
itself. ``GET /healthz`` (the proxy's health check, which names the upstream as its host) is
exempt from the host check.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import IO, cast
from urllib.parse import urlsplit

from flask import (
    Flask,
    Request,
    Response,
    current_app,
    has_request_context,
    render_template,
    request,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import RequestEntityTooLarge

from ... import TABLE_IMPORT_MAX, net
from ...rules.problems import Problem
from ...signing import Csrf, KeptSerializer, kept_serializer
from ...store.db import DatabaseBusy
from ..words.messages import message
from .answers import problem_response
from .limits import notice_response, wants_notice

CSP = (
    "default-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'"
)
HSTS = "max-age=31536000"
BUSY_RETRY_AFTER = 2  # seconds: a busy SQLite database is a matter of moments
#: seconds: a database restarting takes a few; the outbox asks again after as many
UNAVAILABLE_RETRY_AFTER = 5
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Blueprints whose POSTs only ask (score a hand, a referee question) and change nothing: any
# site may ask them, in any content type (docs/api.md §3 reads the body as JSON regardless).
STATELESS = frozenset({"api"})


# ---- which hosts are trusted ---------------------------------------------------------------------


@dataclass(frozen=True)
class HostPolicy:
    """The ``Host`` values a request may carry."""

    any_host: bool
    names: frozenset[str]  # lower case; ".example.org" matches every subdomain
    addresses: frozenset[net.Address]
    # This machine's own names and addresses count too (no SCOREKEEPER_TRUSTED_HOSTS). They are
    # read from its interfaces when a request first names a host that is not loopback and not
    # listed: a start (and every request over loopback) never enumerates them.
    machine: bool = False

    def allows(self, host: str) -> bool:
        if not host or any(c in host for c in "/\\@ \t"):
            return False
        name = net.host_name(host)
        if not name:
            return False
        if self.any_host or net.is_loopback_host(host):
            return True
        address = net.as_address(name)
        if address is not None:
            return address in self.addresses or (
                self.machine and address in net.machine_addresses()
            )
        return (
            name in self.names
            or any(n.startswith(".") and (name.endswith(n) or name == n[1:]) for n in self.names)
            or (self.machine and name in net.machine_names())
        )


def host_policy(app: Flask) -> HostPolicy:
    """The policy from the app's config (see the module docstring)."""
    raw = app.config.get("SCOREKEEPER_TRUSTED_HOSTS")
    entries = raw.replace(",", " ").split() if isinstance(raw, str) else [str(e) for e in raw or []]
    extra = [
        urlsplit(url).hostname or ""
        for url in (app.config.get("BASE_URL"), app.config.get("LAN_URL"))
        if url
    ]
    names: set[str] = set()
    addresses: set[net.Address] = set()
    for entry in [*entries, *extra]:
        name = net.host_name(entry)
        address = net.as_address(name)
        if address is not None:
            addresses.add(address)
        elif name:
            names.add(name)
    return HostPolicy("*" in entries, frozenset(names), frozenset(addresses), machine=not entries)


# ---- links for other phones ----------------------------------------------------------------------


def public_base() -> tuple[str, bool]:
    """Where other phones reach this app, and whether the operator said so: ``BASE_URL`` if
    set; else, for a request that came through loopback, the LAN address ``serve --lan``
    listens on (``LAN_URL``); else the request's own (trusted) host."""
    base = current_app.config.get("BASE_URL")
    if base:
        return str(base).rstrip("/"), True
    lan = current_app.config.get("LAN_URL")
    if lan and net.is_loopback_host(request.host):
        return str(lan).rstrip("/"), True
    return request.host_url.rstrip("/"), False


@dataclass(frozen=True)
class ShareLink:
    """A link to show other phones, and whether it only works on this machine."""

    url: str
    loopback: bool


def share_link(path: str) -> ShareLink:
    """``path`` (from ``url_for`` without ``_external``) as a link for other phones."""
    base, configured = public_base()
    split = urlsplit(base)
    url = f"{split.scheme}://{split.netloc}{path}"
    return ShareLink(url, not configured and net.is_loopback_host(split.netloc))


# ---- before and after each request ---------------------------------------------------------------


def _refuse(status: int, code: str) -> Response:
    """A refusal in the reader's language: JSON problems for the API, the message alone for
    htmx (shown in the form's message area, the form kept), the error page else."""

    if request.path.startswith("/api/"):
        return problem_response(status, code)
    text = message(Problem(code, "", {}))
    if wants_notice():
        return notice_response(status, text)
    html = render_template("error.html", status=status, message=text)
    return Response(html, status, mimetype="text/html")


def _netloc(origin: str) -> str | None:
    """``scheme://host[:port]`` as ``host:port`` with the default port left out."""
    try:
        split = urlsplit(origin)
        port = split.port
    except ValueError:
        return None
    if split.scheme not in ("http", "https") or not split.hostname:
        return None
    host = net.url_host(split.hostname) if ":" in split.hostname else split.hostname
    default = {"http": 80, "https": 443}[split.scheme]
    return host.lower() if port in (None, default) else f"{host.lower()}:{port}"


def _own_netlocs() -> set[str]:
    host = request.host.lower()
    scheme_default = ":443" if request.scheme == "https" else ":80"
    own = {host[: -len(scheme_default)] if host.endswith(scheme_default) else host}
    base = current_app.config.get("BASE_URL")
    if base:
        found = _netloc(str(base))
        if found:
            own.add(found)
    return own


def check_request() -> Response | None:
    # the request itself, looked up once (each use of Flask's proxy looks it up again)
    asked: Request = request._get_current_object()  # type: ignore[attr-defined]
    if asked.path == "/healthz":
        return None  # shows no link; Caddy asks it as "app:8000"
    policy: HostPolicy = current_app.extensions["scorekeeper.hosts"]
    if not policy.allows(asked.host):
        return _refuse(400, "request.untrusted_host")
    if (
        asked.method not in UNSAFE_METHODS
        or asked.routing_exception is not None
        or asked.blueprint in STATELESS
    ):
        return None  # no such route or method: 404/405 as usual; questions change nothing
    site = asked.headers.get("Sec-Fetch-Site")
    origin = asked.headers.get("Origin")
    if site is not None:
        # A browser that says where a request comes from is believed (with Referrer-Policy
        # no-referrer, Chromium sends "Origin: null" for this site's own forms).
        if site.lower() == "cross-site":
            return _refuse(403, "request.cross_site")
    elif origin is not None and (
        _netloc(origin) not in _own_netlocs()
        if origin != "null"
        else asked.path.startswith("/api/")
    ):  # forms carry a CSRF token
        return _refuse(403, "request.cross_site")
    if asked.path.startswith("/api/"):  # the stored games' API
        has_body = (
            bool(asked.content_length)
            or "chunked" in asked.headers.get("Transfer-Encoding", "").lower()
        )
        if (asked.method != "DELETE" or has_body) and not asked.is_json:
            return _refuse(415, "request.content_type")
    return None


#: the headers every answer carries unless it set its own (lower-case name, name, value)
DEFAULT_HEADERS = (
    ("content-security-policy", "Content-Security-Policy", CSP),
    ("x-content-type-options", "X-Content-Type-Options", "nosniff"),
    ("x-frame-options", "X-Frame-Options", "DENY"),
    ("referrer-policy", "Referrer-Policy", "no-referrer"),
)


def secure_response(response: Response) -> Response:
    headers = response.headers
    # the names present, read once (each ``setdefault`` or ``pop`` reads them all again)
    present = {key.lower() for key, _ in headers.items()}
    for lower, name, value in DEFAULT_HEADERS:
        if lower not in present:
            headers.add(name, value)
    if "retry-after" in present and response.status_code not in (429, 503):
        headers.pop("Retry-After", None)  # Flask-Limiter's, meaningless on an answer
    secure = request.is_secure
    if secure:
        headers.setdefault("Strict-Transport-Security", HSTS)
    if "set-cookie" in present:
        cookies = headers.getlist("Set-Cookie")
        headers.remove("Set-Cookie")
        for cookie in cookies:
            lower = cookie.lower()
            if "samesite=" not in lower:
                cookie += "; SameSite=Lax"
            if secure and "; secure" not in lower:
                cookie += "; Secure"
            headers.add("Set-Cookie", cookie)
    return response


#: the JSON API's paths: stateless for the session (no view of theirs reads it, and their
#: blueprints are exempt from the CSRF check that would)
API_PREFIX = "/api/"
#: the pages' live previews (``POST …/preview``: a hand, a 3-ist-50 game, a side's part) are
#: questions like ``POST /api/v1/score``: they store nothing, and another site may make a
#: browser send one but cannot read its answer. Their views are exempt from the CSRF check
#: (``csrf_exempt_previews``) and they neither read nor write the session (docs/security.md).
PREVIEW_SUFFIX = "/preview"


def sessionless(request: Request) -> bool:
    """Whether the request goes without the session: the JSON API and the live previews."""
    path = request.path
    return path.startswith(API_PREFIX) or (
        path.endswith(PREVIEW_SUFFIX) and request.method == "POST"
    )


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, which holds the forms' CSRF token, and so:

    - the cookie is ``Secure`` whenever the request came over HTTPS (it is set after the
      after-request hooks, so :func:`secure_response` cannot reach it);
    - the JSON API neither reads nor writes it: its blueprints are exempt from the CSRF check
      (a key in the URL is their credential, and :func:`check_request` their cross-site guard),
      and no view of theirs touches the session, so checking the cookie's signature for each
      API request (and a phone sends the cookie with each) was work for nothing;
    - nor do the pages' live previews, which store nothing (:data:`PREVIEW_SUFFIX`);
    - a session that did not change is not written, and nothing of the cookie's settings is
      looked up for it (Flask works them all out first);
    - its serializer is made once per app and secret key (``signing``)."""

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer of the cookie (the same keys, salt and format), made once per
        app and secret key, its keys derived once (``signing``)."""
        if not app.secret_key:
            return None
        keys: list[str | bytes] = [*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key]
        return cast(
            URLSafeTimedSerializer,
            kept_serializer(
                app,
                "session",
                keys,
                lambda keys: KeptSerializer(
                    keys,
                    salt=self.salt,
                    serializer=self.serializer,
                    signer_kwargs={
                        "key_derivation": self.key_derivation,
                        "digest_method": self.digest_method,
                    },
                ),
            ),
        )

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app)) or (has_request_context() and request.is_secure)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if sessionless(request):
            return self.session_class()  # empty, and never saved (below)
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if sessionless(request._get_current_object()):  # type: ignore[attr-defined]
            return
        if not session.modified and not (
            session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]
        ):
            # what Flask does for a session left as it was: no cookie, and Vary if it was read
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def exempt_previews(app: Flask, csrf: Csrf) -> None:
    """Exempt every live preview (a ``POST`` route ending in :data:`PREVIEW_SUFFIX`) from the
    CSRF check: the same routes :func:`sessionless` keeps without the session, found from the
    URL map so that the two cannot part. Every other form keeps its token check."""
    for rule in app.url_map.iter_rules():
        if rule.rule.endswith(PREVIEW_SUFFIX) and "POST" in (rule.methods or ()):
            csrf.exempt(app.view_functions[rule.endpoint])


def init_app(app: Flask) -> None:
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.session_interface = SessionInterface()
    app.extensions["scorekeeper.hosts"] = host_policy(app)
    # First of all before-request hooks: before CSRF, rate limits and the views.
    app.before_request_funcs.setdefault(None, []).insert(0, check_request)
    app.before_request_funcs[None].insert(0, allow_large_body)
    app.after_request(secure_response)
    app.register_error_handler(DatabaseBusy, busy)
    # The database cannot be reached: refused connections, a server restarting, a connection
    # cut mid-request. Both are a DBAPI error about the database's operation, not the program.
    app.register_error_handler(OperationalError, unreachable)
    app.register_error_handler(InterfaceError, unreachable)


def unreachable(error: Exception) -> Response:
    """503 ``service.unavailable`` with ``Retry-After`` while the database cannot be reached:
    nothing was stored. A page says so in place of itself (the service worker shows the
    phone's copy instead, static/sw.js); a hand being saved stays in the phone's outbox and is
    sent again after ``Retry-After`` (static/notices.js). The engine's pool checks each
    connection before use (``pool_pre_ping``, store/db.py), so the first request after the
    database is back gets a fresh one."""
    said = " ".join(str(getattr(error, "orig", None) or error).split())[:200]
    current_app.logger.warning("the database cannot be reached: %s", said)
    response = _refuse(503, "service.unavailable")
    response.headers["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


#: the routes that read a body larger than ``MAX_CONTENT_LENGTH``: a table's import
LARGE_BODY_ENDPOINTS = frozenset({"tables_api.import_table", "tables.import_file"})


def allow_large_body() -> None:
    """A table's import reads up to ``TABLE_IMPORT_MAX`` (its export of thousands of games);
    every other route stays at ``MAX_CONTENT_LENGTH``. Set before anything reads the body
    (the CSRF check reads a form). The body's limits are set on the request here, from the
    app's config as Flask reads them: Flask would look them up through its app proxy for
    each of the half-dozen times a form's parse asks."""
    asked: Request = request._get_current_object()  # type: ignore[attr-defined]
    config = current_app.config
    if asked.endpoint in LARGE_BODY_ENDPOINTS:
        asked.max_content_length = TABLE_IMPORT_MAX
    else:
        asked.max_content_length = config["MAX_CONTENT_LENGTH"]
    asked.max_form_memory_size = config["MAX_FORM_MEMORY_SIZE"]
    asked.max_form_parts = config["MAX_FORM_PARTS"]


def spooled_body() -> IO[bytes]:
    """The raw request body in a temporary file (in memory up to 1 MiB, on disk beyond),
    copied in chunks of 64 KiB, never read whole: more than the request's
    ``max_content_length``, said by ``Content-Length`` or found while reading, is 413."""
    limit = request.max_content_length
    if limit is not None and (request.content_length or 0) > limit:
        raise RequestEntityTooLarge()
    spool = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)  # noqa: SIM115 -- returned
    total = 0
    while chunk := request.stream.read(64 * 1024):
        total += len(chunk)
        if limit is not None and total > limit:
            spool.close()
            raise RequestEntityTooLarge()
        spool.write(chunk)
    spool.seek(0)
    return spool


def busy(error: DatabaseBusy) -> Response:
    """503 with ``Retry-After`` when the database stayed locked (``store.db.write_scope``):
    nothing was stored. The entry forms catch it themselves and keep the entry; any other
    htmx form keeps what it holds and shows the message (static/notices.js)."""
    response = _refuse(503, "request.busy")
    response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response
