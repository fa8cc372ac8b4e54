"""What the store costs: Redis memory per event and per game (memory), cost against the
number of live games (live_games), a Valkey Cluster (cluster), replica waits (replicas)."""
