"""A league run from start to rulings by a third-party program that knows only openapi.yaml:
the Python client generated from it (no hand patches, as examples/python/run.sh makes it)
does every step against a live server and a real worker.

The server's first operator is made as docs/leagues.md says (`marketfold admin grant`);
from then on only the generated client: the operator grants the organizer role, the
organizer creates a league and invites players by handle, they find the invitation and
join, round 1 starts on time, two members play with bots (examples/python/play.py), one
never shows and the organizer puts a substitute in their seat, who plays it to the end; a
player opens a dispute, the organizer reviews the game and rules on it (each sent twice
with one Idempotency-Key: applied once); and the standings the API shows equal those that
`marketfold verify` recounts, offline, from the league's signed export as downloaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import ROOT, _env
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow
EXAMPLE = ROOT / "examples" / "python"


def generate(build) -> None:
    """Generate the client from openapi.yaml into `build` as examples/python/run.sh does."""
    # the generator formats its output with ruff, installed next to it
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--output-path",
            str(build / "marketfold_client"),
            "--meta",
            "none",
            "--config",
            str(EXAMPLE / "openapi-python-client.yaml"),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.fixture
def generated(tmp_path):
    """The generated package and the example's bots, importable; forgotten afterwards."""
    generate(tmp_path)
    sys.path[:0] = [str(tmp_path), str(EXAMPLE)]
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.path.remove(str(EXAMPLE))
        for name in [m for m in sys.modules if m.startswith("marketfold_client") or m == "play"]:
            del sys.modules[name]


