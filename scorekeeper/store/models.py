"""Tables (filled in by the games work)."""
