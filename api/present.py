"""What the API sends: games and events as one viewer may see them."""

from __future__ import annotations

import json
from typing import Any

import orjson

from games.base import ActionSpec, Game
from service import game_queries, tables
from service.game_log import owed
from service.game_queries import Record
from service.lobby import seat_json
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
    view = g.view(rec.state, seat, lang) if rec.state is not None else None
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
        "seats": [seat_json(s) for s in rec.seats],
        "order": list(rec.order),
        "you": seat,
        "view": view,
        "cards": glossary(rec, lang, view),
        "owed": owed(rec),
        "result": rec.result,
        "creator": rec.creator,
        "unlisted": rec.unlisted,
        "invited": tables.invited(rec),
        "reserved_until": rec.reserved_until,
        "open_when_lapsed": rec.open_when_lapsed,
        "rematch_of": rec.rematch_of,
        "league": rec.league,
        "claim_after_s": tables.claim_after(rec),
        "paused_at": rec.paused_at,
        "away": [{"seat": seat, "from": a, "until": b} for seat, a, b in rec.away],
        "seat_seeds": seat_seeds(rec),
        "secret": None,  # an unlisted game's, for its creator only (api.games)
    }


def table(rec: Record, seat: int | None, lang: str) -> dict[str, Any]:
    """Return what a `table` frame of a game stream carries (service.table_frames): the
    game as `GET /v1/games/{id}` shows it to `seat`, and what `GET .../legal` answers when
    the seat owes a decision in an active game (else None)."""
    shown = game(rec, seat, lang)
    owes = rec.status == "active" and any(o["seat"] == seat for o in shown["owed"])
    specs = rec.game.legal(rec.state, seat) if seat is not None and owes else None
    return {"game": shown, "legal": legal(rec, specs, seat, lang) if specs is not None else None}


def seat_seeds(rec: Record) -> dict[str, Any]:
    """Return where the seats' randomness stands (docs/fairness.md): the rule, the seats
    that committed and those that revealed, and until when the reveals are open."""
    return {
        "rule": rec.seed_rule,
        "committed": rec.committed(),
        "commitments": {str(s.seat): s.commitment for s in rec.seats if s.commitment},
        "revealed": sorted(s for s, _ in rec.reveals),
        "reveals_close_at": rec.reveal_deadline(),
        "combined": rec.seeds_combined,
    }


def ruleset(game: Game, lang: str) -> dict[str, Any]:
    """Return a ruleset as GET /v1/rulesets lists it."""
    return {
        "id": game.id,
        "name": game.names.get(lang, game.names["en"]),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "rules_version": game.rules_version,
        "options": described(game.options_schema, game.option_texts.get(lang, {})),
    }


def described(schema: dict[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    """Return an options schema with its options' descriptions in the caller's language
    (`texts`: option -> description; an option it lacks keeps the English one)."""
    if not texts:
        return schema
    props = {
        name: {**prop, "description": texts[name]} if name in texts else prop
        for name, prop in schema["properties"].items()
    }
    return {**schema, "properties": props}


def legal(rec: Record, specs: list[ActionSpec], seat: int | None, lang: str) -> dict[str, Any]:
    """Return what a seat may do now, at the game's version, the decisions it owes, and the
    name and text of every card the actions name."""
    actions = game_queries.shown_actions(specs)
    return {
        "version": rec.version,
        "owed": [o for o in owed(rec) if o["seat"] == seat],
        "actions": actions,
        "cards": glossary(rec, lang, actions),
    }


def catalogue(game: Game, lang: str) -> dict[str, Any]:
    """Return GET /v1/rulesets/{ruleset}/cards: every card of the ruleset's default game."""
    return {"ruleset": game.id, "lang": lang, "cards": game.card_catalogue(None, lang)}


_INDEX: dict[tuple[str, int, str | bytes, str], dict[str, dict[str, str]]] = {}


def _options_key(options: dict[str, Any]) -> str | bytes:
    """Options as a key: orjson's sorted text (a tenth of Python's cost), Python's where
    orjson refuses them (a non-string key): a str, never equal to a bytes key."""
    try:
        return orjson.dumps(options, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return json.dumps(options, sort_keys=True)


def _card_index(game: Game, options: dict[str, Any], lang: str) -> dict[str, dict[str, str]]:
    key = (game.id, game.rules_version, _options_key(options), lang)
    if key not in _INDEX:
        if len(_INDEX) >= 64:  # a small cache: custom GobCon decks make many keys
            _INDEX.clear()
        entries = game.card_catalogue(options, lang)
        _INDEX[key] = {e["id"]: {"name": e["name"], "text": e["text"]} for e in entries}
    return _INDEX[key]


def _strings(value: Any) -> set[str]:
    """Return every string inside `value` (dicts' values, lists, tuples), without recursion:
    a legal-actions answer holds thousands of them."""
    found, todo = set(), [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return found


def glossary(rec: Record, lang: str, *shown: Any) -> dict[str, dict[str, str]]:
    """Return {card id: {name, text}} for every card named in `shown` (a view, actions):
    any string that is a card id of the game, or a card instance id `<card id>#<n>`."""
    index = _card_index(rec.game, rec.options, lang)
    found: dict[str, dict[str, str]] = {}
    for text in _strings(shown):
        card = text if text in index else text.rsplit("#", 1)[0]
        if card in index:
            found[card] = index[card]
    return dict(sorted(found.items()))


def acted(
    done: Outcome, player_id: str, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Return the answer to an action: the new version, the events as the caller may see
    them, who owes what, whether a simultaneous phase is still pending, and (`actions`,
    for POST .../actions) what the caller may do next, so that it moves in one call."""
    seat = done.record.seat_of(player_id)
    events_ = game_queries.redacted(done.record, done.envelopes, seat)
    answer = {"version": done.version, "events": events_, "owed": done.owed}
    answer["pending"] = done.pending
    if actions is not None:
        answer["actions"] = actions
    return answer


def past(now: Record, then: Record, seat: int | None, lang: str) -> dict[str, Any]:
    """Return the game as it was (`then`) for a caller seated now at `seat`; once the game
    is over every seat's view of the past opens."""
    shown = game(then, seat, lang)
    if now.status == "finished" and then.state is not None:
        shown["views"] = [then.game.view(then.state, s, lang) for s in range(then.players)]
        shown["cards"] = glossary(then, lang, shown["view"], shown["views"])
    return shown


def my_games(page: dict[str, Any], player_id: str, owing: set[str]) -> dict[str, Any]:
    """Return a page of the caller's games, each with the caller's seat and whether the
    caller owes a decision in it now."""
    games = []
    for g in page["games"]:
        seat = next((s["seat"] for s in g["seats"] if s["player"] == player_id), None)
        games.append({**g, "you": seat, "owes": g["id"] in owing})
    return {"games": games, "next": page["next"]}
