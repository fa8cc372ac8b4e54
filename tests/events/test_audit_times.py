"""Times are checked: a log whose times go backwards, a late move, an early default or an
early resolution does not verify, even with the hash chain forged to match."""

import copy
import random
import time
from datetime import timedelta

from events import audit, codec
from events import times as times_model
from service import deadline_commands
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.events.bundles import reseal


def times(report):
    return next(c for c in report.checks if c.name == "times and deadlines")


def commands(bundle: dict) -> list[list[dict]]:
    groups: list[list[dict]] = []
    for env in bundle["events"]:
        if "command" in env:
            groups.append([env])
        else:
            groups[-1].append(env)
    return groups


def shift(bundle: dict, start: int, by: timedelta | None = None, to: str | None = None) -> dict:
    """Move the times of the command at `start` (and with `by`, of every later event too),
    then rebuild the chain from there, as a careful forger would."""
    group = next(g for g in commands(bundle) if g[0]["seq"] == start)
    moved = bundle["events"][start - 1 :] if by is not None else group
    for env in moved:
        at = codec.parse_time(env["at"]) + by if by is not None else codec.parse_time(to)
        env["at"] = at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return reseal(bundle, start)


def at_iso(moment) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def finished(client, app, ruleset: str, timeout: int, seed: int = 1) -> dict:
    people = new_players(client, 3)
    gid = new_game(client, people, ruleset=ruleset, decision_timeout_s=timeout)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(seed))
    return client.get(f"/v1/games/{gid}/export").get_json()


def test_an_event_dated_2001_is_named(client, app):
    bundle = finished(client, app, "goblin-market", 3)
    assert audit.verify(bundle).ok
    act = next(g[0] for g in commands(bundle) if g[0]["command"]["type"] == "act")
    report = audit.verify(shift(bundle, act["seq"], to="2001-01-01T12:00:00.000Z"))
    check = times(report)
    assert not report.ok and check.seq == act["seq"]
    assert f"event {act['seq']}: dated 2001-01-01T12:00:00.000Z" in check.detail
    assert "time went backwards" in check.detail


def test_a_move_60_s_past_its_3_s_deadline_is_named_even_with_later_events_shifted(client, app):
    bundle = finished(client, app, "goblin-market", 3)
    assert audit.verify(bundle).ok  # played at once: every move well within 3 s plus grace
    acts = [g[0] for g in commands(bundle) if g[0]["command"]["type"] == "act"]
    late = acts[len(acts) // 2]
    report = audit.verify(shift(bundle, late["seq"], by=timedelta(seconds=60)))
    check = times(report)
    assert not report.ok and check.seq == late["seq"]
    assert f"event {late['seq']}: seat {late['actor']} acted at" in check.detail
    assert "after its deadline" in check.detail
    assert all(c.ok for c in report.checks if c is not check)  # only the times give it away


def test_a_default_applied_early_is_named_unless_the_seat_resigned(client, app, monkeypatch):
    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=1)
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    (owed,) = rec.owed()
    deadline = codec.parse_time(rec.deadline(owed.key))
    time.sleep(max(0.0, deadline.timestamp() - time.time()) + 0.05)
    assert deadline_commands.expire(deps, gid, owed.key) == "applied"
    seats = by_seat(client, gid, people)
    play_to_end(client, app, gid, seats, random.Random(3))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert audit.verify(bundle).ok  # the real default came after its deadline
    expired = next(g[0] for g in commands(bundle) if g[0]["command"]["type"] == "expire")
    early = at_iso(deadline - timedelta(milliseconds=300))
    forged = shift(copy.deepcopy(bundle), expired["seq"], to=early)
    report = audit.verify(forged)
    check = times(report)
    timed_out = next(e for e in forged["events"] if e["type"] == "game.DecisionTimedOut")
    assert not report.ok and check.seq == timed_out["seq"]
    assert f"event {timed_out['seq']}: the default for seat {owed.seat}" in check.detail
    assert "before its deadline" in check.detail
    # a seat that resigned earlier in the log has its defaults applied at once
    monkeypatch.setattr(times_model, "resigned", lambda rec: frozenset({owed.seat}))
    assert times(audit.verify(forged)).ok


