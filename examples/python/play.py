"""Play whole games through the generated Python client (examples/python/run.sh makes it).

    python play.py http://127.0.0.1:8000 [goblin-market sorcerous-futures black-market gobcon]

Every seat is a bot picking a random legal action. The first player invites the others
by handle to an unlisted table; each finds the invitation and accepts by joining. A thread
follows the game's event stream; at the end the game is exported as a file and that file
is verified as downloaded, and a rematch offered and declined. One JSON line per game.
"""

import io
import json
import random
import sys
import threading
import time
import uuid

from marketfold_client import AuthenticatedClient, Client, models
from marketfold_client.api.audit import export_game, verify_bundle
from marketfold_client.api.games import (
    abort_game,
    claim_game,
    create_game,
    decline_invitation,
    get_game,
    join_game,
    legal_actions,
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


def follow(base: str, gid: str, seqs: list[int]) -> None:
    """Read the game's Server-Sent Events until the stream ends (after game.Ended)."""
    with (
        Client(base, timeout=120)
        .get_httpx_client()
        .stream("GET", f"/v1/games/{gid}/events/stream") as resp
    ):
        for line in resp.iter_lines():
            if line.startswith("id: "):
                seqs.append(int(line[4:]))


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
    while True:  # polls with a token: its rate limit is higher than an address's
        answer = get_game.sync_detailed(id=gid, client=seats[0])
        if answer.status_code != 200:  # 429 (or 503): wait as told
            time.sleep(int(answer.headers.get("Retry-After", "1")))
            continue
        if (game := answer.parsed).status == "finished":
            break
        acted = False
        for owed in game.owed:
            legal = legal_actions.sync(id=gid, client=seats[owed.seat])
            if not legal.actions:
                continue  # already submitted to a simultaneous phase
            spec = rng.choice(legal.actions)
            if spec.choices:
                action = rng.choice(spec.choices)
            else:  # too many to list: build one from the schema
                action = build(spec.schema.to_dict(), rng)
                action = getattr(models, camel(ruleset) + camel(spec.type_) + "Action").from_dict(
                    action
                )
            sent = post_action.sync_detailed(
                id=gid,
                client=seats[owed.seat],
                body=action,
                idempotency_key=str(uuid.uuid4()),
                if_match=f'"{legal.version}"',
            )
            acted = acted or sent.status_code in (201, 202)
        if not acted:
            time.sleep(0.05)  # a simultaneous phase is being resolved by a worker
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
        "streamed": seqs,
        "verified": report.ok,
        "winners": game.result.winners,
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
