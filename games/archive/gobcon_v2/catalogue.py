"""GobCon's cards as a client reads them: name, short rules text and figures, in `lang`.

The texts are data (`text` of each deck entry). A card of an operator's deck that has no
text gets a plain one built from its figures, so a client never needs the rules document.
"""

from __future__ import annotations

from typing import Any

from games.archive.gobcon_v2.cards import FACES, Card, catalog_of
from games.archive.gobcon_v2.options import deck_of, normalize_options

CATEGORY_NAMES = {"es": {"3D": "3D", "Board": "Tablero", "Card": "Cartas", "RPG": "Rol"}}
TYPE_NAMES = {
    "en": {"friend": "Friend", "item": "Item", "game": "Game", "special": "Special"},
    "es": {"friend": "Amigo", "item": "Objeto", "game": "Juego", "special": "Especial"},
}
GP = {"en": "GP", "es": "PG"}


def category_name(category: str | None, lang: str) -> str | None:
    """Return a category's name in `lang`."""
    return CATEGORY_NAMES.get(lang, {}).get(category, category) if category else category


def _plain_text(card: Card, lang: str) -> str:
    """A text from the figures alone, for a card loaded without one."""
    lang = lang if lang in TYPE_NAMES else "en"
    parts = [TYPE_NAMES[lang][card.type]]
    if card.category:
        parts.append(category_name(card.category, lang) or "")
    if card.type == "game":
        faces = zip(FACES, card.table, strict=True)
        parts.append(", ".join(f"{face} {gp:+d}" for face, gp in faces))
    elif card.gp:
        parts.append(f"{card.gp:+d} {GP[lang]}")
    if card.kind:
        parts.append(card.kind)
    return " · ".join(parts)


def card_entry(card: Card, lang: str) -> dict[str, Any]:
    """Return one distinct card: id, type, name, text and its figures, names in `lang`."""
    out: dict[str, Any] = {
        "id": card.id,
        "type": card.type,
        "name": card.name.get(lang, card.name["en"]),
        "text": card.text.get(lang, card.text["en"]) if card.text else _plain_text(card, lang),
        "count": card.count,
        "gp": card.gp,
        "category": card.category,
        "category_name": category_name(card.category, lang),
    }
    if card.type in ("friend", "special"):
        out["kind"] = card.kind
    if card.type == "special":
        out.update(keep=card.keep, timing=card.timing)
    if card.type == "game":
        out["table"] = dict(zip(FACES, card.table, strict=True))
    return out


def card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """Return every distinct card of the game's deck (the default deck without options)."""
    deck = deck_of(options if options is not None else normalize_options(None, 2))
    return [card_entry(card, lang) for card in catalog_of(deck).values()]
