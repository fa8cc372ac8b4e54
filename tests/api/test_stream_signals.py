"""What a reconnecting client learns first, and when a stream ends (issue 27.1 and 27.4),
through a real gunicorn API and a real Redis.

- every game stream connect, resumed with Last-Event-ID or not, starts with one `owes`
  frame: where the game stands for the caller (version, status, what it owes with
  deadlines, and its legal actions when it owes something); a feed starts with the
  caller's open turns;
- a stream (game or feed) whose token is revoked ends within one heartbeat.
"""

from __future__ import annotations

import json
import random
import threading
import time

import requests

from tests.api.helpers import bearer, random_action


def frames(res: requests.Response, until, timeout: float = 20) -> list[dict]:
    """Read SSE frames ({event, id?, data}) until `until(frames)` is true."""
    out, frame, ends = [], {}, time.monotonic() + timeout
    for line in res.iter_lines(decode_unicode=True):
        if line.startswith(("id: ", "event: ")):
            name, _, value = line.partition(": ")
            frame[name] = value
        elif line.startswith("data: "):
            frame["data"] = json.loads(line[6:])
        elif line == "" and "data" in frame:
            out.append(frame)
            frame = {}
            if until(out):
                break
        assert time.monotonic() < ends, out
    return out


def table(base: str, ruleset: str = "goblin-market", players: int = 3) -> tuple[str, dict]:
    """A started game; return its id and {seat: player}."""
    http = requests.Session()
    people = [
        http.post(f"{base}/v1/players", json={"name": f"r{i}"}).json() for i in range(players)
    ]
    body = {"ruleset": ruleset, "players": players, "decision_timeout_s": 600}
    gid = http.post(f"{base}/v1/games", json=body, headers=bearer(people[0])).json()["id"]
    for p in people:
        http.post(f"{base}/v1/games/{gid}/join", headers=bearer(p)).raise_for_status()
    seats = {http.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]: p for p in people}
    return gid, seats


def test_a_client_resuming_after_your_turn_learns_it_owes_a_decision(shared_server):
    base = shared_server
    gid, seats = table(base)
    game = requests.get(f"{base}/v1/games/{gid}").json()
    first = game["owed"][0]["seat"]
    url, me = f"{base}/v1/games/{gid}/events/stream", bearer(seats[first])
    # the client reads its stream from the start up to its turn, then crashes
    with requests.get(url, headers=me, stream=True, timeout=30) as res:
        read = frames(res, lambda f: any(x.get("id") == str(game["version"]) for x in f))
    last = [f for f in read if "id" in f][-1]
    assert last["data"]["owes"]  # "your turn" was on the wire
    for resume in ({"Last-Event-ID": last["id"]}, {}):  # resumed, or opened afresh
        with requests.get(url, headers={**me, **resume}, stream=True, timeout=30) as res:
            opening = frames(res, lambda f: len(f) >= 1)[0]
        assert opening["event"] == "owes" and "id" not in opening
        stands = opening["data"]
        assert (stands["version"], stands["status"], stands["seat"]) == (
            game["version"],
            "active",
            first,
        )
        assert stands["owes"] == [o for o in game["owed"] if o["seat"] == first]
        assert stands["owes"][0]["deadline"] is not None  # when it is due
        assert stands["owed"] == game["owed"]
        legal = requests.get(f"{base}/v1/games/{gid}/legal", headers=me).json()
        assert stands["actions"] == legal["actions"] and stands["actions"]
    # a spectator's first frame says where the game stands, and that it owes nothing
    with requests.get(url, headers={"Last-Event-ID": last["id"]}, stream=True, timeout=30) as res:
        opening = frames(res, lambda f: len(f) >= 1)[0]
    assert opening["event"] == "owes" and opening["data"]["version"] == game["version"]
    assert opening["data"]["owes"] == [] == opening["data"]["actions"]
    assert opening["data"]["seat"] is None and opening["data"]["owed"] == game["owed"]


def test_a_feed_starts_with_the_callers_open_turns(shared_server):
    base = shared_server
    gid, seats = table(base)
    game = requests.get(f"{base}/v1/games/{gid}").json()
    owing = seats[game["owed"][0]["seat"]]
    for player, expected in [(owing, 1), (seats[(game["owed"][0]["seat"] + 1) % 3], 0)]:
        url = f"{base}/v1/players/me/feed"
        with requests.get(url, headers=bearer(player), stream=True, timeout=30) as res:
            opening = frames(res, lambda f: len(f) >= 1)[0]
        assert opening["event"] == "turns" and "id" not in opening
        turns = opening["data"]["turns"]
        assert len(turns) == expected and opening["data"]["player"] == player["id"]
        assert (
            turns
            == requests.get(f"{base}/v1/players/me/turns", headers=bearer(player)).json()["turns"]
        )
        if expected:
            assert (turns[0]["game"], turns[0]["version"]) == (gid, game["version"])


