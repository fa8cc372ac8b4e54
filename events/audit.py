"""Verify an exported game without trusting the server: chain, seed, every command, result,
the header against the log, and the times.

Works offline on a bundle (see `bundle`), for every game in the registry: it folds the
log with the game's own rules and decides every recorded command again (events.replay);
the report is events.report's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from events import binding, catalog, codec, proof_checks
from events import replay as replaying
from events.bundle import check as check_shape
from events.bundle_schema import FORMAT
from events.fold import in_order
from events.record import Record, Seat
from events.report import Check, Report  # the audit's report (events.report)
from events.times import Clock
from games.rng import commitment


def bundle(
    record: Record,
    envelopes: list[dict[str, Any]],
    seed: str | None,
    private: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Return a self-contained export of a game: metadata, every envelope, the seed, and
    (a finished game's) private steps."""
    out = {
        "format": FORMAT,
        "game": {
            "id": record.game_id,
            "ruleset": record.ruleset,
            "rules_version": record.game.rules_version if record.ruleset else None,
            "status": record.status,
            "players": record.players,
            "options": record.options,
            "decision_timeout_s": record.decision_timeout_s,
            "league": record.league,
            "seats": [_seat(s) for s in record.seats],
            "version": record.version,
        },
        "events": envelopes,
        "seed": seed,
    }
    if private:
        out["private"] = private
    return out


def verify(
    data: dict[str, Any],
    trusted: Mapping[str, Any] | None = None,
    seen: Mapping[str, Any] | None = None,
    consistency: list[str] | None = None,
    windows: Mapping[str, Any] | None = None,
) -> Report:
    """Check a bundle: hash chain, seed and draws, every command decided again, result,
    the header against the log, and the times. With `trusted` keys ({kid: public key}),
    also that one of them signed it (events.signature) and that its leaves are in a
    signed tree head of the public log of games (events.transparency); with a tree head
    or receipt `seen` earlier, that the bundle's head extends it (`consistency`: the
    RFC 9162 proof between the two, hex) and its leaves are the ones seen; with the keys'
    `windows` (events.keylog), that each signature is dated inside its key's. A bundle not
    of the published shape, or beyond its bounds, raises BundleError."""
    check_shape(data)
    events = data.get("events") or []
    private = data.get("private") or []
    header = data.get("game") if isinstance(data.get("game"), dict) else {}
    report = Report(str(header.get("id", "?")), len(events))
    chain, seed_check = Check("hash chain"), Check("seed and random draws")
    replay, result = Check("every command decided again"), Check("final result recounted")
    bound, times = Check("header bound to the log"), Check("times and deadlines")
    report.checks = [chain, seed_check, replay, result, bound, times]
    if trusted is not None:
        proof_checks.run(data, trusted, seen, consistency, report, windows)
    if data.get("format") != FORMAT or not events:
        chain.fail(None, f"not a {FORMAT} bundle with events", code="not_a_bundle")
        return report
    logged_id = binding.from_log(events)["id"]
    report.game_id = str(logged_id) if logged_id else report.game_id
    check_chain(events, chain)
    if chain.ok and private:
        _check_private(private, len(events), chain)
    if problems := binding.disagreements(header, events):
        bound.fail(1, "; ".join(problems), code="header_differs")
    else:
        bound.detail = "id, ruleset, rules version, options, seats, timeout, league as logged"
    clock = Clock()
    merged = in_order(events, private) if private else events
    clock.order(merged)
    seed = _check_seed(data, events, seed_check)
    if chain.ok and seed is not None:
        replaying.run(merged, seed, seed_check, replay, result, clock)
    else:
        for check in (replay, result):
            check.fail(
                None, "not checked: the chain or the seed failed", code="unchecked_chain_or_seed"
            )
    _check_times(clock, times, replay.ok and chain.ok and seed is not None)
    return report


def _check_times(clock: Clock, check: Check, replayed: bool) -> None:
    if clock.problems:
        check.fail(
            clock.problems[0][0], "; ".join(p for _, p in clock.problems[:20]), code="times_wrong"
        )
    elif not replayed:
        check.fail(
            None, "deadlines not checked: the replay did not finish", code="unchecked_replay"
        )
    else:
        check.detail = "times never go backwards; every action, default, resolution in time"


