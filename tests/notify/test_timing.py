"""When a notification goes out: quiet hours in the player's time zone, the reminder point,
retries with backoff, the daily digest. The dispatcher's steps run here as a worker runs
them (service.notify.dispatch), on the real Redis and a real SMTP server."""

from __future__ import annotations

import datetime as dt
import json
import random
import time

import pytest

from cli.compose import create_app
from cli.embedded import free_port
from events import keys, notify_keys
from service.notify import dispatch, inbox, prefs
from tests.api.helpers import bearer, new_game, new_players, random_action
from tests.api.wild_trade import act
from tests.conftest import TEST_CONFIG
from tests.notify import smtp_sink
from tests.notify.smtp_sink import text_of


@pytest.fixture
def smtp():
    controller, sink, url = smtp_sink.start()
    yield sink, url
    controller.stop()


def _app(redis_url: str, smtp_url: str, delay: float = 0):
    cfg = {
        **TEST_CONFIG,
        "REDIS_URL": redis_url,
        "RQ_REDIS_URL": redis_url,
        "SMTP_URL": smtp_url,
        # a turn's plan is due once the player has had this long to see it live: none
        # here, so that each test runs the plans at once, as a worker does when they fall due
        "NOTIFY_LIVE_DELAY_S": delay,
        "PUBLIC_URL": "http://play.example",
    }
    return create_app(cfg)


def _three(redis_url: str, smtp_url: str, delay: float = 0):
    """An app mailing through `smtp_url`, its test client and dependencies, 3 players."""
    app = _app(redis_url, smtp_url, delay)
    client = app.test_client()
    return app, client, app.extensions["marketfold"], new_players(client, 3)


def _setup(app, player, **settings):
    deps = app.extensions["marketfold"]
    stored = prefs.load(deps, player["id"])
    email = {"address": f"{player['name']}@example.org", "verified": True}
    prefs.save(deps, player["id"], {**stored, "email": email, **settings})


def _due(deps, prefix: str) -> dict[str, float]:
    return {
        m.decode(): s
        for due_set in (keys.notify_due(turns=True), keys.notify_due())
        for m, s in deps.redis.zrange(due_set, 0, -1, withscores=True)
        if m.decode().startswith(prefix)
    }


def _plan_all(deps) -> None:
    """Run every notification's planning step, as a worker would."""
    for member in list(_due(deps, "notify|")):
        _, player, nid = member.split("|")
        dispatch.plan(deps, player, nid)


def _turn(client, player) -> dict:
    listed = client.get("/v1/players/me/notifications", headers=bearer(player)).get_json()
    return next(n for n in listed["notifications"] if n["type"] == "your_turn")


def test_quiet_hours_span_midnight_in_the_players_time_zone():
    settings = {
        "time_zone": "America/Mexico_City",
        "quiet_hours": {"start": "22:00", "end": "07:30"},
    }
    at = dt.datetime(2026, 11, 28, 5, 0, tzinfo=dt.UTC)  # 23:00 the day before in Mexico City
    assert prefs.quiet_until(settings, at) == dt.datetime(2026, 11, 28, 13, 30, tzinfo=dt.UTC)
    at = dt.datetime(2026, 11, 28, 12, 0, tzinfo=dt.UTC)  # 06:00 there
    assert prefs.quiet_until(settings, at) == dt.datetime(2026, 11, 28, 13, 30, tzinfo=dt.UTC)
    assert prefs.quiet_until(settings, dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.UTC)) is None
    assert prefs.quiet_until({**settings, "quiet_hours": None}, at) is None


def test_a_turn_in_quiet_hours_waits_for_their_end_while_other_news_goes_at_once(
    client, redis_url, smtp
):
    app, client, deps, players = _three(redis_url, smtp[1])
    now = dt.datetime.now(dt.UTC)
    quiet = {
        "start": f"{(now - dt.timedelta(hours=1)).hour:02d}:00",
        "end": f"{(now + dt.timedelta(hours=2)).hour:02d}:00",
    }
    for p in players:
        _setup(app, p, quiet_hours=quiet, types={"game_started": {"email": True}})
    gid = new_game(client, players, decision_timeout_s=7 * 24 * 3600)
    _plan_all(deps)
    due = _due(deps, "deliver|")
    ends = prefs.quiet_until({"quiet_hours": quiet}, now).timestamp()
    turns = [
        s
        for m, s in due.items()
        if inbox.find(deps, m.split("|")[2].split("-", 2)[2], m.split("|")[1])["type"]
        == "your_turn"
    ]
    started = [s for m, s in due.items() if s not in turns]
    assert len(turns) == 1 and abs(turns[0] - ends) < 1  # at the end of the quiet hours
    assert len(started) == 3 and all(s <= time.time() for s in started)  # now
    assert gid


