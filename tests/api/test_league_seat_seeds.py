"""League seats add their members' randomness (docs/fairness.md, "League seats";
service/league_seeds.py): the league seats each member, so the member's client registers
the end of a hash chain ahead of time; every table the league opens seats the member
committed to the chain's current end, the member's reveal is the link before it, and the
next table asks for the link before that. A member with nothing registered is seated
with no commitment, one who never reveals is withheld: neither holds the start up."""

from __future__ import annotations

import hashlib
import secrets
import time

from service import league_rounds, seed_reveals
from tests.api.helpers import bearer, new_players
from tests.leagues.helpers import in_seconds, new_league, operator

LINKS = 50


def h(b: bytes) -> bytes:
    return hashlib.sha256(b).digest()


class Chain:
    """A member's client: a random start, and the chain's end registered with the league."""

    def __init__(self) -> None:
        self.start = secrets.token_bytes(32)
        links = [self.start]
        for _ in range(LINKS):
            links.append(h(links[-1]))
        self.links = links

    @property
    def end(self) -> str:
        return self.links[-1].hex()

    def opening(self, commitment: str) -> str:
        """The link whose SHA-256 is `commitment`."""
        at = next(i for i, link in enumerate(self.links) if link.hex() == commitment)
        return self.links[at - 1].hex()


def test_league_seats_commit_with_the_chain_their_members_registered(client, app):
    deps = app.extensions["marketfold"]
    op = operator(client, app)
    members = new_players(client, 3, "lm")
    starts = time.monotonic() + 2
    lid = new_league(client, op, members, start_at=in_seconds(2))
    chains = [Chain(), Chain()]
    url = f"/v1/leagues/{lid}/seat-commitment"
    for m, chain in zip(members, chains, strict=False):  # the third registers nothing
        res = client.put(url, json={"seat_commitment": chain.end}, headers=bearer(m))
        assert res.status_code == 200, res.get_json()
        assert client.get(url, headers=bearer(m)).get_json()["seat_commitment"] == chain.end
    bad = client.put(url, json={"seat_commitment": "ABC"}, headers=bearer(members[2]))
    assert bad.status_code == 422 and "seat_commitment" in bad.get_json()["errors"]
    (stranger,) = new_players(client, 1, "x")
    res = client.put(url, json={"seat_commitment": chains[0].end}, headers=bearer(stranger))
    assert res.status_code == 404 and res.get_json()["code"] == "member_not_found"
    assert client.get(url, headers=bearer(members[2])).get_json()["seat_commitment"] is None

    time.sleep(max(0.0, starts - time.monotonic()) + 0.05)
    assert league_rounds.start_round(deps, lid, 1) == "started"
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    game = client.get(f"/v1/games/{gid}").get_json()
    seat = {s["player"]: s["seat"] for s in game["seats"]}
    assert game["status"] == "waiting"  # the reveals are open
    assert game["seat_seeds"]["committed"] == sorted(seat[m["id"]] for m in members[:2])
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    joined = {e["data"]["player"]: e["data"] for e in log if e["type"] == "game.PlayerJoined"}
    assert joined[members[0]["id"]]["commitment"] == chains[0].end
    assert "commitment" not in joined[members[2]["id"]]
    # the game says each seat's commitment, as logged: a member's client finds its link there
    assert game["seat_seeds"]["commitments"] == {
        str(seat[m["id"]]): c.end for m, c in zip(members, chains, strict=False)
    }

    opened = chains[0].opening(chains[0].end)
    res = client.post(
        f"/v1/games/{gid}/reveal", json={"seat_secret": opened}, headers=bearer(members[0])
    )
    assert res.status_code == 200 and res.get_json()["status"] == "waiting"
    # the member's next table asks for the link before the one revealed
    assert client.get(url, headers=bearer(members[0])).get_json()["seat_commitment"] == opened
    assert chains[0].opening(opened) != opened
    assert (
        client.get(url, headers=bearer(members[1])).get_json()["seat_commitment"] == chains[1].end
    )

    time.sleep(2.1)  # the window (SEED_REVEAL_S, 2 s here) is over: a worker's close
    assert seed_reveals.close_reveals(deps, gid) == "applied"
    log = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    combined = next(e for e in log if e["type"] == "game.SeedsCombined")["data"]
    assert combined["revealed"] == [seat[members[0]["id"]]]
    assert combined["withheld"] == [seat[members[1]["id"]]]
    assert combined["none"] == [seat[members[2]["id"]]]
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "active"