def check_chain(events: list[dict[str, Any]], check: Check) -> None:
    """Check the hash chain of a log's envelopes (a game's or a league's)."""
    prev = codec.GENESIS
    for i, env in enumerate(events, start=1):
        if env.get("seq") != i:
            return check.fail(
                i,
                f"event {i} is missing or moved (found seq {env.get('seq')})",
                code="event_missing",
            )
        if env.get("redacted"):
            return check.fail(
                i,
                "redacted event: only a finished game's export verifies fully",
                code="event_redacted",
            )
        if env.get("prev") != prev:
            return check.fail(
                i, "prev does not name the previous event's hash", code="prev_mismatch"
            )
        if codec.chain_hash(env) != env.get("hash"):
            return check.fail(i, "hash does not match the event's contents", code="hash_mismatch")
        prev = env["hash"]
    check.detail = f"{len(events)} events linked"


def _check_private(steps: list[dict[str, Any]], public: int, check: Check) -> None:
    """Check the private log: numbered 1, 2, ... in its own hash chain, each step after an
    event of the log, never before the one the step before it followed."""
    prev, after = codec.GENESIS, 1
    for i, env in enumerate(steps, start=1):
        seq = env.get("seq")
        if env.get("private") != i:
            return check.fail(seq, f"private step {i} is missing or moved", code="private_missing")
        if not isinstance(seq, int) or not after <= seq <= public:
            return check.fail(
                seq,
                f"private step {i} follows no event of the log in order",
                code="private_out_of_order",
            )
        if env.get("redacted"):
            return check.fail(
                seq,
                "redacted private step: only a finished game's export verifies",
                code="private_redacted",
            )
        if env.get("prev") != prev or codec.chain_hash(env) != env.get("hash"):
            return check.fail(
                seq, f"private step {i} is not linked to the one before it", code="private_unlinked"
            )
        prev, after = env["hash"], seq
    check.detail += f"; {len(steps)} private steps linked"


def _check_seed(data: dict[str, Any], events: list[dict[str, Any]], check: Check) -> bytes | None:
    created = events[0]
    committed = created.get("data", {}).get("seed_commitment")
    if created.get("type") != catalog.CREATED or not committed:
        check.fail(
            1, "the first event is not game.Created with a seed commitment", code="no_commitment"
        )
        return None
    ended = events[-1] if events[-1].get("type") == catalog.ENDED else None
    in_ended = (ended or {}).get("data", {}).get("seed")
    revealed = data.get("seed") or in_ended
    if not revealed:
        check.fail(None, f"no seed revealed: {_unfinished(data, events)}", code="seed_not_revealed")
        return None
    if ended and in_ended != revealed:
        check.fail(
            ended["seq"],
            f"the bundle's seed {_short(revealed)} differs from the one game.Ended reveals "
            f"(event {ended['seq']}: {_short(in_ended)})",
            code="seed_differs",
        )
        return None
    try:
        seed = bytes.fromhex(revealed)
    except ValueError:
        check.fail(None, "the revealed seed is not hex", code="seed_not_hex")
        return None
    game_id = created["data"].get("game_id")
    expected = commitment(game_id, seed) if game_id else hashlib.sha256(seed).hexdigest()
    if expected != committed:
        check.fail(
            1,
            "the revealed seed does not match the commitment logged at creation",
            code="seed_mismatch",
        )
        return None
    return seed


def _unfinished(data: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """Say where a log without game.Ended stops, and what its header claims."""
    header = data.get("game") if isinstance(data.get("game"), dict) else {}
    claims = header.get("status"), header.get("version")
    said = f" (its header says {claims[0]}, {claims[1]} events)" if claims[0] == "finished" else ""
    return f"the bundle ends at event {len(events)}, before the game did{said}"


def _short(text: Any) -> str:
    text = str(text)
    return text if len(text) <= 20 else text[:16] + "..."


def _seat(s: Seat) -> dict[str, Any]:
    """A seat of the export's header: `computer` names a computer player's level."""
    mark = {"level": s.computer} if s.computer else None
    return {"seat": s.seat, "player": s.player, "name": s.name, "computer": mark}