def test_a_turns_plan_waits_for_the_live_delay_and_a_decision_made_meanwhile_schedules_nothing(
    client, redis_url, smtp
):
    """The common case at a table: the seat decides within the delay. Its turn's plan,
    due only then, finds the decision made and schedules no delivery and no reminder."""
    app, client, deps, players = _three(redis_url, smtp[1], delay=60)
    for p in players:
        _setup(app, p, reminder=0.25)
    gid = new_game(client, players, ruleset="black-market", decision_timeout_s=400)
    turn = _turn(client, players[0])
    member = f"notify|{players[0]['id']}|{turn['id']}"
    written = dt.datetime.fromisoformat(turn["at"].replace("Z", "+00:00")).timestamp()
    assert abs(_due(deps, member)[member] - (written + 60)) < 2  # due after the delay
    # a worker with a longer delay than the app that wrote it puts it off to its own time
    deps.config["NOTIFY_LIVE_DELAY_S"] = 90
    assert dispatch.plan(deps, players[0]["id"], turn["id"]) == "early"
    assert abs(_due(deps, member)[member] - (written + 90)) < 2
    deps.config["NOTIFY_LIVE_DELAY_S"] = 0  # now due
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(players[0])).get_json()
    act(client, gid, players[0], random_action(random.Random(1), legal["actions"]))
    assert dispatch.plan(deps, players[0]["id"], turn["id"]) == "noop"  # made meanwhile
    other = _turn(client, players[1])
    assert dispatch.plan(deps, players[1]["id"], other["id"]) == "sent"  # still owed
    mine, theirs = (f"|{p['id']}|" for p in players[:2])
    assert not [m for m in _due(deps, "remind|") if mine in m]
    assert [m for m in _due(deps, "remind|") if theirs in m]
    assert not [m for m in _due(deps, "deliver|") if m.endswith(players[0]["id"])]
    assert [m for m in _due(deps, "deliver|") if m.endswith(players[1]["id"])]


def test_a_reminder_comes_at_the_players_point_and_never_once_the_decision_is_made(
    client, redis_url, smtp
):
    app, client, deps, players = _three(redis_url, smtp[1])
    for p in players:
        _setup(app, p, reminder=0.25)
    gid = new_game(client, players, ruleset="black-market", decision_timeout_s=400)
    _plan_all(deps)
    reminders = _due(deps, "remind|")
    assert len(reminders) == 3  # every seat owes the opening production
    turn = _turn(client, players[0])
    deadline = dt.datetime.fromisoformat(turn["note"]["deadline"].replace("Z", "+00:00"))
    at = reminders[f"remind|{players[0]['id']}|{turn['id']}"]
    assert abs(at - (deadline.timestamp() - 100)) < 2  # 25% of 400 s left
    # seat 0 decides; seat 1 does not
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(players[0])).get_json()
    act(client, gid, players[0], random_action(random.Random(1), legal["actions"]))
    assert dispatch.remind(deps, players[0]["id"], turn["id"]) == "noop"
    other = _turn(client, players[1])
    assert dispatch.remind(deps, players[1]["id"], other["id"]) == "sent"
    assert dispatch.remind(deps, players[1]["id"], other["id"]) == "sent"  # a rerun adds none
    listed = client.get("/v1/players/me/notifications", headers=bearer(players[1])).get_json()
    reminded = [n for n in listed["notifications"] if n["type"] == "deadline_reminder"]
    assert len(reminded) == 1 and 0 < reminded[0]["note"]["left_s"] <= 400
    assert reminded[0]["title"] == "Time is running out in Black Market"
    assert not [
        n
        for n in client.get("/v1/players/me/notifications", headers=bearer(players[0])).get_json()[
            "notifications"
        ]
        if n["type"] == "deadline_reminder"
    ]


