"""Club tournaments without the web or the database: who sits where each round
(:mod:`.seating`), how the participants rank (:mod:`.standings`), and the plain values both
use (:mod:`.model`). Pure Python like ``scorekeeper.rules``: the store saves what it decides,
the web layer shows it."""
