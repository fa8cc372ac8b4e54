"""A worker stuck or killed (-9) in the middle of applying a missed turn-based deadline:
another worker applies the default once, and the first one, if it comes back, appends
nothing. Every decision of the game times out exactly once."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from rq.registry import StartedJobRegistry

from events import audit, keys
from tests.api.helpers import new_game, new_players
from tests.conftest import kill_group
from tests.support.waiting import wait_for


def timeouts(store, gid):
    return [e for e in store.read(gid) if e["type"] == "game.DecisionTimedOut"]


@pytest.mark.parametrize("crash", [True, False])
def test_a_worker_stuck_or_killed_mid_expiry_applies_the_default_exactly_once(
    client, app, r, worker_process, tmp_path, crash
):
    deps = app.extensions["marketfold"]
    pause = tmp_path / "pause"
    pause.touch()
    stuck = worker_process(pause=pause, MARKETFOLD_CLAIM_S="1")
    gid = new_game(client, new_players(client, 3), decision_timeout_s=1)
    first = deps.store.load(gid).record.owed()[0]
    started = StartedJobRegistry(
        deps.scheduler.queue.name, connection=deps.scheduler.queue.connection
    )
    job = f"expire-{gid}-{first.key}"
    wait_for(lambda: job in started.get_job_ids())  # blocked before its append
    assert timeouts(deps.store, gid) == []
    if crash:
        kill_group(stuck)
    worker_process(MARKETFOLD_CLAIM_S="1")  # takes the lapsed claim and applies the default
    (applied, *_) = wait_for(lambda: timeouts(deps.store, gid))
    assert applied["data"]["key"] == first.key and applied["data"]["seat"] == first.seat
    pause.unlink()  # the stuck worker (if alive) now tries to append the same expiry
    time.sleep(1.5)
    log = deps.store.read(gid)
    per_key = Counter(e["data"]["key"] for e in log if e["type"] == "game.DecisionTimedOut")
    assert per_key[first.key] == 1 and set(per_key.values()) == {1}, per_key
    expiries = [e for e in log if e.get("command", {}).get("type") == "expire"]
    assert len({e["cause"] for e in expiries}) == len(expiries)  # one append per expiry job
    seed = r.get(keys.game_seed(gid)).hex()
    report = audit.verify(
        {"format": audit.FORMAT, "game": {"id": gid}, "events": log, "seed": seed}
    )
    assert all(c.ok for c in report.checks[:3]), report.to_text()  # re-decided, none twice
