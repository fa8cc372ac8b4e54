"""The service layer: bootstrap and configuration, the one command loop, the use cases
and queries of games, leagues and players, and domain errors. Knows no HTTP and no RQ."""
