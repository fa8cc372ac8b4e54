"""Leagues: pure pairing, standings and ratings; the use cases live in service.league_*
(service.league_commands, service.league_rounds, service.league_queries, ...)."""
