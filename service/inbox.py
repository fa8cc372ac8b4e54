"""Each player's inbox: the index of their unfinished games and their notification feed.

With every append the game's log (service.game_log) calls `after_append`, which keeps
`mf:player:<id>:games` (a sorted set of the games the player sits in, added when they
take a seat, removed when the game ends) and writes `game_started`, `your_turn` and
`game_finished` notes (and `trade_offer` to the player a private wild-trade offer is made
to) to `mf:player:<id>:feed` (a Redis stream, capped), in the append's
follow-up writes (events.recorder.Writes); a deadline renewed after an outage is a new
`your_turn` with the new deadline. `GET /v1/players/me/turns` reads the
index; `GET /v1/players/me/feed` follows the stream (api.sse). Both are kept by the inbox
port (stores/inbox.py, `boot.inbox`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from events import codec, keys, receipts
from events.decide import claim_after
from events.record import ACTIVE, CANCELLED, FINISHED, PENDING, WAITING, Record
from events.recording import Writes
from leagues import table
from leagues.record import League, withdrawal_reason
from service import lobby
from service.notify import inbox as notify_inbox

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

FEED_MAXLEN = notify_inbox.FEED_MAXLEN  # notes kept per player (approximately)


# Private steps a party hears of on its feed (docs/clients.md): the note type, by event
PRIVATE_NOTES = {"black-market.OfferMade": "trade_offer"}


def after_append(
    old: Record,
    new: Record,
    pipe: Writes,
    envelopes: list[dict[str, Any]] | None = None,
    promise: dict[str, Any] | None = None,
    live_delay_s: float = 0.0,
) -> None:
    """Add to `pipe` the inbox updates of every player an append concerns (`envelopes`:
    the append's, for the notes of its private steps; `promise`: the game's receipt
    promise, service.receipts, carried by each seat's `game_finished` note;
    `live_delay_s`: NOTIFY_LIVE_DELAY_S, when a turn's notification is planned)."""
    notes: list[tuple[str, dict[str, Any]]] = []
    base = {"game": new.game_id, "ruleset": new.ruleset, "league": new.league}
    before = {s.player for s in old.seats}
    for s in new.seats:  # a seat taken: joined, or by a substitute
        if s.player not in before:
            pipe.zadd(keys.player_games(s.player), {new.game_id: time.time()})
            pipe.zadd(keys.player_history(s.player), {new.game_id: lobby.created_ms(new)})
    seated = {s.player for s in new.seats} if new.status != CANCELLED else set()
    for s in old.seats:  # a seat freed, or the game cancelled
        if s.player not in seated:
            pipe.zrem(keys.player_games(s.player), new.game_id)
            if old.status != ACTIVE:  # a substituted player keeps the game they played in
                pipe.zrem(keys.player_history(s.player), new.game_id)
    players = {s.seat: s.player for s in new.seats}
    if new.status == ACTIVE and old.status != ACTIVE:
        notes += [(p, {"type": "game_started", **base}) for p in players.values()]
    before = {o.key for o in old.owed()}
    for o in new.owed():
        if o.key not in before and o.seat in players:
            turn = {
                "type": "your_turn",
                **base,
                "kind": o.kind,
                "simultaneous": o.simultaneous,
                "deadline": new.deadline(o.key),
            }
            notes.append((players[o.seat], {**turn, "version": new.version}))
    for key, deadline in set(new.extended) - set(old.extended):  # after an outage
        for o in new.owed():
            if o.key == key and o.seat in players:
                turn = {
                    "type": "your_turn",
                    **base,
                    "kind": o.kind,
                    "simultaneous": o.simultaneous,
                    "deadline": deadline,
                }
                notes.append((players[o.seat], {**turn, "version": new.version}))
    notes += _invitation_notes(old, new, pipe)
    notes += _private_notes(new, envelopes or [], players)
    if new.status == FINISHED and old.status != FINISHED:
        places = {s["seat"]: s["place"] for s in (new.result or {}).get("standings", [])}
        for seat, player in players.items():
            pipe.zrem(keys.player_games(player), new.game_id)
            pipe.hincrby(keys.player_played(player), new.ruleset, 1)
            note = {"type": "game_finished", **base, "place": places.get(seat)}
            if promise is not None:
                note["receipt"] = {
                    "format": receipts.FORMAT,
                    "game": new.game_id,
                    "promise": promise,
                }
            notes.append((player, note))
    at = codec.now_iso()
    for player, note in notes:  # each a notification too (service.notify.inbox)
        notify_inbox.stage(pipe, player, {**note, "at": at}, live_delay_s=live_delay_s)


def _private_notes(
    new: Record, envelopes: list[dict[str, Any]], players: dict[int, str]
) -> list[tuple[str, dict[str, Any]]]:
    """Return a `trade_offer` note to the seat a private offer is made to (only to it: the
    note is on its own feed, which nobody else reads)."""
    notes: list[tuple[str, dict[str, Any]]] = []
    base = {"game": new.game_id, "ruleset": new.ruleset, "league": new.league}
    for env in envelopes:
        kind = PRIVATE_NOTES.get(env["type"]) if "private" in env else None
        if kind is not None and (player := players.get(env["data"].get("to"))) is not None:
            step = {"offer": env["data"]["id"], "from": env["data"]["from"]}
            notes.append((player, {"type": kind, **base, **step}))
    return notes


def _invitation_notes(old: Record, new: Record, pipe: Writes) -> list[tuple[str, dict[str, Any]]]:
    """Keep each invitee's list of invitations (`mf:player:<id>:invitations`) and return
    the notes of an append that changes invitations: `invitation` to each player a seat is
    newly held for (not the creator, nor a rematch's former players: they get `rematch`),
    and `invitation_answered` to the creator for each answer (accepted, declined, lapsed)."""
    if not new.invited and not old.invited:
        return []
    notes: list[tuple[str, dict[str, Any]]] = []
    base = {"game": new.game_id, "ruleset": new.ruleset, "league": None}
    before = {p: a for p, _, a in old.invited}
    held = set(new.reserved()) if new.status == WAITING else set()
    for player, name, answer in new.invited:
        if player in held and before.get(player) != PENDING:
            pipe.zadd(keys.player_invitations(player), {new.game_id: time.time()})
            if player != new.creator and not new.rematch_of:
                invite = {
                    "from": new.creator,
                    "reserved_until": new.reserved_until,
                    "claim_after_s": claim_after(new),  # known before accepting (#49)
                }
                notes.append((player, {"type": "invitation", **base, **invite}))
        elif player not in held and before.get(player) == PENDING:
            pipe.zrem(keys.player_invitations(player), new.game_id)
        answered = before.get(player) == PENDING and answer != PENDING
        if answered and new.creator and player != new.creator:
            said = {"player": player, "name": name, "answer": answer}
            notes.append((new.creator, {"type": "invitation_answered", **base, **said}))
    return notes


def after_league_append(
    boot: Bootstrap, league: League, envelopes: list[dict[str, Any]], pipe: Writes | None = None
) -> None:
    """Write league notes: `round_started` (with the member's game) to each seated member
    (and to those sitting the round out, with no game), `withdrawn` to a withdrawn member,
    `league_finished` (with the final place) to every member once the last game is
    recorded or the league is cancelled, `dispute_opened` to the game's table and the
    league's organizers, `dispute_ruled` to the table. Like game notes, each has `type`, `game`,
    `ruleset` and `league` ({id, round, table}). With `pipe` (the league append's
    follow-up writes) the notes are written with the append, else at once."""
    notes: list[tuple[str, dict[str, Any]]] = []
    lid, ruleset = league.league_id, league.settings.get("ruleset")

    def note(kind: str, game: str | None, number: int | None, table: int | None, **more):
        where = {"id": lid, "round": number, "table": table}
        return {"type": kind, "game": game, "ruleset": ruleset, "league": where, **more}

    for env in envelopes:
        kind, data = env["type"], env["data"]
        if kind == "league.RoundStarted":
            for t in data["tables"]:
                started = note("round_started", t["game"], data["round"], t["table"])
                notes += [(p, started) for p in t["players"]]
            for p in data["byes"]:
                notes.append((p, note("round_started", None, data["round"], None, bye=True)))
        elif kind in MEMBER_NOTES:
            notes += _member_notes(league, kind, data, note)
        elif kind in DISPUTE_NOTES:
            notes += _dispute_notes(league, kind, data, note)
    ends = {"league.GameRecorded", "league.Cancelled"} & {e["type"] for e in envelopes}
    if ends and league.over:
        ranks = {r["player"]: r["rank"] for r in table.rows(league)}
        for p in league.members:
            done = note(
                "league_finished",
                None,
                len(league.rounds) or None,
                None,
                status=league.status,
                place=ranks.get(p),
                members=len(league.members),
            )
            notes.append((p, done))
    _write(boot, notes, pipe)


MEMBER_NOTES = ("league.MemberWithdrawn", "league.MemberReinstated", "league.MemberSubstituted")


def _member_notes(league: League, kind: str, data: dict[str, Any], note) -> list[tuple[str, Any]]:
    """Return the notes of a member's withdrawal (`withdrawn`, or `removed` by an
    organizer), reinstatement (`reinstated`) or substitution (`substituted`): to the
    member, to the substitute, and to each of the league's organizers, each naming the
    `player` it is about and who did it (`by`)."""
    player = data["player"]
    if kind == "league.MemberWithdrawn":
        reason = withdrawal_reason(data)
        kind_ = "removed" if reason == "removed" else "withdrawn"
        extra = {"by": data.get("by"), "reason": reason, "player": player}
        if "who" in data:
            extra["who"] = data["who"]
        told = [player]
    elif kind == "league.MemberReinstated":
        kind_, extra, told = "reinstated", {"by": data["by"], "player": player}, [player]
    else:
        kind_ = "substituted"
        sub = data["substitute"]
        extra = {"by": data["by"], "player": player, "substitute": sub, "games": data["games"]}
        told = [player, sub]
    told += [o for o in league.organizers if o not in told]
    said = note(kind_, None, data["round"], None, **extra)
    return [(p, said) for p in told]


DISPUTE_NOTES = {"league.DisputeOpened": "dispute_opened", "league.DisputeRuled": "dispute_ruled"}


def _dispute_notes(league: League, kind: str, data: dict[str, Any], note) -> list:
    """`dispute_opened` to the table and the organizers; `dispute_ruled` to the table."""
    where = league.table_of(data["game"])
    table = list(where[1].players) if where else []
    more = {"dispute": data.get("dispute"), "reason": data["reason"]}
    if kind == "league.DisputeOpened":
        more.update(seq=data.get("seq"), by=data["player"])
        told = table + [p for p in league.organizers if p not in table]
    else:
        more.update(ruling=data["ruling"], ruling_kind=data["kind"], replay=data.get("replay"))
        told = table
    made = note(DISPUTE_NOTES[kind], data["game"], data["round"], data["table"], **more)
    return [(p, made) for p in told]


def _write(
    boot: Bootstrap, notes: list[tuple[str, dict[str, Any]]], then: Writes | None = None
) -> None:
    if not notes:
        return
    at, pipe = codec.now_iso(), then if then is not None else Writes()
    for player, note in notes:  # each a notification too (service.notify.inbox)
        notify_inbox.stage(pipe, player, {**note, "at": at})
    if then is None:
        boot.inbox.write(pipe)


def turns(boot: Bootstrap, player_id: str) -> list[dict[str, Any]]:
    """Return every decision the player owes now, in any game, soonest deadline first."""
    out = []
    for gid in boot.inbox.games(player_id):
        rec = boot.store.load(gid).record
        if rec.status in (FINISHED, CANCELLED) or rec.version == 0:
            boot.inbox.drop_game(player_id, gid)  # a missed removal
            continue
        seat = rec.seat_of(player_id)
        for o in rec.owed():
            if o.seat == seat:
                out.append(
                    {
                        "game": gid,
                        "ruleset": rec.ruleset,
                        "seat": seat,
                        "kind": o.kind,
                        "simultaneous": o.simultaneous,
                        "deadline": rec.deadline(o.key),
                        "version": rec.version,
                        "league": rec.league,
                    }
                )
    return sorted(out, key=lambda t: (t["deadline"] is None, t["deadline"] or "", t["game"]))


def last_id(boot: Bootstrap, player_id: str) -> str:
    """Return the id of the newest note in the player's feed ("0-0" when empty)."""
    return boot.inbox.last_id(player_id)
