"""A module's shared API server (tests/conftest.py `shared_server`) answers each test as a
server of its own would, though Redis is flushed under it before every test: the secrets
it read once and keeps (the lobby's cursor key, the key of the links in e-mails) are the
ones the test's own app and the server's other process read after the flush. Run twice,
so that the second run meets a server that served before a flush."""

from __future__ import annotations

import pytest
import requests

from service.notify import signing, types
from tests.api.helpers import bearer, new_players


@pytest.mark.parametrize("run", ["first", "after a flush"])
def test_the_lobby_pages_and_an_emailed_link_work_across_the_server_and_the_app(
    run, shared_server, client, app
):
    (ana,) = new_players(client, 1)
    made = [
        client.post(
            "/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=bearer(ana)
        ).get_json()["id"]
        for _ in range(5)
    ]
    # the store holds this test's games only, and a cursor of either side reads on the other
    for start_with in ("server", "app"):
        ids, cursor, side = [], None, start_with
        while True:
            args = {"status": "waiting", "limit": 1, **({"cursor": cursor} if cursor else {})}
            if side == "server":  # either of its two processes answers
                res = requests.get(f"{shared_server}/v1/games", params=args, timeout=10)
                assert res.status_code == 200, res.text
                page = res.json()
            else:
                res = client.get("/v1/games", query_string=args)
                assert res.status_code == 200, res.get_json()
                page = res.get_json()
            ids += [g["id"] for g in page["games"]]
            side = "app" if side == "server" else "server"
            if not (cursor := page["next"]):
                break
        assert ids == made[::-1]

    # an unsubscribe link the app signed (as a worker's e-mail would) opens at the server
    kind = next(iter(types.CATALOG))
    token = signing.sign(
        app.extensions["marketfold"], "unsubscribe", {"p": ana["id"], "t": kind, "c": "email"}
    )
    for _ in range(4):  # both processes
        res = requests.get(
            f"{shared_server}/v1/notifications/unsubscribe", params={"token": token}, timeout=10
        )
        assert res.status_code == 200, res.text
