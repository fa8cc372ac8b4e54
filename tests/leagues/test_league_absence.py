"""Withdrawal for absence as a person would count it (leagues/absence.py), checked when a
default is applied, told to the member and the organizers, undone by reinstating."""

from __future__ import annotations

import json
import time

from events import keys
from leagues.absence import DAY, absent
from service import deadline_commands, league_queries, league_rounds
from tests.api.helpers import bearer
from tests.leagues.helpers import running_league
from tests.support.waiting import wait_for

RULE = {"withdraw_after_timeouts": 3, "absence_window": 10, "absence_share": 0.6, "absence_days": 7}


def test_a_share_of_recent_defaults_counts_not_only_a_run_of_them():
    # 24 of 44 defaulted, never three in a row: absent by share over the last ten
    pattern = [True, True, False] * 4 + [True, False] * 16
    marks = [(float(i), d) for i, d in enumerate(pattern[:44])]
    marks[-1] = (43.0, True)
    assert sum(d for _, d in marks) >= 24
    assert absent(marks, RULE, 44.0) == "6 of the last 10 decisions defaulted"
    # four misses in a row early, then playing: not absent
    early = [(float(i), i < 4) for i in range(12)] + [(12.0, True)]
    assert absent(early, RULE, 13.0) is None
    # a run of three is enough, and a move of one's own ends it
    run = [(1.0, False), (2.0, True), (3.0, True), (4.0, True)]
    assert absent(run, RULE, 5.0) == "3 decisions in a row defaulted"
    assert absent([*run, (5.0, False)], RULE, 6.0) is None
    assert absent(run, {**RULE, "withdraw_after_timeouts": 0}, 5.0) is None  # off


def test_days_without_a_move_count_but_not_the_days_away():
    now = 20 * DAY
    marks = [(10 * DAY, False), (19 * DAY, True)]
    rule = {**RULE, "withdraw_after_timeouts": 0, "absence_window": 0}
    assert absent(marks, rule, now) == "no move of their own for 10.0 days"
    away = [(11 * DAY, 15 * DAY)]  # four days declared away
    assert absent(marks, rule, now, away) is None
    assert absent(marks, {**rule, "absence_days": 5}, now, away) is not None
    assert absent([(10 * DAY, False)], rule, now) is None  # nothing defaulted


def feed(r, player) -> list[dict]:
    return [json.loads(f[b"n"]) for _, f in r.xrange(keys.player_feed(player["id"]))]


def test_a_default_withdraws_an_absent_member_at_once_and_reinstating_undoes_it(client, app, r):
    lid, op, players = running_league(
        client,
        app,
        4,
        rounds=2,
        table_size=4,
        cadence_s=2,
        decision_timeout_s=1,
        withdraw_after_timeouts=0,
        absence_window=1,
        absence_share=1,
        absence_days=0,
    )
    deps = app.extensions["marketfold"]
    gid = league_queries.load(deps, lid).rounds[1].tables[0].game
    rec = deps.store.load(gid).record
    owed = rec.owed()[0]
    late = next(p for p in players if p["id"] == rec.seats[owed.seat].player)
    time.sleep(1.05)
    assert deadline_commands.expire(deps, gid, owed.key) == "applied"  # as a worker does
    league = client.get(f"/v1/leagues/{lid}").get_json()
    member = next(m for m in league["members"] if m["player"] == late["id"])
    assert (member["withdrawn_from_round"], member["withdrawn_reason"]) == (2, "absence")
    log = client.get(f"/v1/leagues/{lid}/events").get_json()["events"]
    gone = next(e["data"] for e in log if e["type"] == "league.MemberWithdrawn")
    assert gone["why"] == "1 of the last 1 decisions defaulted" and gone["by"] == "timeouts"
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert [e["data"]["seat"] for e in events if e["type"] == "game.SeatResigned"] == [owed.seat]
    for who in (late, op):
        notes = [n for n in feed(r, who) if n["type"] == "withdrawn"]
        assert [(n["player"], n["reason"]) for n in notes] == [(late["id"], "absence")]
    back = client.post(f"/v1/leagues/{lid}/members/{late['id']}/reinstate", headers=bearer(op))
    assert back.status_code == 200 and back.get_json()["withdrawn_from_round"] is None
    assert [n["type"] for n in feed(r, late)][-1] == "reinstated"
    wait_for(lambda: league_rounds.start_round(deps, lid, 2) == "started", 5)
    second = league_queries.load(deps, lid).rounds[2]
    assert late["id"] in second.tables[0].players  # paired again: the absence was undone