def test_a_failed_delivery_is_retried_with_backoff_and_sent_once_the_server_is_back(
    client, redis_url
):
    down = f"smtp://127.0.0.1:{free_port()}"  # nothing listens there
    app, client, deps, players = _three(redis_url, down)
    for p in players:
        _setup(app, p, types={"game_started": {"email": True}})
    new_game(client, players)
    planned = [m.split("|") for m in _due(deps, "notify|")]
    _, player, nid = next(x for x in planned if x[1] == players[0]["id"])
    dispatch.plan(deps, player, nid)
    (member,) = [m for m in _due(deps, "deliver|") if nid in m]
    key = member.split("|", 2)[2]
    assert dispatch.deliver(deps, nid, key) == "postponed"
    assert abs(_due(deps, "deliver|")[member] - (time.time() + 10)) < 2  # NOTIFY_RETRY_S[0]
    assert dispatch.deliver(deps, nid, key) == "postponed"
    assert abs(_due(deps, "deliver|")[member] - (time.time() + 60)) < 2  # then 60 s
    controller, sink, url = smtp_sink.start()
    try:
        deps.config["SMTP_URL"] = url
        assert dispatch.deliver(deps, nid, key) == "sent"
        assert dispatch.deliver(deps, nid, key) == "noop"  # a rerun sends nothing
        (mail,) = sink.wait(1)
        assert nid in mail["Message-ID"]
    finally:
        controller.stop()
    stored = deps.redis.lrange(notify_keys.player_notify_log(players[0]["id"]), 0, -1)
    log = [json.loads(x) for x in stored]
    assert [e["outcome"] for e in reversed(log)] == ["retry", "retry", "sent"]


def test_the_daily_digest_lists_the_unread_notifications_since_the_last_one(
    client, redis_url, smtp
):
    sink, url = smtp
    app, client, deps, players = _three(redis_url, url)
    me = players[0]
    res = client.patch(
        "/v1/players/me/notification-settings",
        headers=bearer(me),
        json={"digest_hour": 8, "time_zone": "Europe/Madrid"},
    )
    assert res.status_code == 200
    (due,) = _due(deps, f"digest|{me['id']}").values()
    local = dt.datetime.fromtimestamp(due, dt.UTC).astimezone(prefs.zone("Europe/Madrid"))
    assert (local.hour, local.minute) == (8, 0) and due - time.time() <= 24 * 3600
    _setup(app, me, digest_hour=8, time_zone="Europe/Madrid")
    new_game(client, players)
    assert dispatch.digest(deps, me["id"]) == "postponed"  # sent; due again tomorrow
    (mail,) = sink.wait(1)
    unread = client.get("/v1/players/me/notifications", headers=bearer(me)).get_json()["unread"]
    assert mail["Subject"] == f"Your marketfold day: {unread} unread"
    assert "Your Goblin Market game started" in text_of(mail)
    dispatch.digest(deps, me["id"])  # nothing new since
    time.sleep(0.3)
    assert len(sink.messages) == 1


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_the_smtp_url_s_user_and_password_log_in_and_a_refused_login_is_retried(client, redis_url):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    seen = []

    def check(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.password == b"s:cret"
        seen.append((auth_data.login, ok))
        return AuthResult(success=ok)

    sink, port = smtp_sink.Sink(), free_port()
    controller = Controller(
        sink,
        hostname="127.0.0.1",
        port=port,
        authenticator=check,
        auth_require_tls=False,
        auth_required=True,
    )
    controller.start()
    try:
        app = _app(redis_url, f"smtp://bo%40club.example:wrong@127.0.0.1:{port}")
        client = app.test_client()
        deps = app.extensions["marketfold"]
        players = new_players(client, 3)
        for p in players:
            _setup(app, p, types={"game_started": {"email": True}})
        new_game(client, players)
        _, player, nid = next(m.split("|") for m in _due(deps, "notify|") if players[0]["id"] in m)
        dispatch.plan(deps, player, nid)
        (member,) = [m for m in _due(deps, "deliver|") if nid in m]
        key = member.split("|", 2)[2]
        assert dispatch.deliver(deps, nid, key) == "postponed"  # kept for a fixed setting
        deps.config["SMTP_URL"] = f"smtp://bo%40club.example:s%3Acret@127.0.0.1:{port}"
        assert dispatch.deliver(deps, nid, key) == "sent"
        assert seen == [(b"bo@club.example", False), (b"bo@club.example", True)]
        assert len(sink.wait(1)) == 1
    finally:
        controller.stop()
