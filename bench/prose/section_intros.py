"""The paragraph under each heading of docs/performance.md that bench/run_all.py writes:
what was measured, how, and its target."""

HTTP_INTRO = (
    "Full Goblin Market games (3-6 seats, random legal moves), created and seated first, "
    "then played by N client threads; each turn is one GET of the legal actions and one "
    "POST of the action, and latency is the POST's. The bare endpoint does the same "
    "pattern (one GET of a stream's last entry, one POST doing one XADD) at the same "
    "concurrency, for as many actions, right after it; five such pairs per concurrency, "
    "and the row is the pair with the median ratio (every pair's ratio in the last "
    "column: on a shared 2-core machine one pair can be off by 20 points or more). "
    "Each round also plays marketfold one call a move (the second table). Targets "
    "(#34): marketfold at least 75% of bare at every concurrency (#21's, at least 65% "
    "and a p99 at 8 clients at most twice bare's, still stand). The round trips are "
    "counted by `bench/moves/round_trips.py` (a pipeline is one)."
)
MEMORY_INTRO = (
    "Random games played to the end through the service's use cases (what the API "
    "writes), two per ruleset (fewest and most seats); `MEMORY USAGE key SAMPLES 0` of "
    "each of the game's keys, averaged per game, plus its share of the index of games. "
    "Envelopes are stored compressed (zstd) with a preset dictionary (events.codec); the "
    "idempotency hash keeps `<first> <last> <body digest>` per action (the answer is "
    "rebuilt from the log) and expires `IDEM_KEEP_S` (24 h) after the game ends; the "
    "snapshot is the folded record stored with the last append. Target: at most 500 "
    "bytes per event in all."
)
PARTS_INTRO = (
    "`bench/moves/action_cpu.py --ab actions,inbox,tlog,glossary,uploads`: A/B in one process "
    "(the API's app through Flask's test client on the run's Valkey, Goblin Market games "
    "of 3-6 seats, each turn `GET /legal` then `POST /actions`), alternated runs with "
    "everything on and with one part switched off (monkey-patched by the benchmark, never "
    "in the service), three pairs of 8 games each; CPU of that one process per action, "
    "medians. `actions`: the POST answer's next legal actions (#34.1); `inbox`: the "
    "players' game sets and feed notes written with each append; `tlog`: the public log's "
    "leaves; `glossary`: the card glossary of `GET /legal`; `uploads`: the request body "
    "read by the upload middleware first. Differences of a few tens of µs are within the "
    "noise of a shared machine."
)
CLUSTER_INTRO = (
    "`bench/storage/cluster.py`: the API (gunicorn, as above) on one standalone Valkey and on a "
    "3-master Valkey Cluster (no replicas, queues on their own Valkey), 8 clients playing "
    "full Goblin Market games on each in turn. On one machine the three masters share the "
    "same two cores, so this shows the cluster's overhead (client routing, the follow-up "
    "writes as a pipeline of their own), not the scale-out it gives across machines."
)
REPLICAS_INTRO = (
    "`bench/storage/replicas.py`: the API (gunicorn, as above) on a master with one replica, both "
    "appendfsync always on loopback, answering each append at once (`APPEND_REPLICAS=0`), "
    "after `WAIT 1` (`APPEND_REPLICAS=1`) and after `WAITAOF 0 1` (`APPEND_REPLICA_AOF`: "
    "the replica has fsynced it), 8 clients playing full Goblin Market games on each in "
    "turn, alternated; each row is that setting's median round. What an acknowledged "
    "action costs so that a master's death loses none (docs/reliability.md, "
    '"Replicas"); across hosts add one network round trip per append.'
)
SCALE_INTRO = (
    "Live games (Goblin Market, 3 seats, started, waiting for a bid) are topped up to each "
    "level with the service's use cases (identical data, no HTTP); then 8 new games are "
    "played to the end over HTTP by 8 clients while the rest sit in Redis. `setup s` is "
    "the time it took to create the extra games. Each action touches only its own game's "
    "keys, so the rate should not depend on how many games rest in Redis."
)
RULES_INTRO = (
    "Random games played to the end with `games/` only (setup, legal, decide, evolve, "
    "resolve; event data through JSON), on one core. Random play makes GobCon and Black "
    "Market games much longer than real ones."
)
STREAMS_INTRO = (
    "`bench/streams/open_streams.py`: 1,000 event streams held open by 250 tokens (each "
    "seated player follows its own game and its feed; the other tokens follow their feed; "
    "every token fills its four with streams of waiting games), read by one selector in a child "
    "process of the benchmark. Goblin Market actions/s (8 clients, 16 seated games) and "
    "/healthz latency (one probe every 20 ms) are measured without and with the streams, "
    "alternately, on new games each time. Targets: /healthz p99 under 100 ms with the "
    "streams open; actions/s with streams at least 80% of without."
)
CROWD_INTRO = (
    "`bench/streams/open_streams.py --crowd --rounds 1`: as above, but the other tokens "
    "each also follow "
    "one of the games being played (about 11 spectators a game), so every event of a "
    "played game is sent some 15 times: the cost of the frames themselves. No target."
)
PHASES_INTRO = (
    "`bench/jobs/phases.py --load`: 200 Sorcerous Futures games (4 seats, steered towards closed "
    "auctions) played at once on 2-5 s deadlines for 60 s, one greenlet each polling its "
    "game every second; 10% of decisions are left to time out, the rest are answered "
    "after up to half the time left; the idle row is 4 such games. From the logs, in the "
    "server's clock: reveal = last sealed bid's append to the resolution's append (the "
    "queue's wait and the job); late = deadline in force to the default's append; "
    "`extended` counts deadlines given fresh ones, `outages` the heartbeat gaps recorded "
    "(the API's: over 0.75 s). One worker and the queues on a Valkey of their own "
    "(appendfsync everysec), as `marketfold serve`. Targets under load: "
    "reveal p99 under 1 s, default lateness p99 under 2 s (docs/workers.md)."
)
ABUSE_INTRO = (
    "`bench/reliability/abuse.py` (issue #27.6): /healthz latency (one probe every 20 ms) "
    "idle, while 4 "
    "anonymous clients loop over `POST /v1/verify` of a 1,926-event bundle (about 1.6 MB) "
    "and three `GET /v1/games/{id}/state?at=N` of the same game's log at random N, and "
    "while 4,300 slow POSTs from 5 tokens (headers, then a byte a second; each answered "
    "connection opened again at once) are kept going. Rate limits are lifted. Target: "
    "/healthz p99 under 100 ms under both. `python -m bench.reliability.abuse --compare` "
    "also runs both "
    "with the defences off (the figures before #27.6)."
)
PROOF_INTRO = (
    "`bench/audit/proof.py` (issue #32): the public log of games grown to 100,000 leaves on the "
    "run's Valkey (appendfsync always: each leaf is one script call and one fsync), then a "
    "signed tree head, a game's receipt and a consistency proof at that size, and an "
    "export's Ed25519 signature. A game appends three leaves (created, started, ended) "
    "after the writes that call for them, so an action costs nothing, and a game's three "
    "writes one script call each; the per-action row spreads them over a game's events."
)
PEER_INTRO = (
    "`node bench/peer/driver.cjs` (issues #34.2, #48): one Node driver plays `marketfold serve` "
    "(embedded Valkey, appendfsync always, and the queues' Valkey; gunicorn with two gevent "
    "processes; one RQ worker) and boardgame.io 0.50's own `Server` with FlatFile storage "
    "(node-persist writing each file at once, not from its once-a-second queue), in memory, "
    "and on PostgreSQL as people deploy it (the `bgio-postgres` 1.0.16 adapter, Sequelize "
    "and its pool of 5 connections, on PostgreSQL 15 from Debian's package: a throwaway "
    "cluster made by initdb in a temporary directory, on a free loopback port, with fsync "
    "and synchronous_commit on, removed afterwards; PostgreSQL refuses root, so as root the "
    "cluster belongs to and runs "
    "as `$PEER_PG_USER`, else `postgres`, else `nobody`; its programs are found in "
    "`$PEER_PG_BIN`, else `pg_config --bindir`, else the newest `/usr/lib/postgresql/N/bin`, "
    "and without them the PostgreSQL peer is skipped with a line saying so), all on this "
    "machine. The peer's game (bench/peer/auction.cjs) is an auction shaped "
    "like Goblin Market (lots sized by a turned card, bid or pass in turn, take all or "
    "one, payouts by the bid's last digit and a goblin card) whose hands are hidden by its "
    "`playerView`; marketfold plays Goblin Market. Games of 3-6 seats are seated first; "
    "each client then plays its share of them, one after another. marketfold one-call: "
    "each seat follows its event stream and acts on the `owes` frame's `actions` or its "
    "last answer's (docs/clients.md); two-call: `GET /legal`, then `POST`. boardgame.io: "
    "one socket.io connection per seat, a move is one `update` message. A move's latency "
    "runs from sending it to the mover seeing the new state (marketfold's answer, "
    "boardgame.io's `update` to the mover). Each concurrency is five rounds of "
    "alternated pairs (marketfold, then the peer, on new games), and the row is the pair "
    "with the median ratio of moves/s. Targets (#48): marketfold one-call at least 1.2 / "
    "1.5 / 1.5x boardgame.io FlatFile at 1 / 8 / 32 clients and at least 2x boardgame.io "
    "on PostgreSQL; boardgame.io in memory is a reference. The `bare one-POST` "
    "rows are the stack's ceiling in the same run: `bench/moves/bare_app.py` (Flask, one XADD per "
    "POST: no rules, no hash chain, no streams) under the same gunicorn, on its own Valkey "
    "with appendfsync always, 60 POSTs a game (a Goblin Market game's moves)."
)
FOLD_INTRO = (
    "`events.fold.fold_all` over finished logs (the envelopes the service writes), best "
    "of three, on one core: the cost of refolding a log when no snapshot helps."
)
