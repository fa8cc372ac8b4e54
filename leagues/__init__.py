"""Leagues: pure pairing, standings and ratings; the use cases live in service.leagues."""
