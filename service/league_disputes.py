"""Disputes about a league's games and the organizer's rulings on them.

A player seated at a league game opens a dispute on it (or on one of its events: `seq`)
with a reason: `league.DisputeOpened` in the league's log; the table and the league's
organizers are told (feed note `dispute_opened`). An organizer (`league_organizers.
may_run`: one of its organizers, or an operator) records a ruling on a recorded game,
answering a dispute or not:
`league.DisputeRuled` with its kind, reason and who ruled, in the league's hash-chained
log (so exported and signed with it) and applied to the standings by `leagues.rulings`;
the table is told (`dispute_ruled`). A `replay` ruling also opens the replay: a new game
of the league for the same table (same players, same seats, the league's settings), id
`g_<league>_r<n>_t<t>_p<k>`, recorded like any other game, that counts in the first
one's place. What is refused is refused before anything is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import binding
from games.base import Event
from leagues import rulings
from leagues.record import League
from service import (
    game_evidence,
    game_queries,
    league_commands,
    league_followups,
    league_organizers,
    proof,
)
from service.errors import Conflict, Forbidden, Invalid, NotFound
from service.league_commands import NO_RETRY, Retry
from service.league_log import load

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def _table(league: League, game: str):
    where = league.table_of(game)
    if where is None:
        errors = {"game": [f"not a game of league {league.league_id}"]}
        raise Invalid("invalid_body", f"{game!r} is not a game of this league", errors=errors)
    return where


def open_dispute(
    boot: Bootstrap,
    league_id: str,
    player: str,
    game: str,
    seq: int | None,
    reason: str,
    retry: Retry = NO_RETRY,
) -> tuple[League, dict[str, Any]]:
    """Open a dispute about `game` (event `seq` of it, if given) for a seated player."""
    league = load(boot, league_id)
    _table(league, game)
    rec = boot.store.load(game).record
    seated = rec.seat_of(player) is not None  # a substitute who took a seat included
    if seq is not None:
        version = rec.version
        if not 1 <= seq <= version:
            errors = {"seq": [f"must be an event of the game: 1 to {version}"]}
            raise Invalid("invalid_body", "no such event in the game", errors=errors)

    def decide(lg: League, rng) -> list[Event]:
        number, t = _table(lg, game)
        if player not in t.players and not seated:
            raise Forbidden(
                "not_seated", "only the players seated at this game may open a dispute on it"
            )
        for d in rulings.disputes(lg):  # a second click, a retry: one open dispute per event
            if (d["player"], d["game"], d.get("seq"), d["status"]) == (player, game, seq, "open"):
                what = f"event {seq} of {game}" if seq else game
                raise Conflict("already_disputed", f"your dispute {d['dispute']} on {what} is open")
        data = {
            "dispute": len(lg.disputes) + 1,
            "game": game,
            "round": number,
            "table": t.number,
            "seq": seq,
            "player": player,
            "reason": reason,
        }
        return [Event("league.DisputeOpened", data)]

    done = league_commands.run(boot, league_id, decide, f"dispute:{player}", *retry)
    return done.record, _appended(done.envelopes, "league.DisputeOpened")


def decide_ruling(league: League, by: str, spec: dict[str, Any]) -> list[Event]:
    """Return the ruling's event, or raise what refuses it (pure)."""
    game, kind = spec["game"], spec["kind"]
    number, t = _table(league, game)
    if game not in league.results:
        raise Conflict("game_not_recorded", f"{game} has no recorded result to rule on yet")
    if game in league.replays:
        why = f"{game} was replayed as {league.replays[game]}: rule on the replay"
        raise Conflict("game_replayed", why)
    dispute = spec.get("dispute")
    if dispute is not None:
        opened = league.disputes.get(dispute)
        if opened is None:
            why = f"league {league.league_id} has no dispute {dispute}"
            raise NotFound("dispute_not_found", why)
        if opened["game"] != game:
            errors = {"dispute": [f"dispute {dispute} is about {opened['game']}, not {game}"]}
            raise Invalid("invalid_body", "the dispute is about another game", errors=errors)
    players = [p["player"] for p in league.results[game]["places"]]
    _check_kind(kind, spec, players)
    data: dict[str, Any] = {
        "ruling": len(league.ruling_log) + 1,
        "game": game,
        "round": number,
        "table": t.number,
        "dispute": dispute,
        "kind": kind,
        "reason": spec["reason"],
        "by": by,
    }
    if kind == "adjusted":
        data["points"] = spec["points"]
    if kind == "forfeit":
        data["players"] = spec["players"]
    if kind == "replay":
        data["replay"] = binding.league_game_id(
            league.league_id, number, t.number, len(league.chain(t.game))
        )
    return [Event("league.DisputeRuled", data)]


