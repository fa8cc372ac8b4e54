"""Configuration shared by the API and the workers: defaults, overridden by the environment.

Every key can be set as an environment variable of the same name (for example
`REDIS_URL`) or with the `MARKETFOLD_` prefix; values are parsed as JSON when they parse.
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Mapping
from typing import Any

from events import repository

CLUSTER_SCHEME = "redis+cluster://"
SENTINEL_SCHEME = "redis+sentinel://"
DEFAULTS: dict[str, Any] = {
    # the store; `redis+cluster://host:port[,host:port...]` for a Redis/Valkey Cluster
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    # the queues (RQ) may live on another Redis; defaults to REDIS_URL, and must be set
    # (a plain Redis) when REDIS_URL is a cluster: RQ does not run on a cluster. Without
    # a single point of failure: `redis+sentinel://[:password@]host:port,host:port,...
    # /SERVICE[/DB]` reaches the master that Sentinel names, and follows its failovers
    "RQ_REDIS_URL": None,
    # an append (every action, default, reveal, end) is answered only once this many
    # replicas of the master holding its log have it (WAIT; 0: answer at once, as
    # replication is asynchronous); with APPEND_REPLICA_AOF in their AOF too (WAITAOF).
    # Fewer within APPEND_REPLICA_TIMEOUT_MS: 503 not_replicated, the write kept on the
    # master; a retry with the same Idempotency-Key answers once they have it
    # (docs/reliability.md, "Replicas"). The timeout must stay below REDIS_TIMEOUT_S.
    # Cost: a replica round trip per append (on loopback +0.15 ms with a replica at
    # appendfsync everysec, +2 ms at always, which WAITAOF needs; docs/performance.md)
    "APPEND_REPLICAS": 0,
    "APPEND_REPLICA_AOF": False,
    "APPEND_REPLICA_TIMEOUT_MS": 1000,
    "REDIS_CONNECTIONS": 200,  # per process, shared by its requests (streams have their own)
    # seconds a Redis command (or a connect) may take before it fails as an outage (503);
    # the health check and the rate count of routes that need no Redis give up sooner
    "REDIS_TIMEOUT_S": 2,
    # versions between snapshots: each process holds the newest record of recent games
    # (events.repository), so a snapshot serves only a process that has not seen the game
    "SNAPSHOT_EVERY": repository.SNAPSHOT_EVERY,
    "MAX_BODY_BYTES": 64 * 1024,
    "MAX_BUNDLE_BYTES": 16 * 1024 * 1024,  # POST /v1/verify: whole games (~1 MB each)
    # a request's body must arrive whole within this long (s) of its start (408 after);
    # POST /v1/verify's bundle (up to MAX_BUNDLE_BYTES) within BUNDLE_TIMEOUT_S
    "BODY_TIMEOUT_S": 10,
    "BUNDLE_TIMEOUT_S": 60,
    # request bodies one caller may be sending at once, per API process: per bearer
    # token, and per address whatever the token (429 too_many_uploads past it)
    "UPLOADS_PER_TOKEN": 8,
    "UPLOADS_PER_ADDRESS": 64,
    # costly requests (POST /v1/verify, GET .../state?at=N) run in helper processes, this
    # many per API process (0: in the serving process), at most OFFLOAD_QUEUE waiting
    # per process and OFFLOAD_TIMEOUT_S each (503 overloaded past either; api.offload)
    "OFFLOAD_PROCESSES": 1,
    "OFFLOAD_QUEUE": 8,
    "OFFLOAD_TIMEOUT_S": 30,
    # waiting games one player may have created or sit in at once (409 past it), and how
    # long (s) a game may wait for its seats before a worker cancels it (service.waiting)
    "WAITING_GAMES_PER_PLAYER": 10,
    "WAITING_EXPIRE_S": 24 * 3600,
    # the shortest idle time (s) a creator may set before an untimed game may be claimed
    # (`claim_after_s`): shorter, a creator could claim a second into the joiner's turn
    "CLAIM_MIN_S": 24 * 3600,
    # how long (s) a full table waits for its seats' secrets before it starts without the
    # missing ones (docs/fairness.md, "Seats' randomness"); logged with each new game
    "SEED_REVEAL_S": 15,
    # invitations (seats held for named players, each with a note on their feed) one
    # player may send, all its tokens together, and send to one other player, per hour;
    # withdrawn ones count (429 `too_many_invitations`)
    "INVITES_PER_HOUR": 30,
    "INVITES_PER_TARGET": 3,
    "COMMAND_RETRIES": 8,
    # how long a finished game keeps its idempotency records (retries get the first
    # answer again until then; after it, a retried action meets a finished game: 409)
    "IDEM_KEEP_S": 24 * 3600,
    # the RQ queue of work that fell due (expiries, league rounds); work to do now
    # (resolutions, league results) goes to `<QUEUE>-now`, which workers take first
    # (notifications are no RQ jobs: workers.notifier, docs/notifications.md)
    "QUEUE": "marketfold",
    "SSE_HEARTBEAT_S": 15,  # a comment line this often on an idle event stream
    "SSE_MAX_S": 600,  # a stream closes after this long; clients resume with Last-Event-ID
    "STREAM_LIMIT_TOKEN": 20,  # event streams one player (all its tokens) may hold open
    "STREAM_LIMIT_ANON": 20,  # the same per address, for streams opened without a token
    "RATE_LIMIT_TOKEN": "1200/minute",  # per bearer token
    "RATE_LIMIT_ANON": "300/minute",  # per IP, for calls without a token
    # proxies in front of the API whose X-Forwarded-For (and -Proto, -Host) to believe: 0
    # (the default) reads the caller's address from the connection; 1 behind one balancer
    # (HAProxy with `option forwardfor`), so per-address limits count callers, not it
    "TRUSTED_PROXIES": 0,
    # a computer seat's strong level searches this long per decision (s), at most until its
    # deadline less COMPUTER_MARGIN_S (docs/computer-players.md)
    "COMPUTER_BUDGET_S": 1.0,
    "COMPUTER_MARGIN_S": 2.0,
    # how long a swept deadline stays claimed before another worker may take it again
    "CLAIM_S": 10,
    # how often (s) one worker looks through the active games for a ready phase that nothing
    # will resolve (a crash between an append and its scheduling: service.stalled)
    "STALLED_SWEEP_S": 60,
    # seconds between the retries of a failed job
    "RETRY_INTERVALS": [1, 5, 15],
    # no worker heartbeat, or no API heartbeat, for longer than this (s) is an outage; an
    # API not heard from for this long is down and holds every default (docs/workers.md)
    "OUTAGE_AFTER_S": 15,
    # decisions due within this long (s) after an outage, or the game's decision timeout
    # if shorter, get a fresh deadline too; the fresh deadline is that long after the end
    "OUTAGE_GRACE_S": 300,
    # how long an invitation holds its seat, and a rematch offer the former players' seats,
    # unless the creator says (s)
    "INVITATION_EXPIRES_S": 24 * 3600,
    "REMATCH_RESERVE_S": 600,
    # the service's Ed25519 signing keys (service/keyring.py), shared by every process
    "SIGNING_KEY_DIR": ".marketfold/keys",
    # the public log of games' name in its checkpoints (C2SP tlog-checkpoint origin line;
    # docs/audit.md): never change it once witnesses follow the log. Empty: the host and
    # path of PUBLIC_URL followed by /marketfold-games
    "TLOG_ORIGIN": "",
    # the witnesses whose cosignatures the server accepts and serves with its checkpoints:
    # C2SP verifier keys `<name>+<key id>+<key>` (`marketfold witness --vkey` prints one),
    # a JSON list or comma-separated
    "WITNESS_KEYS": [],
    # player ids allowed to create leagues: a JSON list or "p_a,p_b"
    "OPERATORS": [],
    # web pages on other origins allowed to call /v1 from a browser (CORS): a JSON list or
    # "https://a.example,https://b.example"; none by default (docs/clients.md)
    "CORS_ORIGINS": [],
    # who may read GET /metrics: a caller presenting this bearer token; with none set,
    # callers on this machine only (loopback), since the figures tell when games move
    "METRICS_TOKEN": "",
    # how every process logs: "text" lines or "json" objects (cli/logs.py)
    "LOG_FORMAT": "text",
    "ACCESS_LOG": True,  # a line per request (api/access.py); false for a benchmark
    # outbound HTTP to addresses players give (webhooks, push endpoints; service/notify/
    # outbound.py): address ranges allowed although not public, a CIDR list such as
    # "10.0.0.0/8,fd00::/8" (none by default: loopback, private, link-local, metadata...
    # are refused); the deadline (s) of one whole request, and the answer bytes read
    "OUTBOUND_ALLOW": [],
    "OUTBOUND_TIMEOUT_S": 5,
    "OUTBOUND_MAX_BYTES": 64 * 1024,
    # a webhook is disabled after this many failed delivery attempts in a row
    "WEBHOOK_DISABLE_AFTER": 20,
    # Web Push: the VAPID key pair (RFC 8292), made once and kept in this directory
    # (`marketfold serve` puts it in its data directory), and the contact push services
    # see in its tokens (a mailto: or https: URL of the operator)
    "VAPID_KEY_DIR": ".marketfold/vapid",
    "VAPID_SUBJECT": "mailto:operator@marketfold.invalid",
    # --- notifications (docs/notifications.md)
    # the service's address as players reach it: links in e-mails (the table, unsubscribe,
    # verification) start with it
    "PUBLIC_URL": "http://127.0.0.1:8000",
    # the SMTP server e-mail goes through: smtp://[user:password@]host[:port][?starttls=1]
    # or smtps://... (TLS from the start); unset: no e-mail. SMTP_FROM is the sender
    "SMTP_URL": None,
    "SMTP_FROM": "marketfold <notifications@marketfold.invalid>",
    "SMTP_STARTTLS": False,
    "SMTP_CA_FILE": None,  # a PEM file of the authorities for its certificate (else the system's)
    "SMTP_TIMEOUT_S": 10,  # connect and each reply: a stalled server does not hold a worker
    # a turn notification goes out by e-mail, push or webhook only if the player has not
    # seen it live this long after it (at most half the decision's time left)
    "NOTIFY_LIVE_DELAY_S": 60,
    # seconds before each retry of a delivery that failed for a passing reason; then given up
    "NOTIFY_RETRY_S": [10, 60, 300, 1800, 7200],
    # threads per worker that plan and send notifications (workers.notifier): a delivery
    # mostly waits on the SMTP server or the webhook's receiver
    "NOTIFY_THREADS": 4,
    # the niceness of those threads (0-19): on a busy machine the moves, the games' jobs
    # and Redis get the CPU first, and the messages take what is left (they wait seconds
    # without harm; a move should not wait at all)
    "NOTIFY_NICE": 10,
}
PREFIX = "MARKETFOLD_"


def _parse(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def raw(environ: Mapping[str, str], key: str) -> str:
    """A setting's text in `environ` as `load` reads it (`MARKETFOLD_<key>` wins over
    `<key>`), or "" if neither is set: for the launchers that read a setting before the
    service runs (cli.serve, cli.backup)."""
    return environ.get(PREFIX + key) or environ.get(key) or ""


def load(environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """Return DEFAULTS overridden by `KEY` or `MARKETFOLD_KEY` variables."""
    settings: dict[str, Any] = {}
    for key in DEFAULTS:
        for name in (key, PREFIX + key):
            if name in environ:
                settings[key] = _parse(environ[name])
    return resolve(settings)


def resolve(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Return DEFAULTS overridden by `settings` (values, not text), with the settings that
    follow from others filled in; the environment is not read."""
    out = {**DEFAULTS, **settings}
    if is_cluster(out["REDIS_URL"]) and not out["RQ_REDIS_URL"]:
        raise ValueError("REDIS_URL is a cluster: set RQ_REDIS_URL to a plain Redis for the queues")
    out["RQ_REDIS_URL"] = out["RQ_REDIS_URL"] or out["REDIS_URL"]
    out.update(replication(out))
    out["OPERATORS"] = operators(out)
    out["CORS_ORIGINS"] = origins(out)
    out["OUTBOUND_ALLOW"] = outbound_allow(out)
    out["WITNESS_KEYS"] = witness_keys(out)
    out["TLOG_ORIGIN"] = out["TLOG_ORIGIN"] or tlog_origin(out["PUBLIC_URL"])
    return out


