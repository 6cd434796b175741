"""A table of regular players: its page, its games and statistics, its people and backup
(blueprint ``tables``); the season sheet's PDF is drawn by :mod:`scorekeeper.sheets.season`."""
