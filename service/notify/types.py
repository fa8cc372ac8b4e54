"""The catalog of notification types: their stable names (openapi.yaml `NotificationType`),
what each may carry, which channels tell of it by default, and how it reads in EN and ES.

Every note on a player's feed is a notification (service.notify.inbox). A type listed here
carries only its `fields` (besides `type`, `id`, `game`, `ruleset`, `league`, `at`): what
the note's writer (service.inbox) puts there is already what the recipient may know, and
the list keeps a later change from carrying more by accident. A type not listed (a new
league note, say) is kept in the inbox with a generic sentence and sent nowhere else
until it is catalogued here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

COMMON = ("type", "id", "game", "ruleset", "league", "at")
CHANNELS = ("email", "push", "webhook")  # the channels besides the inbox, which has all
LANGS = ("en", "es")
RULESETS = {
    "goblin-market": "Goblin Market",
    "sorcerous-futures": "Sorcerous Futures",
    "black-market": "Black Market",
    "gobcon": "GobCon",
}


@dataclass(frozen=True)
class Kind:
    name: str
    fields: tuple[str, ...]  # what a note of the type may carry besides COMMON
    en: tuple[str, str]  # title, body (str.format with the note's words, `words`)
    es: tuple[str, str]
    turn: bool = False  # a decision owed: quiet hours, the "not seen live" delay, reminders
    away: bool = True  # told by e-mail and push unless the player turns it off


TURN = ("kind", "simultaneous", "deadline", "version")
CATALOG: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind(
            "your_turn",
            TURN,
            ("Your turn in {ruleset}", "A decision waits for you: {kind}{until}."),
            ("Tu turno en {ruleset}", "Una decisión te espera: {kind}{until}."),
            turn=True,
        ),
        Kind(
            "deadline_reminder",
            (*TURN, "left_s"),
            ("Time is running out in {ruleset}", "Your decision is still open: {kind}{until}."),
            ("Se acaba el tiempo en {ruleset}", "Tu decisión sigue abierta: {kind}{until}."),
            turn=True,
        ),
        Kind(
            "invitation",
            ("from", "reserved_until"),
            ("Invitation to {ruleset}", "{from_name} holds a seat for you."),
            ("Invitación a {ruleset}", "{from_name} te reserva un asiento."),
        ),
        Kind(
            "rematch",
            ("rematch_of", "from"),
            ("Rematch offered in {ruleset}", "{from_name} offers your table a rematch."),
            ("Revancha en {ruleset}", "{from_name} ofrece una revancha a tu mesa."),
        ),
        Kind(
            "invitation_answered",
            ("player", "name", "answer"),
            ("{name} answered your invitation", "{name}: {answer}."),
            ("{name} respondió a tu invitación", "{name}: {answer}."),
            away=False,
        ),
        Kind(
            "game_started",
            (),
            ("Your {ruleset} game started", "Every seat is taken: the game is on."),
            ("Empezó tu partida de {ruleset}", "Todos los asientos ocupados: empieza la partida."),
            away=False,
        ),
        Kind(
            "game_finished",
            ("place", "receipt"),  # receipt: the game's signed promise (service.receipts)
            ("Your {ruleset} game ended", "It is over{placed}."),
            ("Terminó tu partida de {ruleset}", "Se acabó{placed}."),
        ),
        Kind(
            "trade_offer",
            ("offer", "from"),
            ("A trade offer in {ruleset}", "A seat made you a private offer."),
            ("Una oferta en {ruleset}", "Un asiento te hizo una oferta privada."),
            away=False,
        ),
        Kind(
            "round_started",
            ("bye",),
            ("League round {round} started", "Your table: {table_words}."),
            ("Empezó la ronda {round} de la liga", "Tu mesa: {table_words}."),
        ),
        Kind(
            "withdrawn",
            ("by",),
            ("You were withdrawn from a league", "You no longer play in its rounds."),
            ("Te retiraron de una liga", "Ya no juegas sus rondas."),
        ),
        Kind(
            "reinstated",
            ("by",),
            ("You were reinstated in a league", "You play its next rounds again."),
            ("Te readmitieron en una liga", "Vuelves a jugar sus próximas rondas."),
        ),
        Kind(
            "substituted",
            ("by", "player"),
            ("A seat of yours was substituted", "Another player plays it now."),
            ("Te sustituyeron en un asiento", "Ahora lo juega otra persona."),
        ),
        Kind(
            "removed",
            ("by",),
            ("You were removed from a league", "An organizer removed you."),
            ("Te quitaron de una liga", "Un organizador te quitó."),
        ),
        Kind(
            "forfeit",
            ("by",),
            ("A league game was forfeited", "A game of yours was decided by forfeit."),
            ("Una partida de liga se dio por perdida", "Una partida tuya se decidió por abandono."),
        ),
        Kind(
            "dispute_opened",
            ("dispute", "by"),
            ("A dispute was opened", "A dispute concerns a game of yours."),
            ("Se abrió una disputa", "Una disputa afecta a una partida tuya."),
        ),
        Kind(
            "dispute_ruled",
            ("dispute", "ruling"),
            ("A dispute was ruled on", "The ruling: {ruling}."),
            ("Se resolvió una disputa", "La decisión: {ruling}."),
        ),
        Kind(
            "league_finished",
            ("status", "place", "members"),
            ("A league is over", "It ended ({status}){placed}."),
            ("Terminó una liga", "Terminó ({status}){placed}."),
            away=False,
        ),
        Kind(
            "webhook_disabled",
            ("webhook", "failures"),
            ("A webhook of yours was disabled", "It failed {failures} times in a row."),
            ("Se desactivó un webhook tuyo", "Falló {failures} veces seguidas."),
            away=True,
        ),
    )
}
GENERIC = {
    "en": ("News from marketfold", "Something happened ({type})."),
    "es": ("Novedades de marketfold", "Ocurrió algo ({type})."),
}
NAMES = tuple(CATALOG)
LABELS: dict[str, tuple[str, str]] = {  # (en, es): the name of a type in settings and pages
    "your_turn": ("Your turn", "Tu turno"),
    "deadline_reminder": ("Deadline reminder", "Recordatorio de plazo"),
    "invitation": ("Invitation", "Invitación"),
    "rematch": ("Rematch offer", "Oferta de revancha"),
    "invitation_answered": ("Invitation answered", "Invitación respondida"),
    "game_started": ("Game started", "Partida empezada"),
    "game_finished": ("Game ended", "Partida terminada"),
    "trade_offer": ("Private trade offer", "Oferta privada"),
    "round_started": ("League round started", "Ronda de liga empezada"),
    "withdrawn": ("Withdrawn from a league", "Retirado de una liga"),
    "reinstated": ("Reinstated in a league", "Readmitido en una liga"),
    "substituted": ("Seat substituted", "Asiento sustituido"),
    "removed": ("Removed from a league", "Quitado de una liga"),
    "forfeit": ("Game forfeited", "Partida perdida por abandono"),
    "dispute_opened": ("Dispute opened", "Disputa abierta"),
    "dispute_ruled": ("Dispute ruled", "Disputa resuelta"),
    "league_finished": ("League over", "Liga terminada"),
    "webhook_disabled": ("Webhook disabled", "Webhook desactivado"),
}
# (en, es): a decision's kind in words, as the web client says it (words_table.js `kind_*`);
# tests/notify/test_type_labels.py keeps the two and every game's decision kinds in step.
KIND_WORDS: dict[str, tuple[str, str]] = {
    "bid": ("bid", "pujar"),
    "split_choice": ("take the cards", "quedarse las cartas"),
    "card_choice": ("choose a card", "elegir una carta"),
    "auction": ("start an auction", "empezar una subasta"),
    "sealed_bid": ("place a sealed bid", "hacer una puja sellada"),
    "crowns": ("the crowns", "las coronas"),
    "turn": ("play a turn", "jugar un turno"),
    "respond": ("answer a card", "responder a una carta"),
    "join": ("join the game", "unirse a la partida"),
    "roll": ("roll", "tirar"),
    "target": ("choose a target", "elegir objetivo"),
    "give": ("give a card", "dar una carta"),
    "lose_item": ("lose an item", "perder un objeto"),
    "produce": ("produce", "producir"),
    "propose": ("propose a trade", "proponer un trato"),
    "answer": ("answer the trade", "responder al trato"),
    "pick": ("pick a partner", "elegir socio"),
    "trade": ("trade", "comerciar"),
    "give_back": ("give goods back", "devolver bienes"),
    "raise": ("raise a price", "subir un precio"),
    "shift": ("move a price", "mover un precio"),
    "sell": ("sell", "vender"),
    "discard": ("discard", "descartar"),
}


def kind(type_: str) -> Kind | None:
    return CATALOG.get(type_)


def is_turn(type_: str) -> bool:
    return (k := CATALOG.get(type_)) is not None and k.turn


def wanted_by_default(type_: str, channel: str) -> bool:
    """Whether a channel tells of a type unless the player says otherwise: every
    catalogued type by webhook (a program chose its types when it registered), the
    `away` ones by e-mail and push, nothing uncatalogued."""
    k = CATALOG.get(type_)
    if k is None:
        return False
    return True if channel == "webhook" else k.away


def public(note: dict[str, Any]) -> dict[str, Any]:
    """Return what a notification of `note` carries: its type's fields only (the whole
    note for an uncatalogued type, which is sent nowhere but the player's own inbox)."""
    k = CATALOG.get(note.get("type", ""))
    if k is None:
        return dict(note)
    allowed = set(COMMON) | set(k.fields)
    return {f: v for f, v in note.items() if f in allowed}


