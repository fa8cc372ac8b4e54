"""Check a deck given as JSON data and return it in normal form, or name the bad field.

Used for option `deck` when an operator loads another deck (for example the texts of
the printed cards) inline in the game options: the engine never reads their files.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import OptionError
from games.archive.gobcon_v2.cards import (
    CATEGORIES,
    DECK_SIZE,
    FACES,
    FRIEND_ABILITIES,
    KEPT_EFFECTS,
    SPECIAL_EFFECTS,
    TIMINGS,
    TYPES,
)

ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
GP_LIMIT = 50
MAX_DISTINCT = DECK_SIZE
FIELDS = {
    "friend": {"gp", "ability"},
    "item": {"gp", "category"},
    "game": {"category", "table"},
    "special": {"effect", "keep", "timing"},
}
COMMON = {"id", "type", "name", "count", "text"}


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(where, "must be an integer")
    if not low <= value <= high:
        raise OptionError(where, f"must be from {low} to {high}")
    return value


def _object(value: Any, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OptionError(where, "must be an object")
    for name in value:
        if name not in allowed:
            raise OptionError(f"{where}.{name}", "unknown field")
    return value


def _texts(value: Any, where: str) -> dict[str, str]:
    """Accept a string or {"en": ..., "es": ...}; return both languages (es falls back to en)."""
    if isinstance(value, str):
        value = {"en": value}
    _object(value, where, {"en", "es"})
    for lang in ("en", "es"):
        text = value.get(lang, value.get("en"))
        if not isinstance(text, str) or not text.strip() or len(text) > 500:
            raise OptionError(f"{where}.{lang}", "must be a non-empty string of at most 500 chars")
    return {"en": value["en"], "es": value.get("es", value["en"])}


def _category(value: Any, where: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if value not in CATEGORIES:
        raise OptionError(where, f"must be one of {list(CATEGORIES)}")
    return value


def _friend(raw: dict[str, Any], where: str) -> dict[str, Any]:
    ability = _object(raw.get("ability"), f"{where}.ability", {"kind", "category"})
    kind = ability.get("kind")
    if kind not in FRIEND_ABILITIES:
        raise OptionError(f"{where}.ability.kind", f"must be one of {list(FRIEND_ABILITIES)}")
    out: dict[str, Any] = {"kind": kind}
    if kind in ("bonus", "malus"):
        out["category"] = _category(ability.get("category"), f"{where}.ability.category")
    elif "category" in ability:
        raise OptionError(
            f"{where}.ability.category", "only a bonus or malus ability has a category"
        )
    return {"gp": _int(raw.get("gp"), f"{where}.gp", -GP_LIMIT, GP_LIMIT), "ability": out}


def _item(raw: dict[str, Any], where: str) -> dict[str, Any]:
    return {
        "gp": _int(raw.get("gp"), f"{where}.gp", 0, GP_LIMIT),
        "category": _category(raw.get("category"), f"{where}.category", optional=True),
    }


def _game(raw: dict[str, Any], where: str) -> dict[str, Any]:
    table = _object(raw.get("table"), f"{where}.table", set(FACES))
    return {
        "category": _category(raw.get("category"), f"{where}.category"),
        "table": {f: _int(table.get(f), f"{where}.table.{f}", -GP_LIMIT, GP_LIMIT) for f in FACES},
    }


def _effect(raw: Any, where: str) -> dict[str, Any]:
    effect = _object(raw, where, {"kind", "category", "gp"})
    kind = effect.get("kind")
    if kind not in SPECIAL_EFFECTS:
        raise OptionError(f"{where}.kind", f"must be one of {list(SPECIAL_EFFECTS)}")
    out: dict[str, Any] = {"kind": kind}
    if kind in ("bonus", "malus", "prohibition"):
        out["category"] = _category(effect.get("category"), f"{where}.category")
    elif "category" in effect:
        raise OptionError(f"{where}.category", f"a {kind} effect has no category")
    if kind == "gp":
        out["gp"] = _int(effect.get("gp"), f"{where}.gp", -GP_LIMIT, GP_LIMIT)
        if out["gp"] == 0:
            raise OptionError(f"{where}.gp", "must not be 0")
    elif "gp" in effect:
        raise OptionError(f"{where}.gp", f"a {kind} effect has no gp")
    return out


def _special(raw: dict[str, Any], where: str) -> dict[str, Any]:
    effect = _effect(raw.get("effect"), f"{where}.effect")
    keep, timing = raw.get("keep"), raw.get("timing")
    if not isinstance(keep, bool):
        raise OptionError(f"{where}.keep", "must be true or false")
    if keep != (effect["kind"] in KEPT_EFFECTS):
        must = "stays in play" if not keep else "is discarded after use"
        raise OptionError(f"{where}.keep", f"a {effect['kind']} card {must}")
    if timing not in TIMINGS:
        raise OptionError(f"{where}.timing", f"must be one of {list(TIMINGS)}")
    if effect["kind"] == "cancel" and timing != "any_time":
        raise OptionError(f"{where}.timing", "a cancel card is played at any time")
    return {"effect": effect, "keep": keep, "timing": timing}


CHECK = {"friend": _friend, "item": _item, "game": _game, "special": _special}


def _card(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise OptionError(where, "must be an object")
    kind = raw.get("type")
    if kind not in TYPES:
        raise OptionError(f"{where}.type", f"must be one of {list(TYPES)}")
    _object(raw, where, COMMON | FIELDS[kind])
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not ID.fullmatch(card_id):
        raise OptionError(f"{where}.id", "must match [a-z0-9][a-z0-9-]* (at most 48 chars)")
    out = {
        "id": card_id,
        "type": kind,
        "name": _texts(raw.get("name"), f"{where}.name"),
        "count": _int(raw.get("count"), f"{where}.count", 1, DECK_SIZE),
        **CHECK[kind](raw, where),
    }
    if raw.get("text") is not None:
        out["text"] = _texts(raw["text"], f"{where}.text")
    return out


def _whole_deck(cards: list[dict[str, Any]], where: str) -> None:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card["id"] in seen:
            raise OptionError(f"{where}[{i}].id", f"{card['id']!r} is used twice")
        seen.add(card["id"])
    total = sum(c["count"] for c in cards)
    if total != DECK_SIZE:
        raise OptionError(where, f"the counts must total {DECK_SIZE} cards, not {total}")
    talkers = sum(c["count"] for c in cards if c["type"] == "friend" and _is_logorrea(c))
    if talkers > 1:
        raise OptionError(where, "a deck holds at most one Logorrea-Man (logorrea ability)")


def _is_logorrea(card: dict[str, Any]) -> bool:
    return card["ability"]["kind"] == "logorrea"


def normalize_deck(raw: Any, where: str = "deck") -> dict[str, Any]:
    """Check a deck object and return it in normal form; raise OptionError naming the field."""
    deck = _object(raw, where, {"name", "cards"})
    name = deck.get("name", "custom deck")
    if not isinstance(name, str) or not 0 < len(name) <= 100:
        raise OptionError(f"{where}.name", "must be a string of 1 to 100 characters")
    cards = deck.get("cards")
    if not isinstance(cards, list) or not cards:
        raise OptionError(f"{where}.cards", "must be a non-empty list")
    if len(cards) > MAX_DISTINCT:
        raise OptionError(f"{where}.cards", f"at most {MAX_DISTINCT} distinct cards")
    out = [_card(card, f"{where}.cards[{i}]") for i, card in enumerate(cards)]
    _whole_deck(out, f"{where}.cards")
    return {"name": name, "cards": out}
