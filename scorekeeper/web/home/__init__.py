"""The start page: a new game, this phone's games to resume or forget, the web app manifest
(the ``main`` blueprint)."""
