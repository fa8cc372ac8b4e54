"""Play whole games through the generated Python client (examples/python/run.sh makes it).

    python play.py http://127.0.0.1:8000 [goblin-market sorcerous-futures black-market gobcon]

Every seat is a bot picking a random legal action, one call per move (docs/clients.md, "A
move in one call"): each seat follows its own event stream in a thread, acts on an `owes`
frame that brings news, and goes on from its answer's `actions` while it owes something;
it never reads `/legal`. The first player invites the others by handle to an unlisted
table; each finds the invitation and accepts by joining. A spectator's thread follows the
stream too; at the end the game is exported as a file and that file is verified as
downloaded, and a rematch offered and declined. One JSON line per game.
"""

import io
import json
import os
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from marketfold_client import AuthenticatedClient, Client, models
from marketfold_client.api.audit import export_game, verify_bundle
from marketfold_client.api.games import (
    abort_game,
    claim_game,
    create_game,
    decline_invitation,
    get_game,
    join_game,
    post_action,
    rematch_game,
)
from marketfold_client.api.players import create_player, my_invitations, whoami
from marketfold_client.types import File

GAMES = {  # short games: few seats, a GobCon time limit of two rounds
    "goblin-market": lambda: models.GoblinMarketGameCreate("goblin-market", 3),
    "sorcerous-futures": lambda: models.SorcerousFuturesGameCreate("sorcerous-futures", 3),
    "black-market": lambda: models.BlackMarketGameCreate("black-market", 3),
    "gobcon": lambda: models.GobconGameCreate(
        "gobcon", 2, options=models.GobconOptions(time_limit=2)
    ),
}


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def build(schema: dict, rng: random.Random):
    """A random value of the simple JSON Schemas that `legal` publishes (when no `choices`)."""
    if "oneOf" in schema:
        return build(rng.choice(schema["oneOf"]), rng)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("type") == "integer":
        return rng.randint(schema.get("minimum", 0), schema.get("maximum", 100))
    if schema.get("type") == "boolean":
        return rng.random() < 0.5
    if schema.get("type") == "object":
        return {k: build(v, rng) for k, v in schema.get("properties", {}).items()}
    if "allOf" in schema:  # a list of consts, each capped by maxContains
        pool = [c["contains"]["const"] for c in schema["allOf"] for _ in range(c["maxContains"])]
        rng.shuffle(pool)
        low = schema.get("minItems", 0)
        return pool[: rng.randint(low, max(low, min(schema.get("maxItems", len(pool)), len(pool))))]
    low = schema.get("minItems", 0)
    return [
        build(schema["items"], rng) for _ in range(rng.randint(low, schema.get("maxItems", low)))
    ]


def frames(resp) -> Iterator[tuple[str | None, str, dict]]:
    """The frames of an open Server-Sent Events response: (id or None, event, data)."""
    ident, event, data = None, "message", []
    for line in resp.iter_lines():
        if line == "":  # a frame ends (a heartbeat comment has no data)
            if data:
                yield ident, event, json.loads("\n".join(data))
            ident, event, data = None, "message", []
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])


def follow(base: str, gid: str, seqs: list[int]) -> None:
    """Read the game's Server-Sent Events until the stream ends (after game.Ended)."""
    with (
        Client(base, timeout=120)
        .get_httpx_client()
        .stream("GET", f"/v1/games/{gid}/events/stream") as resp
    ):
        seqs += [int(ident) for ident, _, _ in frames(resp) if ident is not None]


def choose(actions: list, ruleset: str, rng: random.Random):
    """One of the legal actions (`choices` when listed, else built from the `schema`)."""
    spec = rng.choice(actions)
    if spec.choices:
        return rng.choice(spec.choices)
    action = build(spec.schema.to_dict(), rng)  # too many to list: build one
    return getattr(models, camel(ruleset) + camel(spec.type_) + "Action").from_dict(action)


def move(me: AuthenticatedClient, gid: str, version: int, action, tally: Counter):
    """POST one action read at `version`; return the version and actions its answer gives,
    accepted or refused (the game moved on without it: a refusal says what the seat may
    do now), so that the seat goes on without asking."""
    key = str(uuid.uuid4())  # the same key on a retry: the server applies it once
    while True:
        sent = post_action.sync_detailed(
            id=gid, client=me, body=action, idempotency_key=key, if_match=f'"{version}"'
        )
        tally["calls"] += 1
        if sent.status_code in (429, 503):  # wait as told, then send it again
            time.sleep(int(sent.headers.get("Retry-After", "1")))
            continue
        if sent.status_code in (201, 202):
            tally["moves"] += 1
            return sent.parsed.version, sent.parsed.actions
        refused = json.loads(sent.content)  # 409, 412: `version` and `actions` now
        return refused["version"], [models.ActionSpec.from_dict(a) for a in refused["actions"]]