def test_streams_of_a_revoked_token_end_within_a_heartbeat(shared_server):
    """The suite serves with SSE_HEARTBEAT_S=1 (tests/conftest.py)."""
    base = shared_server
    gid, seats = table(base)
    player = seats[0]
    extra = requests.post(f"{base}/v1/players/me/tokens", headers=bearer(player)).json()
    auth = {"Authorization": f"Bearer {extra['token']}"}
    urls = [f"{base}/v1/games/{gid}/events/stream", f"{base}/v1/players/me/feed"]
    ended: dict[str, float] = {}

    def follow(url: str) -> None:
        with requests.get(url, headers=auth, stream=True, timeout=30) as res:
            assert res.status_code == 200
            for _ in res.iter_lines():
                pass
        ended[url] = time.monotonic()

    threads = [threading.Thread(target=follow, args=(u,), daemon=True) for u in urls]
    for t in threads:
        t.start()
    time.sleep(1.5)  # both open and past a heartbeat
    assert not ended
    revoked = time.monotonic()
    res = requests.delete(f"{base}/v1/players/me/tokens/{extra['id']}", headers=bearer(player))
    assert res.status_code == 204
    for t in threads:
        t.join(10)
    assert set(ended) == set(urls), "a stream went on after its token was revoked"
    assert max(ended.values()) - revoked < 1 + 1.0  # one heartbeat, and slack for a busy machine
    # the other token of the same player still streams
    with requests.get(urls[0], headers=bearer(player), stream=True, timeout=30) as res:
        assert frames(res, lambda f: len(f) >= 1)[0]["event"] == "owes"


def test_an_owes_frame_follows_the_append_that_gives_the_seat_a_turn_and_only_then(
    shared_server,
):
    """Live: a seat's stream gets an `owes` frame (with its legal actions) when another
    seat's move gives it a decision; in a simultaneous phase, other seats' submissions
    send it no new one (it still owes the same decision at the version it read)."""
    base = shared_server
    gid, seats = table(base)
    url = f"{base}/v1/games/{gid}"
    game = requests.get(url).json()
    first = game["owed"][0]["seat"]
    order = game["order"]  # Goblin Market's open bidding goes round the table
    nxt = order[(order.index(first) + 1) % len(order)]
    with requests.get(
        f"{url}/events/stream", headers=bearer(seats[nxt]), stream=True, timeout=30
    ) as res:
        lines = res.iter_lines(decode_unicode=True)
        opening = next_frame(lines)
        assert opening["event"] == "owes" and opening["data"]["owes"] == []
        passed = requests.post(
            f"{url}/actions", json={"type": "pass"}, headers=bearer(seats[first])
        )
        assert passed.status_code == 201 and passed.json()["owed"][0]["seat"] == nxt
        while (frame := next_frame(lines))["event"] != "owes":
            assert frame["data"]["seq"] <= passed.json()["version"]
        signal = frame["data"]
    legal = requests.get(f"{url}/legal", headers=bearer(seats[nxt])).json()
    assert signal["version"] == passed.json()["version"] == legal["version"]
    assert signal["owes"] == legal["owed"] and signal["owes"][0]["seat"] == nxt
    assert signal["actions"] == legal["actions"]

    gid, seats = table(base, "black-market")  # it opens with secret production, owed by all
    url = f"{base}/v1/games/{gid}"
    with requests.get(
        f"{url}/events/stream", headers=bearer(seats[0]), stream=True, timeout=30
    ) as res:
        lines = res.iter_lines(decode_unicode=True)
        opening = next_frame(lines)
        assert [o["kind"] for o in opening["data"]["owes"]] == ["produce"]
        for seat in (1, 2):
            legal = requests.get(f"{url}/legal", headers=bearer(seats[seat])).json()
            action = random_action(random.Random(seat), legal["actions"])
            res2 = requests.post(f"{url}/actions", json=action, headers=bearer(seats[seat]))
            assert res2.status_code == 202, res2.text
        last = res2.json()["version"]
        frames_ = []
        while not frames_ or frames_[-1]["data"].get("seq") != last:
            frames_.append(next_frame(lines))
        assert all(f["event"] != "owes" for f in frames_)  # no duplicate signal
        mine = requests.get(f"{url}/legal", headers=bearer(seats[0])).json()
        sent = requests.post(
            f"{url}/actions",
            json=random_action(random.Random(0), mine["actions"]),
            headers={**bearer(seats[0]), "If-Match": f'"{opening["data"]["version"]}"'},
        )
        assert sent.status_code == 202, sent.text  # the version it read still stands
        while (frame := next_frame(lines))["event"] != "owes":
            pass
        assert frame["data"]["owes"] == [] and frame["data"]["version"] == sent.json()["version"]


def next_frame(lines) -> dict:
    """The next frame with data of an SSE line iterator."""
    frame: dict = {}
    ends = time.monotonic() + 20
    for line in lines:
        assert time.monotonic() < ends, "no frame for 20 s"  # heartbeats come every second
        if line.startswith(("id: ", "event: ")):
            name, _, value = line.partition(": ")
            frame[name] = value
        elif line.startswith("data: "):
            frame["data"] = json.loads(line[6:])
        elif line == "" and "data" in frame:
            return frame
    raise AssertionError("the stream ended")
