"""The session cookie and the forms' CSRF tokens, signed and checked by signers built once per
app.

Flask (the session) and Flask-WTF (the CSRF token) make a new itsdangerous serializer for every
cookie or token they read or write, and its signer works out its key again (an HMAC of the
secret) and takes each HMAC through Python's ``hmac`` module with a hash function rather than
its name (its slow path): about half of a signature's cost, twice on a form's every request
(the session cookie, then the token). Here each app keeps one serializer per use, made from the
secret keys it has, whose signer works its keys out once and takes each HMAC in one call
(``hmac.digest``). The values are the same itsdangerous values, byte for byte: a cookie or token
written by either side reads on the other, the secret's fallbacks (``SECRET_KEY_FALLBACKS``)
still read, and a changed secret key makes new serializers.

Anything but a token read in full and found equal to the session's goes to Flask-WTF's own
check, which refuses it with its own reason (the CSRF check itself is unchanged).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from flask import Flask, Request, current_app, g, request, session
from flask_wtf.csrf import CSRFProtect, generate_csrf
from itsdangerous import BadData, TimestampSigner, URLSafeTimedSerializer
from itsdangerous.signer import HMACAlgorithm

Exempted = TypeVar("Exempted")

#: the salt Flask-WTF signs its tokens with
CSRF_SALT = "wtf-csrf-token"


class OneCallHMAC(HMACAlgorithm):
    """HMAC in one call by the hash's name (the same bytes as ``hmac.new(...).digest()``)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def get_signature(self, key: bytes, value: bytes) -> bytes:
        return hmac.digest(key, value, self.name)


class KeptKeySigner(TimestampSigner):
    """itsdangerous' timestamp signer with its keys derived once, when it is made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.algorithm = OneCallHMAC(self.digest_method().name)
        self.derived: dict[bytes, bytes] = {}
        for key in self.secret_keys:
            self.derived[key] = super().derive_key(key)

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        key = self.secret_keys[-1] if secret_key is None else secret_key
        if isinstance(key, str):
            key = key.encode()
        found = self.derived.get(key)
        return found if found is not None else super().derive_key(secret_key)


class KeptSerializer(URLSafeTimedSerializer):
    """A URL-safe timed serializer that makes its signer once (for its own salt)."""

    default_signer = KeptKeySigner

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("signer", KeptKeySigner)
        super().__init__(*args, **kwargs)
        self.own = super().make_signer(self.salt)

    def make_signer(self, salt: str | bytes | None = None) -> Any:
        if salt is None or salt == self.salt:
            return self.own
        return super().make_signer(salt)


def kept_serializer(
    app: Flask, use: str, keys: Sequence[str | bytes], make: Callable[[list[str | bytes]], Any]
) -> Any:
    """The app's serializer for ``use`` made by ``make`` from the secret ``keys`` (the current
    one last), made again when the keys change."""
    kept: dict[str, tuple[tuple[str | bytes, ...], Any]] = app.extensions.setdefault(
        "scorekeeper.serializers", {}
    )
    found = kept.get(use)
    key_tuple = tuple(keys)
    if found is None or found[0] != key_tuple:
        found = kept[use] = (key_tuple, make(list(keys)))
    return found[1]


def _csrf_serializer() -> KeptSerializer | None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    secret = app.config.get("WTF_CSRF_SECRET_KEY") or app.secret_key
    if not secret:
        return None
    return kept_serializer(  # type: ignore[no-any-return]
        app, "csrf", [secret], lambda keys: KeptSerializer(keys[-1], salt=CSRF_SALT)
    )


def csrf_token() -> str:
    """The page's CSRF token, as Flask-WTF's ``generate_csrf`` makes it (the same token, kept
    in ``g`` for the request), signed by the app's kept serializer; the first token of a
    session (none in it yet) is Flask-WTF's own."""
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    found = g.get(field)
    if found is not None:
        return str(found)
    raw = session.get(field)
    serializer = _csrf_serializer()
    if not isinstance(raw, str) or serializer is None:
        return str(generate_csrf())
    token = serializer.dumps(raw)
    setattr(g, field, token)
    return token


class Csrf(CSRFProtect):
    """Flask-WTF's CSRF protection; a request whose token reads in full (signature and age)
    and equals the session's passes with the app's kept serializer. Every other request is
    checked by Flask-WTF itself (refused with its reason), as are HTTPS requests under
    ``WTF_CSRF_SSL_STRICT`` (their referrer check)."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]

    def init_app(self, app: Flask) -> None:
        super().init_app(app)  # type: ignore[no-untyped-call]
        app.jinja_env.globals["csrf_token"] = csrf_token
        app.context_processor(lambda: {"csrf_token": csrf_token})

    def exempt(self, view: Exempted) -> Exempted:
        """Flask-WTF's ``exempt`` (a view, a blueprint or its name), typed."""
        return cast(Exempted, super().exempt(view))  # type: ignore[no-untyped-call]

    def protect(self, apply_exemptions: bool = False) -> None:
        asked: Request = request._get_current_object()  # type: ignore[attr-defined]
        if apply_exemptions and (not asked.endpoint or self._exempted(asked)):
            return
        config = current_app.config
        if asked.method not in config["WTF_CSRF_METHODS"]:
            return
        if not (request.is_secure and config["WTF_CSRF_SSL_STRICT"]) and self._token_matches():
            g.csrf_valid = True  # as Flask-WTF marks a request it found valid
            return
        super().protect()  # type: ignore[no-untyped-call]  # the exemptions are applied above

    def _exempted(self, asked: Request) -> bool:
        """Whether :meth:`exempt` marked the request's blueprint or its view (the question
        Flask-WTF's own check answers from the same two sets), with the request and the app
        looked up once: every POST asks, a live preview on every keystroke."""
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        marked = app.blueprints.get(asked.blueprint) if asked.blueprint else None
        if marked is not None and marked in self._exempt_blueprints:
            return True
        view = app.view_functions.get(asked.endpoint)
        return view is not None and f"{view.__module__}.{view.__name__}" in self._exempt_views

    def _token_matches(self) -> bool:
        field = current_app.config["WTF_CSRF_FIELD_NAME"]
        raw = session.get(field)
        sent = self._get_csrf_token()  # type: ignore[no-untyped-call]
        serializer = _csrf_serializer()
        if not isinstance(raw, str) or not sent or serializer is None:
            return False
        try:
            read = serializer.loads(sent, max_age=current_app.config["WTF_CSRF_TIME_LIMIT"])
        except BadData:
            return False
        return isinstance(read, str) and hmac.compare_digest(raw, read)