def seat_plays(
    me: AuthenticatedClient, gid: str, ruleset: str, seed: int, tally: Counter, kept: list
):
    """One seat's bot: follow its own stream to the end of the game and move on each `owes`
    frame at a version newer than any it acted on or was answered with; keep the receipt
    the stream sends after game.Ended (docs/audit.md, section 7)."""
    rng, acted, last = random.Random(seed), -1, None
    while True:  # the server ends a stream now and then: resume after the last event
        headers = {"Last-Event-ID": last} if last else {}
        stream = me.get_httpx_client().stream(
            "GET", f"/v1/games/{gid}/events/stream", headers=headers
        )
        with stream as resp:
            if resp.status_code == 204:  # over, and every event seen
                return
            if resp.status_code != 200:
                time.sleep(int(resp.headers.get("Retry-After", "1")))
                continue
            for ident, event, data in frames(resp):
                if ident is not None and "." not in ident:  # `<seq>.<k>`: a private step
                    last = ident
                if event == "receipt":  # right after game.Ended: the game's receipt
                    models.KeptReceipt.from_dict(data)  # its shape, as the spec gives it
                    kept.append(data)  # as sent: the signature covers its text
                    return
                if event != "owes" or data["version"] <= acted:
                    continue  # not a turn signal, or no news: an answer said it already
                owes = models.StreamOwes.from_dict(data)
                version, actions = owes.version, owes.actions
                while actions:  # several decisions in a row: one call each
                    version, actions = move(me, gid, version, choose(actions, ruleset, rng), tally)
                    acted = max(acted, version)


def play(base: str, ruleset: str, rng: random.Random) -> dict:
    anon = Client(base, timeout=30)
    body = GAMES[ruleset]()
    run = uuid.uuid4().hex[:8]  # handles are unique: one set per run
    players = [
        create_player.sync(client=anon, body=models.Player(f"bot{i}", handle=f"bot{i}-{run}"))
        for i in range(body.players)
    ]
    seats, clients = {}, [AuthenticatedClient(base, token=p.token, timeout=30) for p in players]
    body.invite, body.join, body.unlisted = [p.handle for p in players[1:]], True, True
    gid = create_game.sync(client=clients[0], body=body).id
    seqs: list[int] = []
    watcher = threading.Thread(target=follow, args=(base, gid, seqs), daemon=True)
    watcher.start()
    invited = all(
        whoami.sync(client=me).handle == p.handle
        and [i.game for i in my_invitations.sync(client=me).invitations] == [gid]
        for p, me in zip(players[1:], clients[1:], strict=True)
    )
    seats[0] = clients[0]  # joined at creation (`join`); the others accept by joining
    for me in clients[1:]:
        seats[join_game.sync(id=gid, client=me).seat] = me
    tallies = [Counter() for _ in seats]  # one per thread
    receipts: list[list] = [[] for _ in seats]
    bots = [
        threading.Thread(target=seat_plays, args=(me, gid, ruleset, rng.random(), tally, kept))
        for me, tally, kept in zip(seats.values(), tallies, receipts, strict=True)
    ]
    for bot in bots:
        bot.start()
    for bot in bots:
        bot.join()
    tally = sum(tallies, Counter())
    folder = Path(os.environ.get("RECEIPTS_DIR", "receipts"))  # keep it: verify --seen FILE
    folder.mkdir(parents=True, exist_ok=True)
    for seat, kept in zip(seats, receipts, strict=True):
        for receipt in kept:
            (folder / f"{gid}.seat{seat}.receipt.json").write_text(json.dumps(receipt))
    game = get_game.sync(id=gid, client=seats[0])
    watcher.join(60)
    download = export_game.sync(id=gid, client=anon)  # a File: the bytes, untouched
    raw = download.payload.read()
    report = verify_bundle.sync(
        client=anon, body=File(payload=io.BytesIO(raw), mime_type="application/octet-stream")
    )
    again = models.RematchOffer(reserve_s=60)
    offer = rematch_game.sync_detailed(id=gid, client=clients[0], body=again)
    declined = decline_invitation.sync_detailed(id=offer.parsed.id, client=clients[1])
    return {
        "invited": invited,
        "rematch": [offer.status_code, offer.parsed.rematch_of == gid, declined.status_code],
        "ruleset": ruleset,
        "game": gid,
        "status": game.status,
        "version": game.version,
        "players": len(seats),
        "streamed": seqs,
        "verified": report.ok,
        "receipts": sum(len(k) for k in receipts),  # one per seat, kept from its stream
        "winners": game.result.winners,
        "moves": tally["moves"],
        "calls": tally["calls"],  # action calls, accepted or not; `/legal` never read
    }


def quiet(base: str) -> dict:
    """Two tables left early: one aborted before anyone moved, one untimed game claimed
    after a second of silence by the seat that owes nothing. Returns each one's reason."""
    anon, reasons = Client(base, timeout=30), []
    for body in (models.GobconGameCreate("gobcon", 2), models.GobconGameCreate("gobcon", 2)):
        a, b = (create_player.sync(client=anon, body=models.Player(n)) for n in ("q0", "q1"))
        me = {p.id: AuthenticatedClient(base, token=p.token, timeout=30) for p in (a, b)}
        body.invite, body.join, body.claim_after_s = [b.id], True, 1
        gid = create_game.sync(client=me[a.id], body=body).id
        join_game.sync(id=gid, client=me[b.id])
        if not reasons:
            reasons.append(abort_game.sync(id=gid, client=me[a.id]).result.reason)
            continue
        owing = get_game.sync(id=gid, client=me[a.id]).owed[0].seat
        claimer = get_game.sync(id=gid, client=me[a.id]).seats[1 - owing].player
        time.sleep(1.2)
        reasons.append(claim_game.sync(id=gid, client=me[claimer]).result.reason)
    return {"ruleset": "quiet-tables", "reasons": reasons}


def main() -> int:
    base, rulesets = sys.argv[1], sys.argv[2:] or list(GAMES)
    rng = random.Random(7)
    for ruleset in rulesets:
        print(json.dumps(play(base, ruleset, rng)), flush=True)
    print(json.dumps(quiet(base)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
