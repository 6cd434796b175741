"""Problem codes and referee reasons as sentences in the reader's language: the pure
:mod:`scorekeeper.stateless.messages` (the phone's engine carries the same module), here in
the reader's language of the request (see :func:`.i18n.init_app`)."""

from __future__ import annotations

from ...stateless.messages import MESSAGES, jsonable, message, problem_json

__all__ = ["MESSAGES", "jsonable", "message", "problem_json"]
