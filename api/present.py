"""What the API sends: games and events as one viewer may see them."""

from __future__ import annotations

from typing import Any

from events.record import Record
from events.redact import redact
from games.base import ActionSpec, Game
from service.game_log import owed
from service.loop import Outcome

LANGS = ("en", "es")


def language(accept: str | None) -> str:
    """Pick the first supported language in an Accept-Language header (default en)."""
    ranked = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        if weight > 0:  # q=0 means "not acceptable"
            ranked.append((-weight, i, tag.split("-")[0].strip().lower()))
    return next((tag for _, _, tag in sorted(ranked) if tag in LANGS), "en")


def game(rec: Record, seat: int | None, lang: str) -> dict[str, Any]:
    """Return a game as `seat` may see it (None: a spectator)."""
    g = rec.game
    return {
        "id": rec.game_id,
        "ruleset": rec.ruleset,
        "name": g.names.get(lang, g.names["en"]),
        "status": rec.status,
        "version": rec.version,
        "players": rec.players,
        "options": rec.options,
        "decision_timeout_s": rec.decision_timeout_s,
        "created_at": rec.created_at,
        "seats": [{"seat": s.seat, "player": s.player, "name": s.name} for s in rec.seats],
        "order": list(rec.order),
        "you": seat,
        "view": g.view(rec.state, seat, lang) if rec.state is not None else None,
        "owed": owed(rec),
        "result": rec.result,
    }


def events(rec: Record, envelopes: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Return envelopes redacted for `seat`."""
    return [redact(env, rec, seat) for env in envelopes]


def ruleset(game: Game, lang: str) -> dict[str, Any]:
    """Return a ruleset as GET /v1/rulesets lists it."""
    return {
        "id": game.id,
        "name": game.names.get(lang, game.names["en"]),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "rules_version": game.rules_version,
        "options": game.options_schema,
    }


def legal(rec: Record, specs: list[ActionSpec], seat: int | None) -> dict[str, Any]:
    """Return what a seat may do now, at the game's version, and the decisions it owes."""
    return {
        "version": rec.version,
        "owed": [o for o in owed(rec) if o["seat"] == seat],
        "actions": [{"type": s.type, "schema": s.schema, "choices": s.choices} for s in specs],
    }


def acted(done: Outcome, player_id: str) -> dict[str, Any]:
    """Return the answer to an action: the new version, the events as the caller may see
    them, who owes what, and whether a simultaneous phase is still pending."""
    seat = done.record.seat_of(player_id)
    events_ = events(done.record, done.envelopes, seat)
    return {"version": done.version, "events": events_, "owed": done.owed, "pending": done.pending}


def past(now: Record, then: Record, seat: int | None, lang: str) -> dict[str, Any]:
    """Return the game as it was (`then`) for a caller seated now at `seat`; once the game
    is over every seat's view of the past opens."""
    shown = game(then, seat, lang)
    if now.status == "finished" and then.state is not None:
        shown["views"] = [then.game.view(then.state, s, lang) for s in range(then.players)]
    return shown


def my_games(page: dict[str, Any], player_id: str, owing: set[str]) -> dict[str, Any]:
    """Return a page of the caller's games, each with the caller's seat and whether the
    caller owes a decision in it now."""
    games = []
    for g in page["games"]:
        seat = next((s["seat"] for s in g["seats"] if s["player"] == player_id), None)
        games.append({**g, "you": seat, "owes": g["id"] in owing})
    return {"games": games, "next": page["next"]}
