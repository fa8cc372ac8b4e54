"""Invitations cannot be turned into a flood (#49.5): a player sends only so many an hour,
and so many to one player, withdrawn ones included; many invitations never push another
sender's out of the invitee's list; and concurrent handle updates leave one handle bound."""

from __future__ import annotations

import threading

import pytest
import requests

from cli.compose import create_app
from tests.api.helpers import bearer, new_players
from tests.conftest import TEST_CONFIG

LIMITS = ("INVITES_PER_HOUR", "INVITES_PER_TARGET")


@pytest.fixture
def limited(redis_url):
    """An app with the invitation limits as the server sets them by default."""
    config = {k: v for k, v in TEST_CONFIG.items() if k not in LIMITS}
    return create_app({**config, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}).test_client()


def _invite(client, sender: dict, targets: list[dict], players: int = 3):
    body = {"ruleset": "goblin-market", "players": players, "invite": [t["id"] for t in targets]}
    return client.post("/v1/games", json=body, headers=bearer(sender))


def _invitations(client, player: dict) -> list[dict]:
    return client.get("/v1/players/me/invitations", headers=bearer(player)).get_json()[
        "invitations"
    ]


def test_inviting_and_withdrawing_in_a_loop_is_stopped(limited):
    """150 invitations were sent and withdrawn in 1.6 s, each a note on the victim's feed."""
    spammer, victim = new_players(limited, 2, prefix="sp")
    for _ in range(3):
        game = _invite(limited, spammer, [victim])
        assert game.status_code == 201
        assert limited.delete(
            f"/v1/games/{game.get_json()['id']}", headers=bearer(spammer)
        ).status_code in (200, 204)
    refused = _invite(limited, spammer, [victim])
    assert refused.status_code == 429, refused.get_json()
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.get_json()["code"] == "too_many_invitations"
    assert int(refused.headers["Retry-After"]) >= 1
    assert _invitations(limited, victim) == []  # nothing written for the refused one
    # the sender's own budget: 30 an hour, all its tokens together
    others = new_players(limited, 30, prefix="to")
    second = limited.post("/v1/players/me/tokens", headers=bearer(spammer)).get_json()
    sent = 3
    for i in range(0, 25, 5):
        assert (
            _invite(limited, spammer if i % 2 else second, others[i : i + 5], 6).status_code == 201
        )
        sent += 5
    assert sent == 28
    over = _invite(limited, second, others[25:28], 4)
    assert over.status_code == 429 and over.get_json()["code"] == "too_many_invitations"
    # someone else is not held back by it
    assert _invite(limited, others[29], [victim]).status_code == 201


def test_many_invitations_never_push_a_friends_out_of_the_list(limited):
    """110 waiting invitations pushed a friend's real one off the newest-100 list."""
    friend, victim = new_players(limited, 2, prefix="fr")
    real = _invite(limited, friend, [victim]).get_json()["id"]
    spammers = new_players(limited, 37, prefix="sy")
    for spammer in spammers:
        for _ in range(3):
            assert _invite(limited, spammer, [victim]).status_code == 201
    listed = [i["game"] for i in _invitations(limited, victim)]
    assert len(listed) == 100 and real in listed
    assert listed.index(real) < 38  # among the newest of each sender


def test_concurrent_handle_updates_leave_exactly_one_handle_bound(live_server):
    """Eight concurrent PATCH /players/me left four extra handles bound for ever."""
    base = live_server
    ana = requests.post(f"{base}/v1/players", json={"name": "Ana"}).json()
    wanted = [f"ana_{i}" for i in range(8)]
    for _ in range(3):  # a few rounds: the race is a matter of timing
        barrier = threading.Barrier(len(wanted))

        def patch(handle: str) -> None:
            barrier.wait()
            res = requests.patch(
                f"{base}/v1/players/me", json={"handle": handle}, headers=bearer(ana), timeout=10
            )
            assert res.status_code == 200, res.text

        threads = [threading.Thread(target=patch, args=(h,)) for h in wanted]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        me = requests.get(f"{base}/v1/players/me", headers=bearer(ana)).json()
        assert me["handle"] in wanted
        bound = []
        for handle in wanted:  # a free handle can be registered; a bound one is taken
            res = requests.post(f"{base}/v1/players", json={"name": "x", "handle": handle})
            if res.status_code == 409:
                bound.append(handle)
            else:
                assert res.status_code == 201
        assert bound == [me["handle"]], bound
        wanted = [f"{h}x" for h in wanted]
