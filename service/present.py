"""What the API sends: games and events as one viewer may see them."""

from __future__ import annotations

from typing import Any

from events.record import Record
from events.redact import redact

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


def owed(rec: Record) -> list[dict[str, Any]]:
    """Return the decisions owed now, with their deadlines."""
    return [{"seat": o.seat, "kind": o.kind, "deadline": rec.deadline(o.key)} for o in rec.owed()]


def events(rec: Record, envelopes: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Return envelopes redacted for `seat`."""
    return [redact(env, rec, seat) for env in envelopes]
