"""The e-mail channel end to end: the API in process, a real `marketfold worker`, and a
real SMTP server on loopback (aiosmtpd) that receives and parses every message."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import pytest

from events import keys, notify_keys
from service.notify import prefs
from tests.api.helpers import bearer, new_game, new_players
from tests.notify import smtp_sink
from tests.notify.smtp_sink import html_of, text_of

BASE = "http://play.example"
SETTINGS = "/v1/players/me/notification-settings"


@pytest.fixture
def smtp():
    controller, sink, url = smtp_sink.start()
    yield sink, url
    controller.stop()


def _worker(worker_process, url: str, delay: str = "1"):
    return worker_process(
        MARKETFOLD_SMTP_URL=url,
        MARKETFOLD_PUBLIC_URL=BASE,
        MARKETFOLD_NOTIFY_LIVE_DELAY_S=delay,
        MARKETFOLD_SMTP_FROM="marketfold <noreply@play.example>",
    )


def _verified(app, player: dict, address: str, lang: str = "en") -> None:
    """Give a player a verified address directly (the link itself is tested below)."""
    deps = app.extensions["marketfold"]
    settings = prefs.load(deps, player["id"])
    prefs.save(
        deps,
        player["id"],
        {**settings, "lang": lang, "email": {"address": address, "verified": True}},
    )


def _inbox(client, player) -> list[dict]:
    res = client.get("/v1/players/me/notifications?limit=100", headers=bearer(player))
    return res.get_json()["notifications"]


def _owing(client, gid: str, players: list[dict]) -> list[dict]:
    out = []
    for p in players:
        game = client.get(f"/v1/games/{gid}", headers=bearer(p)).get_json()
        if any(o["seat"] == game["you"] for o in game["owed"]):
            out.append(p)
    return out


def test_an_address_is_verified_by_its_link_before_any_notification_is_mailed_to_it(
    client, app, smtp, worker_process
):
    sink, url = smtp
    _worker(worker_process, url)
    players = new_players(client, 3)
    addresses = {p["id"]: f"{p['name']}@example.org" for p in players}
    for p in players:
        res = client.patch(SETTINGS, json={"email": addresses[p["id"]]}, headers=bearer(p))
        assert res.get_json()["email"] == {"address": addresses[p["id"]], "verified": False}
    # nothing but the verification link goes to an unverified address
    gid = new_game(client, players, decision_timeout_s=600)
    mails = sink.wait(3)
    assert {m["To"] for m in mails} == set(addresses.values())
    assert all(m["Subject"] == "Confirm your e-mail address for marketfold" for m in mails)
    time.sleep(2)  # past the live delay: the first turn is not mailed to an unverified address
    assert len(sink.messages) == 3
    mail = mails[0]
    link = next(w for w in text_of(mail).split() if w.startswith(BASE + "/v1/notifications/verify"))
    owner = next(p for p in players if addresses[p["id"]] == mail["To"])
    assert client.get(link.removeprefix(BASE).replace("token=", "token=x")).status_code == 422
    page = client.get(link.removeprefix(BASE))
    assert page.status_code == 200 and mail["To"] in page.get_data(as_text=True)
    assert "<h1>Address verified</h1>" in page.get_data(as_text=True)
    got = client.get(SETTINGS, headers=bearer(owner)).get_json()
    assert got["email"] == {"address": mail["To"], "verified": True}
    # a later change of address needs its own verification; the old link no longer works
    client.patch(SETTINGS, json={"email": "new@example.org"}, headers=bearer(owner))
    assert client.get(link.removeprefix(BASE)).status_code == 422
    assert gid


def test_a_turn_is_mailed_in_the_players_language_with_the_table_link_and_one_click_unsubscribe(
    client, app, smtp, worker_process
):
    sink, url = smtp
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=600)
    owing = _owing(client, gid, players)
    assert len(owing) == 1  # Goblin Market: one seat at a time
    me = owing[0]
    _verified(app, me, "ana@example.org", lang="es")
    for p in players:
        if p is not me:
            _verified(app, p, f"{p['name']}@example.org")
    # the notification was planned before the addresses existed: write the turn again
    deps = app.extensions["marketfold"]
    turn = next(n for n in _inbox(client, me) if n["type"] == "your_turn")
    deps.redis.zadd(keys.notify_due(), {f"notify|{me['id']}|{turn['id']}": time.time()})
    _worker(worker_process, url)
    (mail,) = sink.wait(1, where=lambda m: m["To"] == "ana@example.org")
    assert mail["Subject"] == "Tu turno en Goblin Market"
    assert mail["Message-ID"] == f"<{turn['id']}.{_target('ana@example.org')}@play.example>"
    assert mail["X-Marketfold-Notification"] == turn["id"]
    assert f"{BASE}/#/g/{gid}" in text_of(mail)
    assert f'href="{BASE}/#/g/{gid}"' in html_of(mail)
    assert "Abrir la mesa" in html_of(mail) and "te espera" in text_of(mail)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    leave = mail["List-Unsubscribe"].strip("<>")
    assert leave.startswith(BASE + "/v1/notifications/unsubscribe?token=")
    time.sleep(1.5)
    assert sink.to("ana@example.org") == [mail]  # once; the others owe nothing
    assert not [m for m in sink.messages if m["To"] != "ana@example.org"]
    # RFC 8058: the mail client POSTs, without any login
    path = urlsplit(leave)
    page = client.get(f"{path.path}?{path.query}")
    assert page.status_code == 200 and "<form method='post'" in page.get_data(as_text=True)
    # in her language, naming the kind of e-mail it stops as the settings do
    assert page.headers["Content-Language"] == "es"
    assert "Dejar de recibir los correos de este tipo: Tu turno." in page.get_data(as_text=True)
    assert client.get(SETTINGS, headers=bearer(me)).get_json()["types"]["your_turn"]["email"]
    res = client.post(
        f"{path.path}?{path.query}",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert res.status_code == 200, res.get_json()
    assert res.get_json() == {"unsubscribed": {"type": "your_turn", "channel": "email"}}
    settings = client.get(SETTINGS, headers=bearer(me)).get_json()
    assert settings["types"]["your_turn"]["email"] is False
    assert settings["types"]["invitation"]["email"] is True  # per type
    forged = client.post(f"{path.path}?token=x{path.query[7:]}")
    assert forged.status_code == 422 and forged.get_json()["code"] == "invalid_token"


def _target(address: str) -> str:
    from service.notify.email import target_id

    return target_id(address)


def test_a_turn_seen_live_read_or_already_made_is_not_mailed_and_one_left_alone_is(
    client, app, smtp, worker_process
):
    """Black Market opens with a simultaneous decision for every seat: one seat answers at
    once, one reads the notification, one holds its feed open, one does nothing."""
    sink, url = smtp
    players = new_players(client, 4)
    for p in players:
        _verified(app, p, f"{p['name']}@example.org")
    gid = new_game(client, players, ruleset="black-market", decision_timeout_s=600)
    made, read, live, away = players
    assert len(_owing(client, gid, players)) == 4
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(made)).get_json()
    import random

    from tests.api.helpers import random_action
    from tests.api.wild_trade import act

    act(client, gid, made, random_action(random.Random(1), legal["actions"]))
    turn = next(n for n in _inbox(client, read) if n["type"] == "your_turn")
    client.post(f"/v1/players/me/notifications/{turn['id']}/read", headers=bearer(read))
    deps = app.extensions["marketfold"]
    slot = keys.open_streams(f"player:{live['id']}")  # as an open feed keeps its place
    deps.redis.zadd(slot, {"test": int(time.time() * 1000) + 60_000})
    _worker(worker_process, url, delay="2")
    (mail,) = sink.wait(1)
    assert mail["To"] == f"{away['name']}@example.org"
    time.sleep(2)
    assert len(sink.messages) == 1
    # every delivery was decided: nothing of these turns is left due
    due = [m for t in (True, False) for m in deps.redis.zrange(keys.notify_due(t), 0, -1)]
    assert not [m for m in due if m.startswith((b"deliver|", b"notify|"))], due
    log = [
        json.loads(x) for x in deps.redis.lrange(notify_keys.player_notify_log(away["id"]), 0, -1)
    ]
    assert [e["outcome"] for e in log] == ["sent"]