def test_a_phase_resolved_before_its_last_submission_is_named(client, app):
    bundle = finished(client, app, "black-market", 600)
    resolve = next(g[0] for g in commands(bundle) if g[0]["command"]["type"] == "resolve")
    before = bundle["events"][resolve["seq"] - 2]  # the last submission's last event
    early = at_iso(codec.parse_time(before["at"]) - timedelta(seconds=5))
    report = audit.verify(shift(bundle, resolve["seq"], to=early))
    check = times(report)
    assert not report.ok and check.seq == resolve["seq"]
    assert f"event {resolve['seq']}: phase {resolve['command']['key']!r} resolved" in check.detail
    assert "before its last submission" in check.detail


def test_the_server_refuses_a_move_after_its_deadline_and_grace(client, app, monkeypatch):
    from events import deadlines

    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=1)
    seats = by_seat(client, gid, people)
    seat = client.get(f"/v1/games/{gid}").get_json()["owed"][0]["seat"]
    no_grace = deadlines.Tolerance(grace=timedelta(0), stamp_slack=timedelta(seconds=10))
    monkeypatch.setitem(deadlines.TIME_MODELS, 1, no_grace)  # no 30 s wait in a test
    time.sleep(1.1)
    res = client.post(
        f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(seats[seat])
    )
    assert res.status_code == 409 and res.get_json()["code"] == "deadline_passed"


def test_a_time_that_is_not_utc_is_named(client, app):
    bundle = finished(client, app, "goblin-market", 600)
    act = next(g[0] for g in commands(bundle) if g[0]["command"]["type"] == "act")
    for env in next(g for g in commands(bundle) if g[0] is act):
        env["at"] = env["at"].replace("Z", "+02:00")
    report = audit.verify(reseal(bundle, act["seq"]))
    assert (
        f"event {act['seq']}:" in times(report).detail and "not a UTC time" in times(report).detail
    )


def test_an_old_bundle_keeps_its_verdict_when_the_tolerances_change(client, app, monkeypatch):
    """The audit's tolerances are versioned with the games they judge (events.deadlines):
    a log without a time model (written before models were named) is judged by model 1
    forever; a new, laxer model judges only the games created under it."""
    from events import deadlines

    bundle = finished(client, app, "goblin-market", 3)
    created = bundle["events"][0]
    assert created["data"]["time_model"] == deadlines.CURRENT == 1  # named in every new game
    del created["data"]["time_model"]  # as logged before the models were named
    old = reseal(bundle, 1)
    acts = [g[0] for g in commands(old) if g[0]["command"]["type"] == "act"]
    late = acts[len(acts) // 2]
    old = shift(old, late["seq"], by=timedelta(seconds=60))  # 57 s past deadline + 40 s
    before = audit.verify(copy.deepcopy(old))
    assert not before.ok and "after its deadline" in times(before).detail

    lax = deadlines.Tolerance(grace=timedelta(seconds=120), stamp_slack=timedelta(seconds=10))
    monkeypatch.setitem(deadlines.TIME_MODELS, 2, lax)
    monkeypatch.setattr(deadlines, "CURRENT", 2)
    after = audit.verify(copy.deepcopy(old))
    assert after.to_text() == before.to_text()  # the same verdict, word for word

    under_2 = copy.deepcopy(old)
    under_2["events"][0]["data"]["time_model"] = 2  # a game played under the laxer model
    assert times(audit.verify(reseal(under_2, 1))).ok
    unknown = copy.deepcopy(old)
    unknown["events"][0]["data"]["time_model"] = 99
    check = times(audit.verify(reseal(unknown, 1)))
    assert not check.ok and "time model 99 is not one this audit knows" in check.detail
