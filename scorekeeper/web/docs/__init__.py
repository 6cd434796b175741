"""The reference pages (docs/, built by MkDocs) served under ``/docs/`` (the ``docs``
blueprint)."""

from .routes import bp

__all__ = ["bp"]
