"""Every Redis key the project uses, built in one place from one prefix.

Keys of one game share the hash tag `{g:<id>}` (a league's `{l:<id>}`) so one script
touches one cluster slot. The keys of one part with many of its own sit beside this
module: the notifications' in events/notify_keys.py, the public log's in
events/tlog_keys.py (both from this PREFIX).
"""

from __future__ import annotations

PREFIX = "mf"


def game_events(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:events"


def game_private(game_id: str) -> str:
    """The stream of a game's private steps (Black Market wild-trade offers, declines,
    withdrawals): never read for a viewer while the game runs (docs/architecture.md)."""
    return f"{PREFIX}:{{g:{game_id}}}:private"


def game_snapshot(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:snapshot"


def game_idem(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:idem"


def game_refused(game_id: str) -> str:
    """The newest attempts of a game's seated players that the server refused (a late
    move among them), kept for disputes (service.attempts); not part of the game's log."""
    return f"{PREFIX}:{{g:{game_id}}}:refused"


def game_seed(game_id: str) -> str:
    return f"{PREFIX}:{{g:{game_id}}}:seed"


def games() -> str:
    return f"{PREFIX}:games"


def player(player_id: str) -> str:
    return f"{PREFIX}:player:{player_id}"


def token(token_hash: str) -> str:
    return f"{PREFIX}:token:{token_hash}"


def deadlines() -> str:
    return f"{PREFIX}:deadlines"


def notify_due(turns: bool = False) -> str:
    """The notification steps due (service.notify.dispatch, run by workers.notifier): those
    of decisions owed (`turns`), taken first, and the others."""
    # in the deadline index's slot (its name as hash tag): a cluster then has one master
    # that every append's global writes need, not three (tests/reliability/test_cluster.py)
    return f"{PREFIX}:notify:{'turns' if turns else 'due'}:{{{deadlines()}}}"


def league_events(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:events"


def league_idem(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:idem"


def league_seat_seeds(league_id: str) -> str:
    """Each member's commitment the league seats it with (service.league_seeds), by id."""
    return f"{PREFIX}:{{l:{league_id}}}:seat-seeds"


def league_snapshot(league_id: str) -> str:
    return f"{PREFIX}:{{l:{league_id}}}:snapshot"


def data_format() -> str:
    """The stored data's format (service.data_format)."""
    return f"{PREFIX}:format"


def leagues() -> str:
    return f"{PREFIX}:leagues"


def player_games(player_id: str) -> str:
    """A player's games not yet finished (sorted by when they took the seat)."""
    return f"{PREFIX}:player:{player_id}:games"


def player_feed(player_id: str) -> str:
    """A player's notifications: your turn, game started, game finished."""
    return f"{PREFIX}:player:{player_id}:feed"


def rate_limits() -> str:
    """The prefix of the rate limiter's counters."""
    return f"{PREFIX}:rate"


def rate(caller: str) -> str:
    """The rate limiter's counter of a caller (`token:<sha256>` or `ip:<address>`)."""
    return f"{rate_limits()}:{caller}"


def open_streams(caller: str) -> str:
    """The event streams a caller holds open now (`player:<id>` or `ip:<address>`)."""
    return f"{PREFIX}:streams:{caller}"


def player_tokens(player_id: str) -> str:
    """A player's tokens (hash: token id -> {created, hash}); the secrets are never kept."""
    return f"{PREFIX}:player:{player_id}:tokens"


def player_tokens_used(player_id: str) -> str:
    """When each of a player's tokens was last used (hash: token id -> ISO time)."""
    return f"{PREFIX}:player:{player_id}:tokens:used"


def player_created(player_id: str) -> str:
    """Games a player created that may still be waiting (sorted by creation; pruned as read
    by service.waiting)."""
    return f"{PREFIX}:player:{player_id}:created"


def player_history(player_id: str) -> str:
    """Every game a player holds or held a seat in (sorted by the game's creation)."""
    return f"{PREFIX}:player:{player_id}:history"


def player_played(player_id: str) -> str:
    """How many games a player finished, per ruleset (hash: ruleset -> count)."""
    return f"{PREFIX}:player:{player_id}:played"


def lobby(status: str) -> str:
    """Games by status (`waiting`, `active`, `finished`), sorted by creation. The lobby's
    keys share the hash tag `{lobby}`, so its index script touches one slot."""
    return f"{PREFIX}:{{lobby}}:{status}"


def lobby_ruleset(ruleset: str) -> str:
    """Games of one ruleset, sorted by creation."""
    return f"{PREFIX}:{{lobby}}:ruleset:{ruleset}"


def lobby_cursor_key() -> str:
    """The secret (32 random bytes) that seals the lobby's `next` cursors."""
    return f"{PREFIX}:{{lobby}}:cursor_key"


def lobby_summaries() -> str:
    """Each listed game's summary (hash: game id -> JSON with its version)."""
    return f"{PREFIX}:{{lobby}}:summaries"


def game_chat_hidden(game_id: str) -> str:
    """The game's chat messages an operator hid: {message id: {by, reason, at}}."""
    return f"{PREFIX}:{{g:{game_id}}}:chat:hidden"


def reports() -> str:
    """Players' reports of players and chat messages (a stream; service.moderation)."""
    return f"{PREFIX}:reports"


def reports_closed() -> str:
    """Closed reports: {report id: {by, note, at}}."""
    return f"{PREFIX}:reports:closed"


def player_moderation(player_id: str) -> str:
    """What operators set against a player: `muted`, `banned` ({by, reason, at})."""
    return f"{PREFIX}:player:{player_id}:moderation"


def game_chat(game_id: str) -> str:
    """A game's table chat (a stream, apart from its log)."""
    return f"{PREFIX}:{{g:{game_id}}}:chat"


def game_chat_rate(game_id: str, player_id: str) -> str:
    """How many chat messages a player sent in a game in the current window."""
    return f"{PREFIX}:{{g:{game_id}}}:chat:rate:{player_id}"


def game_rematch(game_id: str) -> str:
    """The id of a finished game's rematch, once someone asked for it."""
    return f"{PREFIX}:{{g:{game_id}}}:rematch"


def heartbeat() -> str:
    """When a worker last swept (a Unix time): a gap longer than OUTAGE_AFTER_S is an outage.
    It shares the hash tag `{workers}` with `outages`: one script writes both."""
    return f"{PREFIX}:{{workers}}:heartbeat"


def stalled_sweep() -> str:
    """Held (with a time to live) by the worker whose turn it is to sweep the active games
    for ready phases nobody will resolve (service.stalled)."""
    return f"{PREFIX}:{{workers}}:stalled-sweep"


def api_heartbeat() -> str:
    """When an API process last beat (a Unix time): a gap longer than OUTAGE_AFTER_S is an
    outage too. Same hash tag `{workers}`: the same script writes it and `outages`."""
    return f"{PREFIX}:{{workers}}:api-heartbeat"


def outages() -> str:
    """The outages seen (sorted set, member `<start>:<end>`, scored by the end)."""
    return f"{PREFIX}:{{workers}}:outages"


def handle(folded: str) -> str:
    """The player who holds a handle (its case-folded form -> player id)."""
    return f"{PREFIX}:handle:{folded}"


def computer_secrets(game_id: str) -> str:
    """The secrets the server's computer seats committed to, by player id (hex; public
    once revealed: docs/fairness.md); beside the game's seed, in its hash slot."""
    return f"{PREFIX}:{{g:{game_id}}}:computer-secrets"


def game_secret(game_id: str) -> str:
    """An unlisted game's invitation secret (never in its log)."""
    return f"{PREFIX}:{{g:{game_id}}}:secret"


def player_invitations(player_id: str) -> str:
    """The waiting games that hold a seat for a player (sorted by when it was reserved)."""
    return f"{PREFIX}:player:{player_id}:invitations"


def invitations_sent(player_id: str) -> str:
    """How many invitations a player sent in the current window (service.tables)."""
    return f"{PREFIX}:player:{player_id}:invitations_sent"


def invitations_sent_to(player_id: str, target: str) -> str:
    """How many invitations a player sent one other player in the current window."""
    return f"{PREFIX}:player:{player_id}:invitations_sent:{target}"


def role(name: str) -> str:
    """The set of player ids granted role `name` (operator, organizer) in the store."""
    return f"{PREFIX}:role:{name}"


def role_log() -> str:
    """The stream of role grants and revocations: who, what, by whom, when."""
    return f"{PREFIX}:roles:log"
