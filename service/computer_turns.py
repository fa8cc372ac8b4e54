"""Computer seats: seating them, and the move a worker makes for one when it owes a
decision (docs/computer-players.md).

A computer seat is a player like any other (a player record marked `computer`, its
level logged in its `game.PlayerJoined`, with its commitment: service.computer_seeds),
and its moves are actions through
`game_commands.act`, the command loop people's moves go through: the same checks, the
same events, the same deadlines. When an append leaves a computer seat owing a decision,
`computer|<game>|<seat>-<key>` is due at once in the deadline index (service.game_log);
a worker's sweep enqueues `workers.jobs.computer_turn`, which calls `play`. The decision
is taken from what the seat may know only: its legal actions, and for the strong level
states sampled by `computer.samplers` (the hidden cards dealt again at random). The
search's budget (`COMPUTER_BUDGET_S`) is cut to the time left before the decision's
deadline, less `COMPUTER_MARGIN_S`; a search that fails or overruns gives way to the
quick level, and if the worker itself dies the deadline applies the default as for
anyone.
"""

from __future__ import annotations

import logging
import random
import time
from typing import TYPE_CHECKING, Any

import computer
from events import codec
from events.record import ACTIVE, WAITING, Record
from events.refusals import StaleVersion
from games.base import RuleViolation
from service import computer_seeds, game_commands
from service.errors import Conflict, DomainError, Forbidden, Invalid
from service.game_log import computer_reveals, load
from service.players import new_id
from service.ports import SEAT_SEEDS, Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

logger = logging.getLogger(__name__)
LEVELS = computer.LEVELS
# the computer players' names, one per seat of a table (a level is shown beside it)
NAMES = ("Ada", "Boole", "Cray", "Dijkstra", "Euler", "Floyd", "Gauss", "Hopper")


def free_seats(rec: Record) -> int:
    """Return how many seats of a waiting game nobody holds or has reserved."""
    return rec.players - len(rec.seats) - len(rec.reserved())


def check(level: str, seats: int | None, free: int, people: int, waiting: bool = False) -> int:
    """Return how many computer seats to add (`seats`, or every `free` one), or refuse:
    an unknown level, fewer than one seat, more than are free, or a table left with no
    seat for a person (`people`: the seats people hold or are promised). A new game's
    request is refused as invalid (422, `invalid_body`); a waiting game's (`waiting`) by
    its state (409: `no_free_seat`, `no_person_seated`)."""
    if level not in LEVELS:
        why = f"must be one of {list(LEVELS)}"
        raise Invalid("invalid_body", f"no computer level {level!r}", {"computer.level": [why]})

    def refuse(code: str, detail: str, why: str) -> DomainError:
        field = {"computer.seats" if not waiting else "seats": [why]}
        return Conflict(code, detail, field) if waiting else Invalid("invalid_body", detail, field)

    count = free if seats is None else seats
    if count < 1:
        why = "no free seat to give a computer player" if seats is None else "must be at least 1"
        raise refuse("no_free_seat", why, why)
    if count > free:
        why = f"at most {free} (the seats nobody holds or is invited to)"
        raise refuse("no_free_seat", "more computer seats than free seats", why)
    if people < 1:
        why = (
            "a person must hold or be invited to a seat: join, invite someone, or leave a seat free"
        )
        raise refuse("no_person_seated", "a table of computer players only", why)
    return count


def check_new(players: int, table: dict[str, Any], invited: int) -> int | None:
    """Check the `computer` member of a game's creation (`invited`: the seats held for
    players, the creator's own included when it joins) before anything is written;
    return how many computer seats to add (None: none asked)."""
    asked = table.get("computer")
    if not asked:
        return None
    free = players - max(invited, 1 if table.get("join") else 0)
    leaves = free - (asked.get("seats") if asked.get("seats") is not None else free)
    people = max(invited, 1 if table.get("join") else 0) + max(leaves, 0)
    return check(asked["level"], asked.get("seats"), free, people)


