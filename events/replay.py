"""The audit's replay (events.audit.verify): fold a game's log and decide every recorded
command again, with the game's own rules (at the version it was played with) and the
revealed seed; every event must be the one the rules produce, and the result recounted.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import games
from events import catalog, codec, ending, envelope, redecide, seating
from events.fold import fold
from events.record import Record
from events.redact import is_private
from events.report import Check
from events.times import Clock
from games.base import RuleViolation
from games.rng import Rng


def _groups(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    groups: list[list[dict[str, Any]]] = []
    for env in events:
        if "command" in env or not groups:
            groups.append([env])
        else:
            groups[-1].append(env)
    return groups


def run(events, seed: bytes, seed_check: Check, replay: Check, result: Check, clock: Clock):
    """Fold the log and decide every recorded command again with the game's own rules
    and the revealed seed: each event must be what the rules produce (`replay`), each
    command's draws continue from the last (`seed_check`), the times are checked on the
    way (`clock`), and the final result is recounted (`result`)."""
    ruleset, version = events[0]["data"].get("ruleset"), events[0]["data"].get("rules_version")
    if games.get(ruleset, version) is None:
        replay.fail(1, f"no rules {ruleset!r} at version {version} to replay with", code="no_rules")
        result.fail(None, "not checked: no rules to replay with", code="unchecked_no_rules")
        return
    rec = Record(events[0]["data"].get("game_id", ""))
    draws = 0
    for group in _groups(events):
        first, cmd = group[0], group[0].get("command", {})
        if cmd.get("type") == "create":
            if not _creation(group):
                replay.fail(
                    group[-1]["seq"],
                    "game.Created must stand alone (or with its game.Terms), public, by system",
                    code="creation_wrong",
                )
                return result.fail(None, "not checked: the replay stopped", code="unchecked_replay")
            for env in group:
                rec = fold(rec, env)
            continue
        clock.command(rec, first)
        if (start := first.get("draws", [draws])[0]) != draws:
            seed_check.fail(
                first["seq"],
                f"event {first['seq']}: its draws start at draw {start}, but the command before "
                f"it ended at draw {draws}: each command's draws continue from the last",
                code="draws_gap",
            )
        expected = _expected(rec, cmd, seed, first, replay)
        if expected is None:
            return result.fail(None, "not checked: the replay stopped", code="unchecked_replay")
        envs, used, ends = expected
        logged = first.get("draws")
        if logged != (used if used[0] != used[1] else None):
            seed_check.fail(
                first["seq"], f"the command drew {used}, the log says {logged}", code="draws_differ"
            )
        draws = used[1]
        body = [env for env in group if env["type"] != catalog.ENDED]
        if not _same(envs, body, replay) or ends != (len(body) < len(group)):
            replay.fail(
                group[-1]["seq"],
                "the game should end here"
                if ends
                else "game.Ended where the rules do not end the game",
                code="end_misplaced",
            )
            return result.fail(None, "not checked: the replay stopped", code="unchecked_replay")
        for env in group:
            clock.event(rec, env)
            rec = fold(rec, env)
    if seed_check.ok:
        seed_check.detail = f"commitment matches; {draws} draws re-derived{_seats_part(rec)}"
    if replay.ok:
        replay.detail = f"{len(_groups(events))} commands decided again, every event equal"
    _check_result(rec, next(e for e in reversed(events) if "private" not in e), result)


def _seats_part(rec: Record) -> str:
    """Say what the seats added to the draw key (seed rule 2), for the seed check's detail."""
    if not rec.seeds_combined:
        return ""
    revealed = sorted(s for s, _ in rec.reveals)
    withheld = sorted(set(rec.committed()) - set(revealed))
    part = f" from the seed combined with the secrets of seats {revealed}"
    return part + (f" (seats {withheld} committed and never revealed)" if withheld else "")


def _creation(group: list[dict[str, Any]]) -> bool:
    """Return True for a creation as the service writes it: game.Created, maybe followed by
    the table's game.Terms, each public and by system."""
    types = [env["type"] for env in group]
    public = all((env["actor"], env["visible_to"]) == ("system", "all") for env in group)
    return public and types in ([catalog.CREATED], [catalog.CREATED, catalog.TERMS])


def _expected(rec: Record, cmd: dict, seed: bytes, first: dict, replay: Check):
    rng = Rng(rec.draw_seed(seed), rec.draws)  # rule 2: combined with the seats' secrets
    start = rec.draws
    try:
        actor, evs = redecide.command(rec, cmd, rng)
    except seating.NotSeated as e:
        seat = first.get("actor")
        holder = next((s for s in rec.seats if s.seat == seat), None)
        held = f"seat {seat} is {holder.player} ({holder.name})" if holder else f"no seat {seat}"
        replay.fail(
            first["seq"],
            f"the {cmd.get('type')} command names player {e}, who is not seated in this game; "
            f"its events are by seat {seat}, and {held}",
            code="not_seated",
        )
        return None
    except (RuleViolation, KeyError, ValueError) as e:
        replay.fail(
            first["seq"],
            f"the rules refuse this {cmd.get('type')} command: {e}",
            code="rules_refuse",
        )
        return None
    private = partial(is_private, rec.game)
    built = envelope.build(evs, rec.version, actor, "", "", rec.private, private)
    envs = [(e["type"], e["data"], e["visible_to"], e["actor"], "private" in e) for e in built]
    after = rec
    for env in built:
        after = fold(after, {**env, "hash": ""})
    ends = ending.ends_now(after)
    return envs, [start, rng.counter], ends


def _same(expected: list[tuple], group: list[dict[str, Any]], replay: Check) -> bool:
    if not group:
        return not expected
    for i, env in enumerate(group):
        if i >= len(expected):
            replay.fail(
                env["seq"], f"the rules do not produce {env['type']} here", code="not_produced"
            )
            return False
        kind, data, visible, actor, private = expected[i]
        got = (env["type"], env["data"], env["visible_to"], env["actor"], "private" in env)
        if got != (kind, data, visible, actor, private):
            what = "type" if kind != env["type"] else "data" if data != env["data"] else "rest"
            if got[:4] == (kind, data, visible, actor):
                what = "log (private or public)"
            replay.fail(
                env["seq"],
                f"{env['type']}: the {what} differs from what the rules "
                f"decide ({kind} {json.dumps(data)[:200]})",
                code="event_differs",
            )
            return False
    if len(expected) > len(group):
        replay.fail(
            group[-1]["seq"],
            f"the rules also produce {expected[len(group)][0]}",
            code="event_lacking",
        )
        return False
    return True


def _check_result(rec: Record, last: dict[str, Any], check: Check) -> None:
    if last.get("type") != catalog.ENDED:
        return check.fail(None, "the game has not ended", code="not_ended")
    if (last["actor"], last["visible_to"]) != ("system", "all"):
        return check.fail(last["seq"], "game.Ended must be public and by system", code="end_wrong")
    recount = ending.result(rec, ending.reason(rec) or "")
    if _json(recount) != last["data"]["result"]:
        return check.fail(
            last["seq"], "the logged result differs from a recount", code="result_differs"
        )
    check.detail = f"winners {recount['winners']}, standings recounted"


def _json(value: Any) -> Any:
    return codec.normal(value)
