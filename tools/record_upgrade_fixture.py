"""Record what a released build leaves in its data directory, for the upgrade test
(tests/cli/test_upgrade.py): tests/data/upgrade/<LABEL>/, a `marketfold backup` of a server
of that build holding games in every state and a league in its first round.

    python tools/record_upgrade_fixture.py OLD_TREE LABEL

OLD_TREE is a checkout of the release (e.g. `git worktree add /tmp/old <tag>`); its code
serves, this tree's `marketfold backup` copies the data (it only talks to the stores). The
players' tokens and the ids to look for go to `fixture.json` beside the backup. Record one
for each release whose data a later build must read; never re-record an old one.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cli.demo import play  # noqa: E402
from cli.embedded import free_port  # noqa: E402
from games.schemas import random_action  # noqa: E402

RULESETS = {"goblin-market": 3, "sorcerous-futures": 3, "black-market": 3, "gobcon": 2}


def start(tree: Path, data: Path, port: int, env: dict[str, str]) -> subprocess.Popen:
    argv = [sys.executable, "-m", "cli", "serve", "--port", str(port), "--data-dir", str(data)]
    proc = subprocess.Popen([*argv, "--http-workers", "1"], cwd=tree, env=env)
    for _ in range(200):
        try:
            if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).ok:
                return proc
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError("the old build did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(2)
    proc.wait(30)


def auth(player: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def main(tree: Path, label: str) -> None:
    out = ROOT / "tests" / "data" / "upgrade" / label
    data = Path(tempfile.mkdtemp(prefix="marketfold-old-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "RQ_REDIS_URL")}
    env["PYTHONPATH"] = str(tree)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(tree, data, port, env)
    organizer = requests.post(base + "/v1/players", json={"name": "organizer"}).json()
    stop(proc)  # again, with the organizer as an operator (this build's only way)
    proc = start(tree, data, port, {**env, "OPERATORS": organizer["id"]})
    rnd = random.Random(5)
    fixture: dict = {"organizer": organizer, "finished": {}, "active": {}, "waiting": {}}
    try:
        for ruleset, n in RULESETS.items():
            fixture["finished"][ruleset] = play(base, ruleset, n, {}, None, 3)["id"]
            people = [
                requests.post(base + "/v1/players", json={"name": f"{ruleset[:6]}{i}"}).json()
                for i in range(n)
            ]
            body = {"ruleset": ruleset, "players": n, "decision_timeout_s": 86400}
            gid = requests.post(base + "/v1/games", json=body, headers=auth(people[0])).json()["id"]
            for p in people:
                requests.post(f"{base}/v1/games/{gid}/join", headers=auth(p)).raise_for_status()
            for _ in range(6):  # a few moves in
                game = requests.get(f"{base}/v1/games/{gid}").json()
                if not game["owed"]:
                    time.sleep(0.3)
                    continue
                seat = game["owed"][0]["seat"]
                who = next(
                    p
                    for p in people
                    if requests.get(f"{base}/v1/games/{gid}", headers=auth(p)).json()["you"] == seat
                )
                legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=auth(who)).json()
                requests.post(
                    f"{base}/v1/games/{gid}/actions",
                    headers=auth(who),
                    json=random_action(legal["actions"], rnd),
                )
            fixture["active"][ruleset] = {"game": gid, "players": people}
            waiting = requests.post(base + "/v1/games", json=body, headers=auth(people[0]))
            fixture["waiting"][ruleset] = waiting.json()["id"]
        members = [
            requests.post(base + "/v1/players", json={"name": f"member{i}"}).json()
            for i in range(3)
        ]
        start_at = (datetime.now(UTC) + timedelta(seconds=3)).isoformat().replace("+00:00", "Z")
        league = requests.post(
            base + "/v1/leagues",
            headers=auth(organizer),
            json={
                "name": "Old league",
                "ruleset": "gobcon",
                "table_size": 3,
                "rounds": 2,
                "start_at": start_at,
                "cadence_s": 86400,
                "decision_timeout_s": 86400,
            },
        ).json()
        for m in members:
            requests.post(
                f"{base}/v1/leagues/{league['id']}/join", headers=auth(m)
            ).raise_for_status()
        for _ in range(150):  # round 1 opens its table
            shown = requests.get(f"{base}/v1/leagues/{league['id']}").json()
            if shown["schedule"][0]["status"] == "started":
                break
            time.sleep(0.2)
        else:
            raise RuntimeError("round 1 did not start")
        fixture["league"] = {"id": league["id"], "members": members}
        fixture["keys"] = requests.get(base + "/v1/keys").json()
        fixture["head"] = requests.get(base + "/v1/transparency/head").json()
        subprocess.run(
            [sys.executable, "-m", "cli", "backup", str(out), "--data-dir", str(data)],
            cwd=ROOT,
            env=env | {"PYTHONPATH": str(ROOT)},
            check=True,
        )
        (out / "fixture.json").write_text(json.dumps(fixture, indent=1) + "\n")
    finally:
        stop(proc)
    print(f"recorded {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2])