def render(
    note: dict[str, Any], lang: str, names: dict[str, str] | None = None, when: str = ""
) -> tuple[str, str]:
    """Return (title, body) of a notification in `lang`, plain text; `names` maps player
    ids to names, `when` is the deadline as the player reads it (their time zone)."""
    lang = lang if lang in LANGS else "en"
    k = CATALOG.get(note.get("type", ""))
    title, body = getattr(k, lang) if k else GENERIC[lang]
    return title.format_map(_words(note, lang, names or {}, when)), body.format_map(
        _words(note, lang, names or {}, when)
    )


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _words(note: dict[str, Any], lang: str, names: dict[str, str], when: str) -> _Blank:
    es = lang == "es"
    league = note.get("league") or {}
    place = note.get("place")
    words = _Blank({k: str(v) for k, v in note.items() if isinstance(v, (str, int, float))})
    words["ruleset"] = RULESETS.get(note.get("ruleset") or "", note.get("ruleset") or "marketfold")
    raw = str(note.get("kind", ""))
    words["kind"] = KIND_WORDS.get(raw, (raw.replace("_", " "),) * 2)[es]
    words["until"] = (f" (hasta {when})" if es else f" (until {when})") if when else ""
    words["placed"] = (f", puesto {place}" if es else f", place {place}") if place else ""
    words["round"] = str(league.get("round") or "")
    if note.get("bye"):
        words["table_words"] = "descansas esta ronda" if es else "you sit this round out"
    else:
        table = league.get("table")
        words["table_words"] = (f"mesa {table}" if es else f"table {table}") if table else "-"
    sender = note.get("from")
    words["from_name"] = names.get(sender, "") if isinstance(sender, str) else ""
    words["from_name"] = words["from_name"] or ("Alguien" if es else "Someone")
    words["name"] = str(note.get("name") or names.get(note.get("player") or "", "?"))
    return words
