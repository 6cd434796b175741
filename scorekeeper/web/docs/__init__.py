"""The reference pages (docs/, built by MkDocs) served under ``/docs/``: the ``docs``
blueprint is in ``routes``."""