def tlog_origin(public_url: str) -> str:
    """The log's default origin line: PUBLIC_URL without its scheme, + /marketfold-games."""
    bare = str(public_url).split("://", 1)[-1].rstrip("/")
    return f"{bare}/marketfold-games"


def is_cluster(url: str) -> bool:
    """Return True for a `redis+cluster://host:port[,host:port...]` URL."""
    return url.startswith(CLUSTER_SCHEME)


def replication(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """Return the APPEND_REPLICA* settings checked: a count of replicas (0 or more), a
    yes/no, and a timeout in ms above 0 and below REDIS_TIMEOUT_S (the socket would give
    up first, an outage instead of an answer)."""
    try:
        replicas = int(cfg["APPEND_REPLICAS"])
        timeout_ms = int(cfg["APPEND_REPLICA_TIMEOUT_MS"])
    except (TypeError, ValueError):
        raise ValueError("APPEND_REPLICAS and APPEND_REPLICA_TIMEOUT_MS must be integers") from None
    aof = cfg["APPEND_REPLICA_AOF"]
    if isinstance(aof, str):
        aof = aof.strip().lower() in ("1", "true", "yes", "on")
    if replicas < 0:
        raise ValueError("APPEND_REPLICAS must be 0 (off) or more")
    if replicas and not 0 < timeout_ms < float(cfg["REDIS_TIMEOUT_S"]) * 1000:
        raise ValueError(
            "APPEND_REPLICA_TIMEOUT_MS must be above 0 and below REDIS_TIMEOUT_S "
            f"({cfg['REDIS_TIMEOUT_S']} s): raise REDIS_TIMEOUT_S for a longer wait"
        )
    return {
        "APPEND_REPLICAS": replicas,
        "APPEND_REPLICA_AOF": bool(aof),
        "APPEND_REPLICA_TIMEOUT_MS": timeout_ms,
    }


def is_sentinel(url: str) -> bool:
    """Return True for a `redis+sentinel://host:port[,host:port...]/SERVICE[/DB]` URL."""
    return url.startswith(SENTINEL_SCHEME)


def operators(cfg: Mapping[str, Any]) -> list[str]:
    """Return the configured operators' player ids (a list, or a comma-separated string)."""
    value = cfg.get("OPERATORS") or []
    if isinstance(value, str):
        value = value.split(",")
    return [str(v).strip() for v in value if str(v).strip()]


def witness_keys(cfg: Mapping[str, Any]) -> list[str]:
    """Return the witnesses' verifier keys (a list, or a comma-separated string); raise
    ValueError on one that is not a C2SP cosignature verifier key."""
    from events import note

    value = cfg.get("WITNESS_KEYS") or []
    if isinstance(value, str):
        value = value.split(",")
    out = [str(v).strip() for v in value if str(v).strip()]
    for text in out:
        try:
            kind = note.parse_vkey(text).kind
        except ValueError as e:
            raise ValueError(f"WITNESS_KEYS: {e}") from e
        if kind != note.COSIGNATURE:
            raise ValueError(f"WITNESS_KEYS: {text[:40]}... is not a cosignature key (type 0x04)")
    return out


def origins(cfg: Mapping[str, Any]) -> list[str]:
    """Return the origins allowed to call the API from a browser (a list, or a
    comma-separated string); "*" allows any origin."""
    value = cfg.get("CORS_ORIGINS") or []
    if isinstance(value, str):
        value = value.split(",")
    return [str(v).strip().rstrip("/") for v in value if str(v).strip()]


def outbound_allow(cfg: Mapping[str, Any]) -> list[str]:
    """Return the ranges outbound requests may reach although not public (a list, or a
    comma-separated string of CIDR ranges); raise ValueError on one that is not a range."""
    value = cfg.get("OUTBOUND_ALLOW") or []
    if isinstance(value, str):
        value = value.split(",")
    ranges = [str(v).strip() for v in value if str(v).strip()]
    for cidr in ranges:
        try:
            ipaddress.ip_network(cidr, strict=False)
        except ValueError as e:
            raise ValueError(f"OUTBOUND_ALLOW: {cidr!r} is not an address range: {e}") from None
    return ranges