@pytest.mark.timeout(400)
def test_a_league_run_through_the_generated_client(
    generated, live_server, worker_process, redis_url, tmp_path
):
    import play  # the example's bots: one seat each, following its stream
    from marketfold_client import AuthenticatedClient, Client, models
    from marketfold_client.api.games import get_game
    from marketfold_client.api.leagues import (
        create_league,
        export_league,
        get_league,
        invite_to_league,
        join_league,
        league_round,
        league_standings,
        list_disputes,
        open_dispute,
        review_game,
        rule_on_game,
        substitute_league_member,
        update_league,
    )
    from marketfold_client.api.players import create_player, grant_role, my_leagues

    worker_process()
    base, run = live_server, uuid.uuid4().hex[:6]
    anon = Client(base, timeout=30)

    def player(name: str):
        made = create_player.sync(client=anon, body=models.Player(name, handle=f"{name}-{run}"))
        return made, AuthenticatedClient(base, token=made.token, timeout=30)

    (op, op_c), (org, org_c) = player("op"), player("org")
    members = [player(f"m{i}") for i in range(3)]
    sub, sub_c = player("sub")
    # the first operator, made by whoever runs the server
    granted = subprocess.run(
        [sys.executable, "-m", "cli", "admin", "grant", op.handle, "operator"],
        env=_env(redis_url),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert granted.returncode == 0, granted.stderr

    # without the role, creating a league is refused with what is missing and how to get it
    body = models.LeagueCreate(
        ruleset="goblin-market",
        table_size=3,
        rounds=1,
        start_at=datetime.now(UTC) + timedelta(seconds=10),  # time to invite and join
        cadence_s=3600,
        decision_timeout_s=30,
        name=f"club night {run}",
    )
    refused = create_league.sync_detailed(client=org_c, body=body)
    assert refused.status_code == 403, refused.content
    assert "organizer" in json.loads(refused.content)["detail"]
    roles = grant_role.sync(player_id=org.id, role="organizer", client=op_c)
    assert "organizer" in roles.to_dict()["roles"]
    league = create_league.sync(client=org_c, body=body)
    assert isinstance(league, models.League), league
    lid = league.id
    for m, _ in members:
        invited = invite_to_league.sync_detailed(
            league_id=lid, client=org_c, body=models.LeagueMemberAdd(m.handle)
        )
        assert invited.status_code == 201, invited.content
    for m, me in members:
        mine = my_leagues.sync(client=me)
        assert lid in json.dumps(mine.to_dict())  # the invitation, on their home page
        joined = join_league.sync_detailed(league_id=lid, client=me)
        assert joined.status_code == 200, joined.content
    league = get_league.sync(league_id=lid, client=org_c)
    assert {m.player for m in league.members} == {m.id for m, _ in members}
    # everyone is in: the organizer moves round 1 to a second from now rather than wait out
    # the 10 s left for inviting and joining
    moved = update_league.sync_detailed(
        league_id=lid,
        client=org_c,
        body=models.LeagueUpdate(start_at=datetime.now(UTC) + timedelta(seconds=1)),
    )
    assert moved.status_code == 200, moved.content

    # round 1 starts at its time, through the worker
    def started():
        got = league_round.sync(league_id=lid, n=1, client=org_c)
        if isinstance(got, models.LeagueRound) and got.status == "started":
            return got.tables
        return None

    (table,) = wait_for(started, 60)
    gid = table.game
    wait_for(lambda: isinstance(get_game.sync(id=gid, client=org_c), models.Game), 30)
    (absent, _), *playing = members
    bots, tallies, receipts = [], [], []

    def bot(me, seed):
        tallies.append(Counter())
        receipts.append([])  # the receipt each seat's stream sends after the end
        thread = threading.Thread(
            target=play.seat_plays,
            args=(me, gid, "goblin-market", seed, tallies[-1], receipts[-1]),
        )
        thread.start()
        bots.append(thread)

    for i, (_, me) in enumerate(playing):
        bot(me, i)
    # the no-show is replaced: the substitute takes the seat now (a retry applies it once)
    swap = models.LeagueSubstitution(player=absent.id, substitute=sub.handle)
    key = str(uuid.uuid4())
    first = substitute_league_member.sync_detailed(
        league_id=lid, client=org_c, body=swap, idempotency_key=key
    )
    again = substitute_league_member.sync_detailed(
        league_id=lid, client=org_c, body=swap, idempotency_key=key
    )
    assert first.status_code == again.status_code == 200, first.content
    assert isinstance(first.parsed, models.League) and first.content == again.content
    seated = get_game.sync(id=gid, client=sub_c)
    assert seated.you is not None and seated.seats[seated.you].player == sub.id
    bot(sub_c, 9)
    for thread in bots:
        thread.join(240)
        assert not thread.is_alive(), "a bot did not finish its game"
    assert all(t["moves"] > 0 for t in tallies)
    assert all(len(kept) == 1 for kept in receipts)  # each seat kept the game's receipt

    # the game is recorded; a player disputes it, the organizer reviews and rules
    wait_for(lambda: get_league.sync(league_id=lid, client=org_c).status == "finished", 60)
    complainer, complainer_c = playing[0]
    dispute = models.DisputeOpen(game=gid, reason="my last bid came late while it was slow")
    key = str(uuid.uuid4())
    opened = [
        open_dispute.sync_detailed(
            league_id=lid, client=complainer_c, body=dispute, idempotency_key=key
        )
        for _ in range(2)
    ]
    assert [o.status_code for o in opened] == [201, 201], opened[0].content
    assert opened[0].parsed.to_dict() == opened[1].parsed.to_dict()
    number = opened[0].parsed.dispute
    review = review_game.sync(league_id=lid, id=gid, client=org_c)
    assert isinstance(review, models.GameReview), review
    assert review.audit.ok and review.status == "finished"
    ruling = models.RulingPost(
        game=gid,
        kind=models.RulingPostKind.ADJUSTED,
        reason="the server was slow: half a point more",
        dispute=number,
        points=models.RulingPostPointsType0.from_dict({complainer.id: 2.5}),
    )
    key = str(uuid.uuid4())
    ruled = [
        rule_on_game.sync_detailed(league_id=lid, client=org_c, body=ruling, idempotency_key=key)
        for _ in range(2)
    ]
    assert [r.status_code for r in ruled] == [201, 201], ruled[0].content
    assert ruled[0].content == ruled[1].content
    listed = list_disputes.sync(league_id=lid, client=anon)
    assert [d.status for d in listed.disputes] == ["ruled"]
    assert [r.kind for r in listed.rulings] == ["adjusted"]

    # the signed export, as downloaded, recounts offline to the standings the API shows
    export = export_league.sync_detailed(league_id=lid, client=anon)
    assert export.status_code == 200 and isinstance(export.parsed, models.LeagueExport)
    (tmp_path / "league.json").write_bytes(export.content)
    keys = Client(base).get_httpx_client().get("/v1/keys")
    (tmp_path / "keys.json").write_bytes(keys.content)
    verified = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--json", "--keys", "keys.json", "league.json"],
        cwd=tmp_path,
        env=_env(redis_url),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    report = json.loads(verified.stdout)
    assert [r["kind"] for r in report["rulings"]] == ["adjusted"]
    shown = league_standings.sync(league_id=lid, client=anon).to_dict()["standings"]
    assert report["standings"] == shown
    points = {row["player"]: row["points"] for row in shown}
    assert points[complainer.id] == 2.5  # the ruling counted
    assert sub.id in points  # the substitute is on the table
