"""The storage ports of the service: what each use case keeps between requests, by role
(players and tokens, moderation, the lobby, notifications, the proof's records, ...).

Each module here holds one port: a `Protocol` naming what the use cases need, its Redis
adapter, and, in `stores/memory/`, its in-memory twin. Both pass the same contract tests
(tests/stores/), so the service's unit tier runs its use cases on the twins, and Redis is
only reached through an adapter. The game logs themselves go through events.recording's
Recorder (events.recorder on Redis, events.memory_recorder in memory), the work to do later
through service.ports.Scheduler. service.bootstrap builds the Redis adapters; tests/support/
memory_boot.py the twins."""
