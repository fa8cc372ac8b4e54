"""Workers killed (kill -9) while notifications are due: none is lost, and an e-mail sent
again (by a worker that died between the server's acceptance and its mark: at most one per
notifier thread of the killed worker) carries the same Message-ID, so it is recognisable;
a real SMTP server (aiosmtpd) counts them."""

from __future__ import annotations

from collections import Counter

from service import config
from service.notify import prefs
from tests.api.helpers import bearer, new_game, new_players
from tests.conftest import kill_group
from tests.notify import smtp_sink


def test_killed_workers_lose_no_notification_and_repeat_none_under_another_id(
    client, app, worker_process
):
    controller, sink, url = smtp_sink.start(delay=0.1)  # a slow server: kills land mid-send
    try:
        deps = app.extensions["marketfold"]
        players = new_players(client, 6)
        for p in players:
            email = {"address": f"{p['name']}@example.org", "verified": True}
            stored = prefs.load(deps, p["id"])
            prefs.save(
                deps,
                p["id"],
                {**stored, "email": email, "types": {"game_started": {"email": True}}},
            )
        for table in (players[:3], players[3:], players[1:4], players[2:5]):
            new_game(client, table, ruleset="black-market", decision_timeout_s=3600)
        expected = set()
        for p in players:
            listed = client.get("/v1/players/me/notifications?limit=100", headers=bearer(p))
            expected |= {
                n["id"]
                for n in listed.get_json()["notifications"]
                if n["type"] in ("your_turn", "game_started")
            }
        assert len(expected) == 24
        env = {
            "MARKETFOLD_SMTP_URL": url,
            "MARKETFOLD_NOTIFY_LIVE_DELAY_S": "1",
            "MARKETFOLD_CLAIM_S": "2",
        }
        kills = 0
        for arrived in (3, 8, 13):
            worker = worker_process(**env)
            sink.wait(arrived, timeout=60)
            kill_group(worker)
            kills += 1
        worker_process(**env)
        by_id = lambda: {m["X-Marketfold-Notification"] for m in sink.messages}  # noqa: E731
        sink.wait(len(expected), timeout=90, where=lambda m: len(by_id()) == len(expected))
        assert by_id() == expected  # none lost
        ids = Counter(m["Message-ID"] for m in sink.messages)
        again = sum(n - 1 for n in ids.values())
        # at most one per kill and notifier thread, and with the same Message-ID
        assert again <= kills * config.DEFAULTS["NOTIFY_THREADS"]
        assert len(ids) == len(expected)  # one Message-ID per notification and address
    finally:
        controller.stop()
