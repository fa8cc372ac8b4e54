"""Who sits at a table before it starts: private games, invitations and their answers.

A game's table terms are one event written with its creation (`game.Terms`): whether it
is unlisted (kept out of the lobby), the seats held for named players (an invitation, or
a rematch offer to the former players), when those reservations lapse and whether the
game then opens to the lobby, and an untimed game's idle time before a claim. Answers
are events too (`game.PlayerJoined` accepts, `game.InvitationDeclined`, and the worker's
`game.ReservationsLapsed` at `reserved_until`), so an audit replays every one.

An unlisted game's open seats (those not held for anyone) are taken with its secret, the
one an invitation link carries; it is kept beside the log (stores.tables), never in it,
and shown only to the game's creator.
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import TYPE_CHECKING, Any

from events import codec, decide, keys, seating
from events.record import WAITING, Record
from games.rng import Rng
from service import game_commands, limits, loop
from service.errors import Forbidden, Invalid, TooFast
from service.game_log import GameLog, load
from service.loop import Outcome
from service.players import resolve
from service.ports import RESERVATIONS, Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

LAPSE_KEY = RESERVATIONS  # the key of a game's reservations lapsing (Scheduler.release)


def terms(
    boot: Bootstrap,
    players: int,
    creator: dict[str, str],
    options: dict[str, Any],
    rematch_of: str | None = None,
    former: list[dict[str, str]] | None = None,
) -> dict[str, Any] | None:
    """Return the `game.Terms` data of a new game from the creator's `options`
    (`unlisted`, `invite`, `join`, `reserve_s`, `open_when_lapsed`, `claim_after_s`), or
    None when every term is the default (nothing more is logged). `former`: the players a
    rematch holds seats for."""
    invited = former if former is not None else resolve(boot, options.get("invite") or [], "invite")
    if options.get("join") and all(p["id"] != creator["id"] for p in invited):
        invited = [{"id": creator["id"], "name": creator["name"]}, *invited]
    ids = [p["id"] for p in invited]
    if len(set(ids)) != len(ids):
        raise Invalid("invalid_body", "a player is invited twice", errors={"invite": ["twice"]})
    if len(ids) > players:
        why = f"at most {players} players (the game's seats, the creator's own included)"
        raise Invalid("invalid_body", "more invitations than seats", errors={"invite": [why]})
    unlisted = bool(options.get("unlisted"))
    claim = options.get("claim_after_s")
    if claim is not None and claim < (least := int(boot.config["CLAIM_MIN_S"])):
        why = f"at least {least} s (the server's CLAIM_MIN_S), so no joiner is claimed on at once"
        raise Invalid("invalid_body", "claim_after_s is too short", errors={"claim_after_s": [why]})
    if not (unlisted or invited or claim):
        return None
    default = "REMATCH_RESERVE_S" if rematch_of else "INVITATION_EXPIRES_S"
    reserve_s = options.get("reserve_s") or int(boot.config[default])
    until = codec.iso(time.time() + reserve_s)
    return {
        "unlisted": unlisted,
        "reserved": [{"player": p["id"], "name": p["name"]} for p in invited],
        "reserved_until": until if invited else None,
        "open_when_lapsed": bool(options.get("open_when_lapsed")),
        "rematch_of": rematch_of,
        "claim_after_s": claim,
    }


def create(
    boot: Bootstrap,
    creator: dict[str, str],
    ruleset: str,
    players: int,
    game_options: dict[str, Any],
    timeout: int | None,
    table: dict[str, Any],
    rematch_of: str | None = None,
    former: list[dict[str, str]] | None = None,
) -> tuple[Record, str | None]:
    """Create a game with its table terms; seat the creator if it asked to play (`join`);
    return its record and its secret (unlisted games only)."""
    logged = terms(boot, players, creator, table, rematch_of, former)
    if logged and former is None:  # a rematch holds seats for the game's own players
        _count_invitations(boot, creator["id"], [r["player"] for r in logged["reserved"]])
    done = game_commands.create_game(
        boot, creator["id"], ruleset, players, game_options, timeout, terms=logged
    )
    rec, secret = done.record, None
    if rec.unlisted:
        secret = secrets.token_urlsafe(18)
        secret = boot.tables.keep_secret(rec.game_id, secret)
    if rec.reserved_until:
        boot.scheduler.release(rec.game_id, rec.reserved_until)
    if table.get("join") or (former and creator["id"] in rec.reserved()):
        given = table.get("seat_commitment")
        rec = game_commands.join(boot, rec.game_id, creator, commitment=given).record
    return rec, secret


def _count_invitations(boot: Bootstrap, sender: str, invited: list[str]) -> None:
    """Count the invitations a new game sends (the creator's own seat is none), against
    the sender's hourly budget (`INVITES_PER_HOUR`, all its tokens together) and its
    budget for each invitee (`INVITES_PER_TARGET`): past either, 429
    `too_many_invitations` and no game. Each invitation is a note on its invitee's feed,
    so this bounds the notes one player can send another, too (#49.5)."""
    cfg = boot.config
    for target in (p for p in invited if p != sender):
        for counter, most, whom in (
            (keys.invitations_sent(sender), int(cfg["INVITES_PER_HOUR"]), ""),
            (
                keys.invitations_sent_to(sender, target),
                int(cfg["INVITES_PER_TARGET"]),
                " to one player",
            ),
        ):
            counted = limits.count(boot, counter, (most, 3600))
            if counted is not None and counted.over:
                raise TooFast(
                    "too_many_invitations",
                    f"at most {most} invitations an hour{whom}",
                    retry_after=max(1, counted.reset_s),
                )


def secret(boot: Bootstrap, rec: Record, player_id: str | None) -> str | None:
    """Return an unlisted game's secret for its creator (None for anyone else)."""
    if not rec.unlisted or player_id is None or player_id != rec.creator:
        return None
    return boot.tables.secret(rec.game_id)


def join(
    boot: Bootstrap,
    game_id: str,
    player: dict[str, str],
    given: str | None,
    former: bool = False,
    commitment: str | None = None,
) -> Outcome:
    """Take a seat: one held for the caller, any open seat of a listed game, or an open
    seat of an unlisted game with its secret (the invitation link's; `former`: a former
    player taking a free seat of its game's rematch needs none; `commitment`: the seat's
    commitment to its secret, docs/fairness.md)."""
    rec = load(boot, game_id)
    if rec.status == WAITING and rec.unlisted and player["id"] not in rec.reserved() and not former:
        if rec.seat_of(player["id"]) is None and not _secret_ok(boot, game_id, given):
            raise Forbidden(
                "invitation_required",
                "this game is unlisted: join with its invitation's secret, or be invited",
            )
    return game_commands.join(boot, game_id, player, commitment=commitment)


def _secret_ok(boot: Bootstrap, game_id: str, given: str | None) -> bool:
    stored = boot.tables.secret(game_id)
    return bool(given and stored and hmac.compare_digest(stored.encode(), given.encode()))


def decline(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """Refuse an invitation (or a rematch offer): the seat held is free again."""
    load(boot, game_id)
    command = {"type": "decline", "player": player_id}

    def decide_decline(rec: Record, rng: Rng):
        return "system", seating.decline(rec, player_id)

    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_decline, cause=f"decline:{player_id}", command=command)


def lapse(boot: Bootstrap, game_id: str) -> Status:
    """Free the seats still held once the reservations run out (a worker's job at
    `reserved_until`): APPLIED, NOOP (nothing held any more), or EARLY if that time has
    not come (the job stays due)."""
    rec = boot.store.load(game_id).record
    if rec.reserved_until and codec.parse_time(rec.reserved_until).timestamp() > time.time():
        boot.scheduler.release(game_id, rec.reserved_until)
        return Status.EARLY
    done = loop.run(
        boot,
        GameLog(boot, game_id, body=LAPSE_KEY),
        lambda r, rng: ("system", seating.release(r)),
        cause=f"release-{game_id}",
        idem="system:release",
        command={"type": "release"},
    )
    return Status.APPLIED if done.created else Status.NOOP


INVITATIONS_SHOWN, INVITATIONS_READ = 100, 1000


def invitations(boot: Bootstrap, player_id: str) -> list[dict[str, Any]]:
    """Return the waiting games holding a seat for the player, each with who invited,
    when the hold lapses and the rematch it follows (if any): the newest of each sender
    first, newest first, then the rest, so that many invitations from a few senders never
    push another sender's out of the `INVITATIONS_SHOWN` listed (#49.5)."""
    out = []
    for gid in _by_sender(boot, player_id)[:INVITATIONS_SHOWN]:
        rec = boot.store.load(gid).record
        if rec.version == 0 or rec.status != WAITING or player_id not in rec.reserved():
            boot.tables.drop_invitation(player_id, gid)  # a missed removal
            continue
        out.append(invitation(rec))
    return out


def _by_sender(boot: Bootstrap, player_id: str) -> list[str]:
    """The ids of the games holding a seat for the player, newest first, with the newest
    of each sender (the game's creator, as the lobby's summary says) ahead of the rest."""
    held = boot.tables.invitations(player_id, INVITATIONS_READ)
    if not held:
        return []
    summaries = boot.lobby.summaries(held)
    first, rest, senders = [], [], set()
    for gid, summary in zip(held, summaries, strict=True):
        sender = summary.get("creator") if summary else None
        (rest if sender in senders else first).append(gid)
        senders.add(sender)
    return first + rest


def invitation(rec: Record) -> dict[str, Any]:
    """Return what an invitation shows of its game."""
    return {
        "game": rec.game_id,
        "ruleset": rec.ruleset,
        "players": rec.players,
        "options": rec.options,
        "decision_timeout_s": rec.decision_timeout_s,
        "creator": rec.creator,
        "seats_taken": len(rec.seats),
        "invited": invited(rec),
        "reserved_until": rec.reserved_until,
        "rematch_of": rec.rematch_of,
        "claim_after_s": claim_after(rec),
    }


claim_after = decide.claim_after  # what the game, its lobby entry and invitations show


def invited(rec: Record) -> list[dict[str, str]]:
    """Return every invitation of the game with its answer (public: a reserved seat's
    holder is no secret)."""
    return [{"player": p, "name": n, "answer": a} for p, n, a in rec.invited]