def _check_kind(kind: str, spec: dict[str, Any], players: list[str]) -> None:
    errors: dict[str, list[str]] = {}
    if kind == "adjusted":
        points = spec.get("points") or {}
        if not points:
            errors["points"] = ["give the adjusted points of at least one player"]
        elif strangers := sorted(set(points) - set(players)):
            errors["points"] = [f"not at this game's table: {', '.join(strangers)}"]
    elif spec.get("points") is not None:
        errors["points"] = ["only with kind adjusted"]
    if kind == "forfeit":
        out = spec.get("players") or []
        if not out:
            errors["players"] = ["name the players who forfeit"]
        elif strangers := sorted(set(out) - set(players)):
            errors["players"] = [f"not at this game's table: {', '.join(strangers)}"]
        elif len(set(out)) >= len(players):
            errors["players"] = ["at least one player must keep a place (annul the game instead)"]
        elif len(set(out)) != len(out):
            errors["players"] = ["a player is named twice"]
    elif spec.get("players") is not None:
        errors["players"] = ["only with kind forfeit"]
    if errors:
        raise Invalid("invalid_body", "the ruling does not fit its kind", errors=errors)


def rule(
    boot: Bootstrap, league_id: str, by: str, spec: dict[str, Any], retry: Retry = NO_RETRY
) -> tuple[League, dict]:
    """Record an organizer's ruling (and open the replay a `replay` ruling orders: its
    follow-up, service.league_followups)."""
    league_organizers.require(boot, load(boot, league_id), by, "ruling on a league game")
    decide = lambda lg, rng: decide_ruling(lg, by, spec)  # noqa: E731
    done = league_commands.run(boot, league_id, decide, f"rule:{by}", *retry)
    league_followups.finish(boot, league_id, done)
    return done.record, _appended(done.envelopes, "league.DisputeRuled")


def _appended(envelopes: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """Return the data of the event of `kind` this command appended, with its time."""
    env = next(e for e in envelopes if e["type"] == kind)
    return {**env["data"], "at": env["at"]}


disputes = rulings.disputes  # the league's disputes with their status (leagues.rulings)


def counted(league: League, game: str) -> dict[str, float] | None:
    """Return each player's league points from a recorded game with its ruling in force
    (rounded to 4 places), or None if it counts for nobody or is not recorded."""
    recorded = league.results.get(game)
    exact = rulings.game_points(league, recorded, league.rulings.get(game)) if recorded else None
    return None if exact is None else {p: round(float(v), 4) for p, v in exact.items()}


def review(boot: Bootstrap, league: League, game: str, viewer: str) -> dict[str, Any]:
    """Return what an organizer rules with, in one answer: where the game is in the
    league, its replay's address, the audit's checks (once it has ended), the refused
    attempts, the outages while it ran, its recorded result and what counts of it now,
    and its disputes and rulings. For the league's organizers and the table's players."""
    where = league.table_of(game)
    if where is None:
        raise NotFound("game_not_found", f"no game {game!r} in league {league.league_id}")
    rec = game_evidence.game(boot, game)
    found = game_evidence.evidence(boot, rec, viewer)  # checks who may read it
    report = None
    if rec.status == "finished":
        report = proof.verify(boot, game_queries.export(boot, game, None))
    return {
        "league": league.league_id,
        "game": game,
        "round": where[0],
        "table": where[1].number,
        "status": rec.status,
        "replay_url": f"/games/{game}/replay",
        "export_url": f"/v1/games/{game}/export",
        "audit": report,
        "refused": found["refused"],
        "outages": found["outages"],
        "recorded": league.results.get(game),
        "counted": counted(league, game),
        "replayed_as": league.replays.get(game),
    }
