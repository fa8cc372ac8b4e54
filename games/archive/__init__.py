"""Frozen copies of earlier rules versions (written by tools/archive_rules.py; their rules are
never changed, only what keeps them on the live interface, as GobCon v1's `card_catalogue`),
registered in `games.ARCHIVE` so that games played under them still replay and verify."""
