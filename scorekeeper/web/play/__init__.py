"""What both games' pages share: the hand-entry flow (``entry``: load, read the form, preview,
save, 303; 422 keeps the problems, 409 keeps the entry) and the helpers of a game's pages
(``pages``: finding a game by key, the write transaction, the kept page, the view's poll,
the phone's list of games). No routes: each game's package declares its own."""
