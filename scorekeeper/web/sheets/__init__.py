"""The printed score sheets: a stored game's sheet and the blank pad as PDF (the ``sheets``
blueprint; the drawing itself is ``scorekeeper.sheets``)."""
