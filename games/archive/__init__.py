"""Frozen copies of earlier rules versions (written by tools/archive_rules.py, never edited),
registered in `games.ARCHIVE` so that games played under them still replay and verify."""
