// The words of the values the games' events carry, as the log says them ("format open" ->
// "open bidding" / "puja abierta"): an option's value, a reason, a die face, a step. Keys:
// val_<field>_<value>. A card id is named by its card and a colour of goods by good_<colour>
// (log.js); tests/api/test_web_log_values.py plays every game and fails when a string value
// of an event has no words here in either language.
const VALUES = {
  // Goblin Market's edition (how a tie for first place is settled)
  edition_en: ["English rules (a tie goes to the most points in positive suits)", "reglas inglesas (el empate lo gana quien más puntos tiene en palos positivos)"],
  edition_es: ["Spanish rules (everyone tied for first wins)", "reglas españolas (todos los empatados en cabeza ganan)"],
  // GobCon's shipped deck (its `deck` option)
  deck_default: ["the standard deck", "el mazo estándar"],
  // ... and its name as the log says it (games/data/gobcon_deck.json "name")
  "deck_GobCon default deck (marketfold)": ["GobCon's standard deck (marketfold)", "el mazo estándar de GobCon (marketfold)"],
  // Sorcerous Futures: how a card is auctioned
  format_open: ["open bidding", "puja abierta"], format_closed: ["sealed bids", "pujas selladas"],
  // Black Market: the trade's mode, where traded goods go, why things happened
  trade_regulated: ["regulated (one deal proposed to everyone in turn)", "regulado (un trato propuesto a todos por turno)"],
  trade_wild: ["wild (private offers to anyone)", "libre (ofertas privadas a cualquiera)"],
  mode_regulated: ["regulated", "regulado"], mode_wild: ["wild", "libre"],
  into_aside: ["set aside", "apartado"], into_storage: ["into storage", "al almacén"],
  direction_up: ["up", "arriba"], direction_down: ["down", "abajo"],
  by_exchange_value: ["the highest exchange value", "el valor de cambio más alto"],
  by_most_goods: ["the most goods", "más bienes"],
  reason_no_bids: ["nobody bid", "nadie pujó"], reason_tie: ["a tie", "empate"],
  reason_production: ["production", "producción"],
  reason_last_card: ["the last card was auctioned", "se subastó la última carta"],
  reason_supply: ["a colour's supply ran out", "se agotó la reserva de un color"],
  reason_vp_track: ["a colour's victory points reached the end of the track", "los puntos de victoria de un color llegaron al final"],
  // GobCon: why the game ended, why Logorrea-Man left, the die, a window's moment
  reason_goal: ["someone reached the goal", "alguien alcanzó la meta"],
  reason_time_limit: ["the last round was played", "se jugó la última ronda"],
  reason_deck_empty: ["the deck ran out", "se acabó el mazo"],
  reason_no_items: ["nobody has items", "nadie tiene objetos"], reason_removed: ["removed by a card", "retirado por una carta"],
  face_king: ["King", "Rey"], face_green: ["Green", "Verde"], face_black: ["Black", "Negro"], face_darth: ["Darth", "Darth"],
  result_king: ["King", "Rey"], result_green: ["Green", "Verde"], result_black: ["Black", "Negro"], result_darth: ["Darth", "Darth"],
  notes_darth_counts_as_black: ["Darth counts as Black", "Darth cuenta como Negro"],
  notes_second_king_counts_as_green: ["a second King counts as Green", "un segundo Rey cuenta como Verde"],
  notes_aex_equo: ["Aex Equo: every King counts", "Aex Equo: todos los Reyes cuentan"],
  notes_fair_play: ["fair play: every King counts", "juego limpio: todos los Reyes cuentan"],
  category_3D: ["3D", "3D"], category_Board: ["Board", "Tablero"], category_Card: ["Card", "Cartas"], category_RPG: ["RPG", "Rol"],
  step_play: ["to a card played", "a una carta jugada"], step_answer: ["to an answer", "a una respuesta"],
  step_roll: ["before the roll", "antes de tirar"], step_turn_end: ["at the end of the turn", "al final del turno"],
  // the table's own events: why a deadline moved, who cancelled
  reason_paused: ["the table was paused", "la mesa estuvo en pausa"],
  reason_outage: ["the server was down", "el servidor estuvo caído"],
  reason_expired: ["nobody came in time", "nadie llegó a tiempo"],
};

// A field named by its event's own word where the field's plain name would mislead (GobCon's
// PlayCancelled `by` is who cancelled; Black Market's AuctionWon `by` is how it was won).
// Keys: field_<Event>_<field>.
const FIELDS = {
  PlayCancelled_by: ["cancelled by", "anulada por"], PlayCancelled_cancel: ["with", "con"],
  AuctionWon_by: ["won by", "ganada por"], ExchangeValueMoved_by: ["rows moved", "filas movidas"],
  VictoryValueRaised_by: ["steps raised", "pasos subidos"], JoinsRevealed_declined: ["stayed out", "se quedan fuera"],
  DieRolled_die: ["die", "dado"], DieRolled_face: ["face", "cara"], DieRolled_result: ["counts as", "cuenta como"],
  DieRolled_table_gp: ["GP on the game's table", "PG según la tabla del juego"],
};

const both = (table, prefix, i) => Object.entries(table).map(([k, w]) => [`${prefix}${k}`, w[i]]);
export const VALUE_WORDS = {
  en: Object.fromEntries([...both(VALUES, "val_", 0), ...both(FIELDS, "field_", 0)]),
  es: Object.fromEntries([...both(VALUES, "val_", 1), ...both(FIELDS, "field_", 1)]),
};
