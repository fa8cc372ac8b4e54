"""The prose of docs/performance.md's "Where the time of an action goes", which
bench/run_all.py writes after the actions' tables: what the A/B runs, the CPU figures
and the round-trip counts measured, and what each cut saved. Edit it here (and in
docs/performance.md, until the next run_all writes it)."""

PROFILE = """\
Measured on the running service (gunicorn, two gevent workers, as above): the CPU each
process spent per action (the table above, from /proc), A/B runs that switch one part
off (32 clients, 32 games, the median of three rounds of about 1,900 actions), and what
redis-py sends (`bench/moves/round_trips.py`):

- Where a one-call move's CPU goes in the API's processes, by part (session 10,
  `python -m bench.moves.profile_move`: py-spy, a sampling profiler attached from outside,
  samples both gunicorn workers while 8 clients play 96 Goblin Market games one call per
  move; 5,679 moves, 3.06 ms of the workers' CPU per move, load 2-3). The action's own
  work is 29% of the samples: its append (encoding and the Redis round trip) 11.5%, the
  rest of the use case 5.8%, token, rate limit and body 5.1%, the rules 2.7%, the fold of
  the new events 2.7%, inboxes and feeds 1.0%, the answer's next actions 0.3%. The HTTP
  stack is 27.5%: Flask and werkzeug 9.7%, answers written 9.4%, gunicorn reading requests
  8.4%. The streams are 30.6%: frames made (redaction, `owes`, legal actions) 9.2%, the
  shared readers' XREADs 9.1%, frames written 6.4%, the streams' loops 5.9%. gevent's hub
  is 8.9%. No part holds more than an eighth, so 1.2-1.4 ms a move means halving all three,
  not cutting one. Tried and dropped: a response's head sent with its body in one write
  (one `sendto` per answer instead of two, by strace), whose saving (the head's own send,
  about 2% of the samples) stayed within the noise of four alternated runs (2.6-3.2 ms a
  move either way).
- Issue #48 §2, the hot path's levers (session 20, branch hot48; the machine shared, load
  average 10-22 throughout, so only large effects could show). None was kept; by lever:
  1. Frames encoded once per event and kind of viewer: each `Frame` carrying its bytes on
     the wire, made where the frame is made (frames were already made once per process per
     event, viewer and status, `SHARED`; each stream still formatted `id:/event:/data:` and
     encoded it). In one process 2.6 µs against 0.4 a frame and stream (a 260-byte event
     frame, load 15), so some 10-15 µs of a move's 3-4 ms. Served, one call a move
     (`python -m bench.moves.ab_http --b-root <a checkout of main at ba0ecb8> --one-call
     --rounds 4 --games 12`, A with the change), two runs: the API 4,366 µs per action
     against 4,234 (rounds 7,348/4,673, 4,677/4,583, 4,056/3,884, 3,282/3,531; load 16-22,
     a test run beside it) and 4,442 against 4,166 (5,355/4,729, 5,028/4,499, 3,855/3,752,
     3,324/3,832; load 14-16). No gain shown: dropped (commit bf402a6, reverted by 7d46633). Frames
     shared across processes were not tried.
  2. A seat's legal actions once per game version: counted in one one-call run (8
     clients, 8 games, 453 moves, `python -m bench.moves.actions --one-call` with a temporary log):
     559 computations of the legal actions, for 463 distinct (game, version, seat); 69
     repeats in the same process (the POST's `actions` and that seat's `owes` frame), 27
     in the other process. Goblin Market's `legal` with its schemas costs 9 µs (338
     decisions, in one process), so a per-process cache would save about 1.4 µs a move:
     not built. `owes` frames are already made once per process, version and seat.
  3. Nothing read back after an append: already so. The appending process folds the new
     events and holds the record (events.repository `append`, `hold`); the other process
     folds it from the entries its streams received (service.game_stream `_advance`). In
     the same run 447 of 453 POSTs were admitted on the held record (one round trip, no
     load) with no recheck; the 6 others took the usual first round trip (by the code, a
     token not yet known to that process).
  4. Codec and checks: already done in session 8 (orjson for canonical JSON and entries,
     the action body loaded without marshmallow, the token's record kept per process,
     `service.tokens.known`, and checked by the append's own script, so a revocation
     refuses the next append at once; the rate count in that script). msgspec was not
     tried.
  Where the time goes is therefore unchanged: the by-part shares of session 10 above
  still stand (no new profile was taken). What is left is the stack's per-request and
  per-stream work (Flask, werkzeug, gunicorn, gevent, one send per stream), not a
  computation made twice.
- Issue #48, session 22: a finished game's receipt was made by every stream that woke
  with `game.Ended`, since each started making it while the others waited on Redis, so
  the per-process cache (`service.frames.Shared`) missed for all of them. py-spy, one
  gunicorn process, 8 clients, 48 games (`python -m bench.moves.profile_move --processes 1
  --games 48`, load 2-4 with other work running): `receipts.kept` held 8.0% of the
  samples (209 of 2,599); with `Shared` making a value once however many streams miss it
  at the same moment (the others wait for it), 2.4% (172 of 7,060). One gunicorn process
  instead of two, measured again (`python -m bench.moves.ab_http --b-processes 1
  --one-call --rounds 4`, load 1-4): the API's CPU per move 4,307 against 5,876 µs at 8
  clients and 4,374 against 5,055 at 32, actions/s swinging 65-140% by round; session
  14's driver run found one process no faster next to boardgame.io (below), so two stay
  the default.
- Python, not the kernel (session 13). Read from /proc (`utime`, `stime` and the context
  switches of both workers) while 8 clients played 48 games one call per move, three runs
  at load 0.7-1.5: 2,470-2,510 µs of user time and 240-310 µs of system time per move,
  with 3.3-4.0 involuntary switches (the worker preempted) and under one voluntary one.
  The profile's socket sends (about a fifth of its samples: a POST's answer, the `EVALSHA`,
  the readers' next `XREAD`, each stream's frame) are mostly that preemption: the send
  wakes the reader of the other end, which takes the core while the worker stays runnable,
  and a sampler counts runnable as busy. So the cost is Python code spread thin, and the
  shares above, with the sends left out, rank it: Flask and werkzeug 15%, frames made 13%,
  gunicorn's request parsing 13%, the append 9%, the rest of the use case 8%, token and
  body 7%, the readers 7%, the streams' loops 7%, the rules 5%.
- gunicorn's C HTTP parser (session 13): gunicorn 25+ uses `gunicorn_h1c` (picohttpparser)
  instead of its Python parser whenever it is installed. With it installed (0.6.10, the
  newest this machine's package index has), five alternated rounds (`python -m
  bench.moves.ab_http --b-env GUNICORN_CMD_ARGS=--http-parser=python --one-call --rounds 5`,
  load 2.4-2.8) gave the API 2,116 µs per action (median) against 2,138 with the Python
  parser, rounds 87-104%: within the noise, as the parser's own share (about 5% of the
  samples) predicts. It is not a dependency: it ships only as source, so installing it
  needs a C compiler, and gunicorn's own `fast` extra asks for 0.6.14 or newer. An
  operator who has both can `pip install 'gunicorn[fast]'`; marketfold runs unchanged (the
  HTTP refusal, slow-body, abuse and stream tests pass with it).
- Python's garbage collector (session 12, `cli/gunicorn_conf.tune_gc`): each API worker
  freezes what its loaded app holds and collects at thresholds (7000, 20, 20) instead of
  (700, 10, 10). Timed with `gc.callbacks` in both workers while 8 clients played 32
  Goblin Market games one call per move (`bench/moves/actions.py --one-call`, two runs each):
  at the defaults 81-123 young, 7-11 middle and one full collection a run, 108-183 ms of
  a worker's 2.8-4.8 s of CPU (about 3.3%); tuned, 8-12 young ones and nothing older,
  25-41 ms (about 0.9%), with 22,000-29,000 objects tracked instead of 98,000-101,000.
  About 2.4% of the API's CPU, below what alternated served rounds can show (five pairs,
  medians: 2,408 µs per action tuned against 2,365 untuned; the untuned rate over the
  tuned by round 96-107%).
- The stack's ceiling (session 9, #34): is it Flask, gunicorn and gevent that keep
  marketfold from boardgame.io's figures, or marketfold's own work? The peer driver now
  also plays `bench/moves/bare_app.py` (one XADD per POST, no rules, no hash chain, no streams)
  under the same gunicorn command line, on its own Valkey with appendfsync always
  (`--pairs bare/flatfile,bare/memory`; the section "Next to boardgame.io", run at load
  1.4-2.8). The bare stack made 2.95 / 3.45 / 3.68x boardgame.io FlatFile's moves/s at 1 /
  8 / 32 clients and 0.67 / 1.26 / 1.31x its in-memory server's, at 0.6-1.0 ms of server
  CPU per move (gunicorn 0.54-0.83, Valkey 0.05-0.21). So the stack is not what misses
  the targets: marketfold's one-call moves cost 2.9-4.3 ms of server CPU each in that run
  (2.3-3.5 ms in a quieter one at 06:50, load 0.5-1.4), three to four times the bare
  endpoint's. On two cores the moves/s follow the CPU per move of server and driver
  together, so 1.5x boardgame.io FlatFile (2.1-2.4 ms at 8 and 32 clients, driver 0.4)
  and 0.6x its in-memory server (0.6-0.8 ms, driver 0.3-0.4) both ask for about 1.2-1.4 ms
  of server CPU per move: under half of today's, and less than twice a bare XADD's. By the
  figures above, a served `POST /actions` costs about 1.4-1.6 ms and the streams'
  fan-out 0.6-1.2 ms, so neither cut alone reaches it.
- The in-memory target at one client is the stack's own ceiling (session 14, why #34 is
  declared blocked). One client plays its moves one after another, so its moves/s is one
  over a move's latency. 0.6x boardgame.io in memory (0.7-0.9 ms a move, nothing written
  to disk) leaves 1.35 ms a move, and the bare endpoint above, with no game at all, takes
  1.37 (0.67x in the same run); a marketfold move adds the rules, the hash chain, a
  redacted frame for each of 3-6 seats and the next seat's `owes`. Only another HTTP stack
  or dropping the fsync of each action could meet it.
- One HTTP process instead of two (session 14, `marketfold serve --http-workers 1`: no
  second stream reader, every record held where the append was made). The driver's quick
  run, three rounds, load 1.7-2.5: 1.35 / 1.01 / 0.82x boardgame.io FlatFile at 1 / 8 / 32
  clients against 1.36 / 1.13 / 1.03x with two processes just before. No better at one
  client, and worse where the second core is needed; two stay the default.
- Cut in session 8 (#34, #28: the request path of `GET /legal` and `POST /actions`
  itself). In one process (`python -m bench.moves.action_cpu --b-root <a checkout of 5dbafd1>
  --runs 6`: the CPU spent inside the app per action, no test client, six alternated
  pairs of processes, load average 2.8-4.8): `GET /legal` 378 -> 315 µs, `POST /actions`
  780 -> 655, both 1,159 -> 967 (-17%, lower in every pair). Served (`python -m
  bench.moves.ab_http --b-root <the same>`, 8 clients, alternated rounds, load 2.8-4.6): the
  API 1,859 µs per action against 2,097 (-11%; by round -11%, -9%, -14%, -20%, 0%), Valkey
  289 against 298; one call a move (`--one-call`, four rounds) 2,371 against 2,576 (-8%;
  by round -13%, +1%, -17%, +5%); at 32 clients (three rounds, load 2.4-8.2) 2,113
  against 2,271 (-7%; by round -7%, -21%, -4%); at 1 client within the noise (2,591
  against 2,681, rounds of 240 actions). Actions/s swung 102-533 between rounds on the
  shared machine, so its ratios say nothing here. What went: the round trips' commands packed by
  hiredis in one call each (redis-py's packer walked each of an append's dozens of
  arguments in Python), and their connection kept from one round trip to the next
  instead of lent and taken back by redis-py's pool each time (its queue, lock, counters
  and process check: 7-10 µs; `events/round_trip.py` checks a kept one as the pool
  would, and a connection the server closed is connected again); the canonical JSON of
  envelopes, their hash and a body's fingerprint written by orjson where it writes
  Python's text byte for byte (no number with a fraction or exponent, no null: else
  Python's encoder; property-tested), an event's data normalised the same way; snapshots
  by orjson when they hold no float and only ASCII (60 -> 31 µs a snapshot); Flask's
  check of each view and hook for a coroutine, made on every request, made once; the
  request and the app looked up once per hook instead of some fifteen proxy lookups a
  request (0.8 µs each); a record keeping the owed decisions its fold computed (the
  rules' `owed` once less per action and per read of the legal actions); a well-formed
  action body loaded without marshmallow (6 µs; the same dict, key order and refusals,
  tested against the schema); one gevent timer for a whole request body instead of one
  per read (4 µs each). Measured and left: zstd 5-8 µs an envelope (level 1 would save
  1-2 µs for entries 0.6% larger); canonical JSON twice per envelope (its hash without
  `hash`, then the stored text with it), 2-3 µs each; the card glossary of `GET /legal`
  11 µs; Flask's session, opened for nothing, 2 µs a request; the rest is Flask's and
  werkzeug's handling of a request (routing, contexts, headers: about a quarter of the
  app's CPU), gunicorn's and gevent's (the served API's CPU per action less the app's),
  the rules, and the round trips themselves.
- Session 7 (#28's evidence, #34.3), on a machine shared with four other people (load
  average 2-9 while measuring: rates swung from 77 to 357 actions/s between rounds of one
  run, so the figures below are CPU per action, alternated A/B, medians). Against the
  code of session 5 (commit 7f7f3c8, the first table's last quiet run), two served APIs
  on one Valkey, 8 clients, five alternated rounds (`python -m bench.moves.ab_http --b-root
  <a checkout of 7f7f3c8> --b-app api.wsgi:app`): the API 2,986 µs per action against
  2,892 (+3%), Valkey 445 against 432; in one process (`bench/moves/action_cpu.py`: the app
  through Flask's test client, the same games, three times three alternated runs)
  `POST /actions` 1,050 µs against 970 (+5-8%), `GET /legal` the same (about 550). The
  restructuring of #28 (one request context, recorder and repository) and what came
  since (a record's private-log and invitation fields, the public log's leaves, the
  answer's `actions`) cost the API a few percent; one idle pair at 56% of bare was the
  machine's noise, not a regression of that size.
- The answer's `actions` (#34.1: the caller's next legal actions, so that a client moves
  in one call; no card glossary): in Goblin Market the seat that just acted owes again
  only after winning a split, and otherwise nothing is computed (`next_actions` returns
  `[]` first): A/B in one process, six alternated runs, -1 µs per action (noise). Earlier,
  CPU per `POST /actions` in one process (Goblin Market and GobCon, about 620 actions a
  run, five alternated runs each): median 1.65 ms against 1.57 ms before, within the
  noise of a machine at load 10-14; answers 1.1 KB against 0.9 KB on average. The same
  A/B: the players' inbox writes 50 µs per action, the public log's leaves (three a
  game) within the noise.
- One call per move (the second table; `bench/moves/one_call.py`): each seat follows its event
  stream and posts from its `owes` frames and its answers' `actions`, so a move costs one
  HTTP request instead of two, but every append now goes out to every seat's stream: one
  chunked write per seat (3-6), one reader per API process woken (its XREAD BLOCK read
  and sent again), and, in a process that did not make the append, a load of the record
  at that version for the `owes` frame of the seat that owes next (its legal actions).
  Measured (8 clients, 16 games, load 2-3): the API 2.9-3.4 ms per action one call a move
  against 2.2-2.9 with GET+POST, the benchmark's client 1.1 ms against 1.6-1.9, Valkey
  0.40 against 0.35; so at 8 clients one call a move made 213-324 actions/s against
  330-416 with two (40% of bare in one pair, 70% with two calls), while at 1 client,
  where latency rather than CPU bounds it, one call was the faster (112% of bare against
  53% in one pair at load 7). py-spy on the API workers, one call a move: the streams'
  loop and frames 14% of the samples, their writes 8%, the readers 12%, the owes frames'
  record loads 5%, `POST /actions` 21%.
- Next to boardgame.io (`node bench/peer/driver.cjs --quick`, the section "Next to
  boardgame.io"; single pairs at load 4-9): marketfold one call a move made 0.77-1.13x
  boardgame.io FlatFile's moves/s and 0.18-0.92x its in-memory server's (targets 1.5x and
  0.6x: **not met**). Server CPU per move: marketfold 2.8-4.2 ms (gunicorn 2.5-3.7,
  Valkey 0.3-0.5, the worker and the queues' Valkey about 0.02), boardgame.io FlatFile
  1.9-3.9 ms, in memory 0.8-1.2 ms; at 8 and 32 clients the machine's two cores are the
  bound, so the ratio of moves/s follows the ratio of CPU per move. Where marketfold's
  goes, by the A/B and CPU figures above: `POST /actions` about 1.3-1.6 ms of the API's
  (as in the GET+POST runs: gunicorn, Flask and gevent handling one request, its one
  Redis round trip, the rules, envelopes, hash chain and answer), and the event streams'
  fan-out about 1.3-1.5 ms (the one-call runs' API CPU per action less the POST's): a
  chunked write to each of 3-6 seats' streams with its greenlet's wake-up and its frames
  (about 45 µs a stream to render, measured in one process), each API process's reader
  woken and its XREAD BLOCK sent again, and the `owes` frames (the next seat's legal
  actions). boardgame.io sends each seat one socket.io message a move too, but from one
  Node process that holds the match in memory, without a durable append per move. To
  reach 1.5x FlatFile marketfold would need about half its CPU per move; the fan-out is
  the larger share a design change could take (one reader per process for every game it
  streams, or frames pushed by the append instead of read back), not done in this round.
- Cut in session 8 (#34, the fan-out; `service/fanout.py`, `service/game_stream.py`,
  `events/codec.py`): a reader sends its XREAD on a connection it keeps instead of one
  lent and returned by redis-py's pool with its readiness check (52-93 µs of CPU against
  19-38 µs, measured alone; if Redis drops it, one read goes through the client and its
  retries, and the stream goes on); an `owes` frame for a seat that owes nothing after an
  append is made from the `owed` stored beside that append's last event, so only the owing
  seat's frame needs the record at that version (a fold in a process that did not make the
  append); the per-process cache of shared frames without a lock (gevent's cost more than
  the look-up); the entries decoded by orjson (1 µs against 4 for Python's decoder, which
  still reads what only it reads). Where the rest goes, by CPU time (not py-spy):
  rendering a frame is about 1.3 µs (redaction and JSON); the cost is in waking and
  writing, gevent's and the kernel's (greenlet switches, timers, one `send` a stream):
  each stream of a game about 30-50 µs per append, and the first one of a game in a
  process 80-450 µs (its reader woken and its XREAD sent again; the spread is the
  machine's noise), measured by adding spectator streams to the games one API process
  serves. Alternated runs at load 1-3 (the machine shared with another session and the
  lead), against main just before these cuts: one call a move (`bench/moves/ab_http.py
  --one-call`, five pairs), the API 2,336 µs per action against 2,653 (medians), actions/s
  +5-18% in each pair; with 1,000 open streams (`bench/streams/open_streams.py`, which now
  prints each round's CPU per action; eight rounds each, the orjson decode in the last four), the
  streams add a median 1.0 ms of API CPU per action (0.8-1.3) against 1.3 ms (1.0-2.0),
  and actions/s with streams was a median 81% of without (69-101%) against 75% (39-128%:
  rounds that a burst of the other sessions' work hit).
- Cut in session 7: an `owes` frame in an API process that did not make the append
  folds the record it holds through the entries its streams received (each one seen,
  the one at its version byte for byte) instead of loading the game
  (`service/game_stream.py`): one round trip less per append and process with a seat's
  stream open; one call a move, four alternated rounds at load 8-9: the API 3,298 µs per
  action against 3,679 before, Valkey 427 against 537 (medians; single rounds within the
  noise of each other).
- py-spy misleads here: on this VM its samples pile up on system calls (gevent's socket
  `send`: 22-31% of the samples, the first write of each answer, its head, 16% alone),
  while a loopback send that wakes its reader costs 15-20 µs of system CPU measured
  alone (a ping-pong of two processes), some 0.1 ms for the six of an action; so
  figures here come from CPU time and A/B runs, not from sample shares. Sending an
  answer's head and body in one write (gunicorn sends two) made no difference beyond the
  noise in five alternated rounds.
- Redis round trips: `POST /actions` 1 when it follows the caller's `GET /legal` on the
  same API process, as a client's keep-alive connection does (`service/admission.py`: the
  process holds the game and knows the token's record, so nothing is read first; the
  append's script checks that the token's record and the log's entry the process holds
  are unchanged, and counts the call), else 2: the token, the rate count and the game's
  load in one round trip (`service/limits.py`, via `api/entry.py`), then the append, which
  also writes the new deadlines and the players' feeds. `GET /legal` 1 (that first round
  trip). With an `Idempotency-Key`: one more. At the start of #21: 2 and 1; before #13:
  7-8 and 5. On a cluster (no admission: the token and its counter lie on other nodes)
  the first round trip's three commands go one by one and the follow-up writes are a
  pipeline after the append: `POST /actions` 5 round trips, `GET /legal` 3 (counted with
  `bench/moves/round_trips.py` against `tests/support/cluster.py`).
- fsyncs (appendfsync always): one per action, the append's; the rate counters are kept
  out of the AOF (a GET writes nothing durable), as the bare endpoint's GET.
- CPU per action at 32 clients: the API process about 1.45 ms (1.72 ms at the start of
  this round), the bare endpoint 0.83; Valkey 0.18 ms against 0.11 (Lua: the load, the
  count, the append with its follow-up writes); the benchmark's client threads 1.1 ms
  against 1.0 (bigger answers to parse: the legal actions with their schemas, an
  action's events, two rate-limit headers). On two cores every process shares the same
  CPUs, so the ratio of actions/s follows the ratio of all the CPU an action costs.
- Where the API's 1.45 ms go: gunicorn's and Flask's handling of the two requests and the
  two round trips under gevent, as for the bare endpoint (its whole 0.83 ms; a redis-py
  round trip under gevent costs 70-80 µs of CPU, measured alone), and marketfold's own
  work, no part of it above 0.1 ms: A/B, the envelopes' compression
  (about three envelopes an action) cost 95 µs with deflate, whose primed 256 KB state was
  copied for each envelope and had left the CPU caches under load; zstd with the same
  dictionary costs about half; the JSON answers by orjson instead of Python's encoder
  save 25 µs; the admission's saved round trip 100 µs in the API and 40 in Valkey. The
  players' feed writes, the `Vary`/`Cache-Control` headers, the cards glossary of the
  legal actions and the event data's normalisation each measured under 20 µs (within the
  noise). The rest is the rules (`legal`, `decide`, the fold), the hash chain, the body's
  checks and the limiter, spread thin.
- Cut in #21: a `POST /actions` after `GET /legal` in one round trip (above); redis-py's
  readiness check before lending a connection (a zero-timeout poll) went through a turn
  of gevent's hub, now the kernel's poll (`service/redis_gevent.py`: -0.1 ms per GET and
  -0.2 per POST at one client); the first round trip and the append are sent without
  redis-py's pipeline and script objects (`events/round_trip.py`), the count by EVALSHA
  instead of EVAL; the action's body schema built once; JSON answers by orjson; envelopes
  by zstd; earlier in #21, deflate's memLevel 9 to 8, the rules' states copied with a
  dict copy instead of `dataclasses.replace`, a record's owed decisions computed once.
- Open event streams: with 1,000 open, the API workers spend about 0.8-1.3 ms more CPU per
  action (1.0-2.0 before session 8's cuts above; some 14 frames go out per action, one
  gevent send each, plus each process's reader waking per append). A stream also follows
  its game's chat; it looked at the chat with a zero-timeout wait, and under gevent
  `Event.wait(0)` yields a full hub turn (5 ms measured with 50 runnable greenlets): now a
  zero timeout never waits. The seat's `owes` is decoded once per entry, shared.
"""
