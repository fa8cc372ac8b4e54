"""Witnesses on hosts of their own (#45 §1; cli.lab: `wit1`, `wit2`, each a `marketfold
witness` with its own key, reading the server through HAProxy over the lab's network): the
server serves its checkpoint with both cosignatures, an auditor's `marketfold verify
--witness ... --quorum 2` accepts a game under it, and when the operator rolls the log
back (deletes its keys from the store and restarts the API hosts) each witness refuses,
naming the rollback, and cosigns nothing from then on."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest
import requests

from cli import lab_hosts
from cli.bot import Bot
from cli.lab_hosts import APIS, ROOT, WITNESSES
from events import tlog_keys
from tests.reliability.load import new_table
from tests.support.waiting import timed_wait

pytestmark = [
    pytest.mark.lab,
    pytest.mark.slow,
    pytest.mark.crash,
    pytest.mark.xdist_group("lab"),
    pytest.mark.timeout(600),
]


def _cosigners(lab) -> tuple[int, set[str]]:
    """The served checkpoint's size and the names of the witnesses that cosigned it."""
    text = requests.get(f"{lab.url}/v1/transparency/checkpoint", timeout=10).text
    head, _, sigs = text.partition("\n\n")
    names = {line.split(" ")[1] for line in sigs.splitlines() if line.startswith("\u2014 ")}
    return int(head.splitlines()[1]), names


def test_two_witnesses_on_their_own_hosts_cosign_and_catch_the_operators_rollback(lab, tmp_path):
    table = new_table(lab.url, "gobcon", 2, "wit", options={"time_limit": 1})
    bots = [Bot(lab.url, table.gid, token, seed=seat) for seat, token in table.tokens.items()]
    threads = [threading.Thread(target=b.play, daemon=True) for b in bots]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    bundle = tmp_path / "game.json"
    bundle.write_text(json.dumps(requests.get(f"{lab.url}/v1/games/{table.gid}/export").json()))
    ended = max(x["index"] for x in json.loads(bundle.read_text())["transparency"]["leaves"])
    names = {f"{h}.{lab.name}" for h in WITNESSES}
    timed_wait(
        "both witnesses cosign a checkpoint holding the game",
        lambda: (lambda size, who: size > ended and names <= who)(*_cosigners(lab)),
        timeout=60,
    )
    vkeys = [lab_hosts.witness_vkey(lab, h) for h in WITNESSES]
    argv = [sys.executable, "-m", "cli", "verify", str(bundle), "--server", lab.url]
    for v in vkeys:
        argv += ["--witness", v]
    done = subprocess.run(
        [*argv, "--quorum", "2"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr

    # the operator: the log's keys deleted from the store, the API hosts restarted
    store = lab.store()
    try:
        for key in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts(), tlog_keys.tlog_ids()):
            store.delete(key)
        store.delete(tlog_keys.tlog_head(), tlog_keys.tlog_keys(), tlog_keys.tlog_witnessed())
    finally:
        store.close()
    for host in APIS:
        lab.kill(host)
        lab.start(host)
    lab.wait_serving()

    def refused(host: str) -> bool:
        return "ROLLBACK" in (lab.data / host / "out.log").read_text(errors="replace")

    for host in WITNESSES:
        timed_wait(f"{host} names the rollback", lambda h=host: refused(h), timeout=60)
    size, who = _cosigners(lab)
    assert size <= ended and not (names & who), (size, who)
