"""A club tournament: this phone's tournaments, the new form, the director's page, the public
standings and the projector (blueprint ``tournaments``); the PDFs are drawn by
:mod:`scorekeeper.sheets.tournaments` through :mod:`..sheets.routes`."""