def seat(boot: Bootstrap, game_id: str, level: str, count: int) -> Record:
    """Seat `count` computer players of `level` in a waiting game, each a new player
    record marked `computer` that commits to a secret (service.computer_seeds); the last
    seat to fill starts the game, or opens the reveals, where the computer seats reveal at
    once. A seat taken by a person meanwhile stops the filling there."""
    rec = load(boot, game_id)
    for _ in range(count):
        taken = {s.name for s in rec.seats}
        name = next((n for n in NAMES if n not in taken), f"Computer {len(rec.seats) + 1}")
        player = {"id": new_id("p_"), "name": name}
        boot.computer_seats.add_player(player["id"], name, codec.now_iso(), level)
        try:
            given = computer_seeds.commit(boot, game_id, player["id"])
            rec = game_commands.join(boot, game_id, player, computer=level, commitment=given).record
        except RuleViolation as full:  # a person took the last free seat meanwhile
            logger.info("game %s: no seat for a computer player (%s)", game_id, full.code)
            rec = load(boot, game_id)  # with the person's seat: the table may have filled
            break
    for turn in computer_reveals(rec):  # the table filled: reveal now, not after a sweep
        computer_seeds.reveal(boot, game_id, int(turn.split("-", 1)[0]))
    return load(boot, game_id) if computer_reveals(rec) else rec


def fill(boot: Bootstrap, game_id: str, caller: str, level: str, seats: int | None) -> Record:
    """Give free seats of a waiting game to computer players, for its creator only."""
    rec = load(boot, game_id)
    if rec.creator != caller:
        raise Forbidden("not_creator", "only the game's creator may seat computer players")
    if rec.status != WAITING:
        raise Conflict("game_not_waiting", f"the game is {rec.status}")
    if rec.league:
        raise Conflict("league_game", "a league's table is seated by the league")
    free = free_seats(rec)
    people = len([s for s in rec.seats if not s.computer]) + len(rec.reserved())
    left = free - (free if seats is None else seats)
    count = check(level, seats, free, people + max(left, 0), waiting=True)
    return seat(boot, game_id, level, count)


def budget(boot: Bootstrap, rec: Record, key: str, now: float) -> float:
    """Return the search budget of decision `key`: COMPUTER_BUDGET_S, cut to the time left
    before its deadline less COMPUTER_MARGIN_S (0: the quick level answers)."""
    most = float(boot.config["COMPUTER_BUDGET_S"])
    deadline = rec.deadline(key)
    if deadline is None:
        return most
    left = codec.parse_time(deadline).timestamp() - now - float(boot.config["COMPUTER_MARGIN_S"])
    return max(0.0, min(most, left))


def owes(rec: Record, seat: int, key: str) -> bool:
    """Return True while computer seat `seat` owes decision `key`."""
    return rec.status == ACTIVE and any(o.seat == seat and o.key == key for o in rec.owed())


def play(boot: Bootstrap, game_id: str, turn: str) -> Status:
    """Make the decision `turn` (`<seat>-<decision key>`) for its computer seat: APPLIED,
    NOOP when it is no longer owed, EARLY (due again at once) when the game moved on
    while the seat was deciding and it still owes a decision."""
    where, _, key = turn.partition("-")
    if not where.isdigit():
        return Status.NOOP
    if key == SEAT_SEEDS:  # the reveals are open: the seat's secret (service.computer_seeds)
        return computer_seeds.reveal(boot, game_id, int(where))
    rec = boot.store.load(game_id).record
    seat_no = int(where)
    level = rec.computer(seat_no)
    if not level or not owes(rec, seat_no, key):
        return Status.NOOP
    game = rec.game
    specs = game.legal(rec.state, seat_no)
    if not specs:
        return Status.NOOP
    state, rng = rec.state, random.Random()
    spent = time.perf_counter()

    def draw(r: random.Random) -> Any:  # the search's only way to a whole state
        return computer.sample(game.id, state, seat_no, r)

    limit = budget(boot, rec, key, time.time())
    action, by = computer.decide(
        level if limit > 0 else "quick", game, seat_no, specs, draw, limit, rng
    )
    player = next(s.player for s in rec.seats if s.seat == seat_no)
    logger.info(
        "game %s: computer seat %s (%s) decided %s in %.2f s",
        game_id,
        seat_no,
        by,
        action.get("type"),
        time.perf_counter() - spent,
    )
    try:
        game_commands.act(
            boot, game_id, player, action, f"computer-{turn}-{rec.version}", rec.version
        )
    except (RuleViolation, StaleVersion, DomainError) as refused:
        if owes(boot.store.load(game_id).record, seat_no, key):
            logger.info("game %s: computer move refused (%s); deciding again", game_id, refused)
            boot.scheduler.computer_turn(game_id, turn)
            return Status.EARLY
        return Status.NOOP
    return Status.APPLIED
