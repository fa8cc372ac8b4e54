"""The service's composition in memory, for the unit tier: the games' repository on
events.memory_recorder, every storage port on its in-memory twin (stores/memory/; the
stream hub reads the streams the recorder, the chat and the inboxes write), and a
scheduler that lists what it is asked. No Redis, no process: `boot.redis` is None, so a
use case that still reads the client fails here (tests/test_storage_port.py lists those)."""

from __future__ import annotations

from typing import Any

from events import keys, scripts
from events.memory_recorder import MemoryRecorder
from events.memory_tlog import MemoryPublicLog
from events.recording import Guard
from events.repository import GameRepository
from service import config
from service.bootstrap import Bootstrap
from service.ports import RESERVATIONS, SEAT_SEEDS
from stores.memory.attempts import MemoryAttempts
from stores.memory.chat import MemoryChat
from stores.memory.checkpoints import MemoryCheckpoints
from stores.memory.computer_seats import MemoryComputerSeats
from stores.memory.hub import MemoryHub
from stores.memory.inbox import MemoryInbox
from stores.memory.key_history import MemoryKeyHistory
from stores.memory.leagues import MemoryLeagues
from stores.memory.limits import MemoryLimits
from stores.memory.link_key import MemoryLinkKey
from stores.memory.lobby import MemoryLobby
from stores.memory.moderation import MemoryModeration
from stores.memory.notify_outbox import MemoryNotifyOutbox
from stores.memory.notify_prefs import MemoryNotifyPrefs
from stores.memory.operations import MemoryOperations
from stores.memory.players import MemoryPlayers
from stores.memory.push import MemoryPush
from stores.memory.recipients import MemoryRecipients
from stores.memory.roles import MemoryRoles
from stores.memory.sorted_sets import SortedSets
from stores.memory.stream_slots import MemoryStreamSlots
from stores.memory.tables import MemoryTables
from stores.memory.tokens import MemoryTokens
from stores.memory.webhooks import MemoryWebhooks

# what each Scheduler call puts in the deadline index: its job, and its key (None: the
# call's own key argument)
INDEXED = {
    "expiry": ("expire", None),
    "resolution": ("resolve", None),
    "computer_turn": ("computer", None),
    "lapse": ("lapse", None),
    "release": ("release", RESERVATIONS),
    "reveals_close": ("reveals", SEAT_SEEDS),
    "league_round": ("round", None),
    "league_result": ("league_result", None),
}


class ListedScheduler:
    """The Scheduler port (service.ports), listing what it was asked; `pending` and
    `waited_on` read what workers.scheduler's deadline index would hold after it."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []

    def expiry(self, game_id: str, key: str, deadline: str, pipe: Any = None) -> None:
        self.asked.append(("expiry", game_id, key, deadline))

    def resolution(self, game_id: str, key: str) -> None:
        self.asked.append(("resolution", game_id, key))

    def computer_turn(self, game_id: str, key: str, pipe: Any = None, now: bool = False) -> None:
        self.asked.append(("computer_turn", game_id, key))

    def lapse(self, game_id: str, key: str, when: float) -> None:
        self.asked.append(("lapse", game_id, key, when))

    def release(self, game_id: str, until: str) -> None:
        self.asked.append(("release", game_id, until))

    def reveals_close(self, game_id: str, when: str, pipe: Any = None) -> None:
        self.asked.append(("reveals_close", game_id, when))

    def index(self) -> set[tuple[str, str, str]]:
        """The (job, subject, key) members the deadline index holds after what was asked,
        named as workers.scheduler names them; `done` takes one off."""
        held: set[tuple[str, str, str]] = set()
        for kind, *args in self.asked:
            if kind == "later":
                held.add((args[0], args[1], args[2]))
            elif kind == "done":
                held.discard((args[0], args[1], args[2]))
            elif kind in INDEXED:
                job, key = INDEXED[kind]
                held.add((job, args[0], str(args[1]) if key is None else key))
        return held

    def pending(self, job: str, subject: str, key: str) -> bool:
        return (job, subject, key) in self.index()

    def waited_on(self) -> set[str]:
        return {subject for job, subject, _ in self.index() if job in ("expire", "resolve")}

    def league_round(self, league_id: str, number: int, when: float) -> None:
        self.asked.append(("league_round", league_id, number))

    def league_result(self, league_id: str, game_id: str) -> None:
        self.asked.append(("league_result", league_id, game_id))

    def later(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        self.asked.append(("later", job, subject, key))

    def health(self, now: float) -> dict[str, Any]:
        return {"workers": 0, "queues": {}, "overdue_s": 0}

    def done(self, job: str, subject: str, key: str, pipe: Any = None) -> None:
        self.asked.append(("done", job, subject, key))


def memory_boot(**overrides: Any) -> Bootstrap:
    """Return a Bootstrap on in-memory ports; `overrides` replace any of its fields."""
    tokens = MemoryTokens()

    def admitted(guard: Guard) -> tuple[bool, list[Any]] | None:
        """scripts.APPEND_ADMITTED's own checks and count (service.admission) on the twins:
        the caller's token record unchanged, then the call counted on its counter."""
        if guard.script != scripts.APPEND_ADMITTED:
            return None
        token_key, counter = guard.keys()
        record, window_ms, most = guard.args()
        if tokens.record(token_key.removeprefix(keys.token(""))) != record:
            return None
        calls, left_ms = limits.count(counter, int(window_ms) // 1000)
        return calls <= int(most), [calls, left_ms]

    recorder = MemoryRecorder(guard=admitted)
    players = MemoryPlayers(tokens, follow=recorder.writes)  # the games each finished
    inbox, prefs = MemoryInbox(follow=recorder.writes), MemoryNotifyPrefs()
    outbox = MemoryNotifyOutbox(follow=recorder.writes)  # the plans staged with the notes
    games = GameRepository(recorder)
    indexes = SortedSets(follow=recorder.writes)  # the players' indexes the appends write
    lobby = MemoryLobby(indexes)
    chat = MemoryChat()
    slots = MemoryStreamSlots(lambda digest: tokens.record(digest) is not None)
    limits = MemoryLimits(games, token_record=tokens.record)
    parts: dict[str, Any] = {
        "config": dict(config.DEFAULTS),
        "redis": None,
        "store": games,
        "scheduler": ListedScheduler(),
        "hub": MemoryHub(recorder.stream, chat.stream, inbox.stream),  # the streams they write
        "tlog": MemoryPublicLog(recorder.writes),
        "webhooks": MemoryWebhooks(),
        "push": MemoryPush(),
        "link_key": MemoryLinkKey(),
        "players": players,
        "tokens": tokens,
        "roles": MemoryRoles(),
        "moderation": MemoryModeration(),
        "chat": chat,
        "inbox": inbox,
        "notify_prefs": prefs,
        "notify_outbox": outbox,
        "recipients": MemoryRecipients(inbox, prefs, outbox, live=slots.held),
        "operations": MemoryOperations(listed=lambda status: len(lobby.sets.ascending(status))),
        "leagues": MemoryLeagues(recorder),
        "checkpoints": MemoryCheckpoints(),
        "key_history": MemoryKeyHistory(),
        "lobby": lobby,
        "tables": MemoryTables(indexes),
        "limits": limits,
        "attempts": MemoryAttempts(),
        "computer_seats": MemoryComputerSeats(players.records),
        "stream_slots": slots,
    }
    return Bootstrap(**{**parts, **overrides})
