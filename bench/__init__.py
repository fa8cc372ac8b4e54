"""Benchmarks: scripts that print figures, grouped by what they measure. Run them from the
repository as `python -m bench.<group>.<name>` (each one's docstring says its options),
or all at once with `python -m bench.run_all`, which writes docs/performance.md.

- moves/: actions over HTTP (throughput, latency, two calls a move and one, next to a bare
  Flask endpoint), Redis round trips, CPU per action by part and by process, profiles
- streams/: open event streams, and tables drawn from their stream
- storage/: Redis memory per event, live games, a Valkey Cluster, replicas
- jobs/: the workers' jobs: simultaneous phases, deadlines, notifications
- reliability/: the lab and its failover, a soak, cheap abuse
- audit/: the offline audit, and proof without trust
- rules/: the pure rules and the computer players
- peer/: marketfold next to boardgame.io (Node)
- prose/: the paragraphs run_all writes into docs/performance.md
- common.py: starting gunicorn and workers, CPU readings, percentiles (waiting for a
  process: tests/support/waiting.py, as in the tests)
"""
