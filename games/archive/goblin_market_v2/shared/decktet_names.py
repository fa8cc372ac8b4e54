"""Decktet card, rank and suit names as players read them: English ids, Spanish names."""

from __future__ import annotations

from typing import Any

from games.archive.goblin_market_v2.shared.decktet import cards

SUITS_ES = {
    "Moons": "Lunas",
    "Suns": "Soles",
    "Waves": "Olas",
    "Leaves": "Hojas",
    "Wyrms": "Dragones",
    "Knots": "Nudos",
}
RANKS_ES = {"Ace": "As", "Crown": "Corona", "Pawn": "Peón", "Court": "Corte", "Excuse": "Excusa"}
CARDS_ES = {
    "The Author": "El Autor",
    "The Desert": "El Desierto",
    "The Origin": "El Origen",
    "The Journey": "El Viaje",
    "The Painter": "El Pintor",
    "The Savage": "El Salvaje",
    "The Mountain": "La Montaña",
    "The Sailor": "El Marinero",
    "The Battle": "La Batalla",
    "The Forest": "El Bosque",
    "The Discovery": "El Descubrimiento",
    "The Soldier": "El Soldado",
    "The Lunatic": "El Lunático",
    "The Penitent": "El Penitente",
    "The Market": "El Mercado",
    "The Chance Meeting": "El Encuentro Casual",
    "The Castle": "El Castillo",
    "The Cave": "La Cueva",
    "The Diplomat": "El Diplomático",
    "The Mill": "El Molino",
    "The Betrayal": "La Traición",
    "The Pact": "El Pacto",
    "The Darkness": "La Oscuridad",
    "The Merchant": "El Mercader",
    "The Huntress": "La Cazadora",
    "The Bard": "El Bardo",
    "The Sea": "El Mar",
    "The End": "El Fin",
    "The Calamity": "La Calamidad",
    "The Windfall": "La Bonanza",
    "The Harvest": "La Cosecha",
    "The Watchman": "El Vigía",
    "The Light Keeper": "El Farero",
    "The Borderland": "La Frontera",
    "The Consul": "El Cónsul",
    "The Rite": "El Rito",
    "The Island": "La Isla",
    "The Window": "La Ventana",
    "The Excuse": "La Excusa",
}


def card_name(name: str, lang: str) -> str:
    """Return the name of card `name` in `lang` (English for any language but es)."""
    if lang != "es":
        return name
    card = cards()[name]
    if card.rank == "Ace":
        return f"As de {SUITS_ES[card.suits[0]]}"
    return CARDS_ES[name]


def suit_name(suit: str, lang: str) -> str:
    """Return the name of `suit` in `lang`."""
    return SUITS_ES[suit] if lang == "es" else suit


def rank_name(rank: str, lang: str) -> str:
    """Return the name of `rank` in `lang` (numbers stay digits)."""
    return RANKS_ES.get(rank, rank) if lang == "es" else rank


def card_json(name: str, lang: str) -> dict[str, Any]:
    """Return a card as a view shows it: stable ids plus names in `lang`."""
    card = cards()[name]
    return {
        "id": name,
        "name": card_name(name, lang),
        "rank": card.rank,
        "rank_name": rank_name(card.rank, lang),
        "suits": list(card.suits),
        "suit_names": [suit_name(s, lang) for s in card.suits],
    }


def cards_json(names: tuple[str, ...] | list[str], lang: str) -> list[dict[str, Any]]:
    """Return several cards as a view shows them."""
    return [card_json(name, lang) for name in names]
