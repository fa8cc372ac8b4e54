// The names of the games' events as the log says them, in Spanish; English reads the event's
// own name in words ("AuctionSizeRevealed" -> "Auction size revealed"). Keys: ev_<Name>.
const ES = {
  AcesDealt: "Ases repartidos", AllPassed: "Todos pasaron", AnswerSealed: "Respuesta sellada",
  AnswersRevealed: "Respuestas reveladas", AuctionCardsRevealed: "Cartas de la subasta descubiertas",
  AuctionOpened: "Subasta abierta", AuctionSizeRevealed: "Tamaño de la subasta descubierto",
  AuctionStarted: "Subasta empezada", AuctionWon: "Subasta ganada", BidPassed: "Pasó",
  BidPlaced: "Puja hecha", BidSealed: "Puja sellada", BidsRevealed: "Pujas reveladas",
  BonusMalusCancelled: "Bonificación o penalización anulada", CardDiscarded: "Carta descartada",
  CardPlayed: "Carta jugada", CardRemoved: "Carta retirada", CardRevealed: "Carta descubierta",
  CardsDealt: "Cartas repartidas", CardsDiscarded: "Cartas descartadas", CardsDrawn: "Cartas robadas",
  CardsTaken: "Cartas tomadas", CoinsDealt: "Monedas repartidas", CrownGiven: "Corona entregada",
  CrownKept: "Corona guardada", CrownsPassed: "Coronas pasadas", CrownsRevealed: "Coronas reveladas",
  CrownsSetAside: "Coronas apartadas", CrownsShuffled: "Coronas barajadas", CrownsTaken: "Coronas tomadas",
  DealMade: "Trato hecho", DealProposed: "Trato propuesto", DealRefused: "Trato rechazado",
  DeckShuffled: "Mazo barajado", DecksShuffled: "Mazos barajados", DieRolled: "Dado tirado",
  DiscardOpened: "Descarte abierto", DiscardReshuffled: "Descarte barajado de nuevo", DoneDeclared: "Terminó de comerciar",
  ExchangeValueMoved: "Valor de cambio movido", ExchangeValuesDrawn: "Valores de cambio sorteados",
  ExcusePlaced: "Excusa colocada", ExcuseValuationRevealed: "Valoración de la Excusa revelada",
  FinalAuctionStarted: "Empieza la última subasta", FriendDismissed: "Amigo despedido", FriendJoined: "Amigo llegado",
  GameClosed: "Partida cerrada", GameEndTriggered: "Se activa el final", GameFinished: "Partida terminada",
  GameOpened: "Partida abierta", GameScored: "Partida puntuada", GameStarted: "Partida empezada",
  GiveBackOpened: "Devolución abierta", GoblinCardRevealed: "Carta duende descubierta",
  GoblinDeckReshuffled: "Mazo duende barajado de nuevo", GoblinPaid: "Dinero duende pagado",
  GoodsDealt: "Bienes repartidos", GoodsDiscarded: "Bienes tirados", GoodsGivenBack: "Bienes devueltos",
  GoodsOffered: "Bienes en oferta", GoodsProduced: "Bienes producidos", GoodsSold: "Bienes vendidos",
  ItemBought: "Objeto comprado", ItemLost: "Objeto perdido", JoinSubmitted: "Respuesta a la partida enviada",
  JoinsRevealed: "Participantes revelados", LogorreaLeft: "Logorrea-Man se fue", LogorreaPassed: "Logorrea-Man pasó a otro",
  LogorreaPlayed: "Logorrea-Man en juego", LowestValueRaised: "Sube el valor más bajo", OfferDeclined: "Oferta rechazada",
  OfferMade: "Oferta hecha", OfferReturned: "Oferta devuelta", OfferWithdrawn: "Oferta retirada",
  PlayCancelled: "Jugada anulada", ProductionRevealed: "Producción revelada", ProductionSealed: "Producción sellada",
  ProhibitionsLifted: "Vetos levantados", ProposalPassed: "Pasó sin proponer", RaiseDeclined: "No sube ningún valor",
  ResponsePlayed: "Respuesta jugada", ResponseResolved: "Respuesta resuelta", ResponseSubmitted: "Respuesta enviada",
  ResponseReturned: "Respuesta devuelta", ResponsesRevealed: "Respuestas reveladas", RoundEnded: "Ronda terminada", RoundStarted: "Ronda empezada",
  RowDealt: "Fila repartida", SaleOpened: "Venta abierta", SaleSealed: "Venta sellada", SalesRevealed: "Ventas reveladas",
  SealedBidSubmitted: "Puja sellada enviada", SealedBidsRevealed: "Pujas selladas reveladas", ShiftDeclined: "No mueve ningún precio",
  SisterhoodPaid: "Dinero de la hermandad pagado", SpecialResolved: "Especial resuelto", SupplyExhausted: "Reserva agotada",
  TargetChosen: "Objetivo elegido", TradeEnded: "Comercio terminado", TradeStarted: "Comercio empezado",
  TurnEnded: "Turno terminado", TurnStarted: "Turno empezado", ValuationCardsDrawn: "Cartas de valoración robadas",
  ValuationCardsShuffled: "Cartas de valoración barajadas", ValuationDealt: "Valoración repartida",
  ValuationsRevealed: "Valoraciones reveladas", VictoryValueRaised: "Valor de victoria subido",
  VictoryValuesDrawn: "Valores de victoria sorteados", WindowClosed: "Ventana cerrada", WindowOpened: "Ventana abierta",
};

// The table's own events (game.*: seats, deadlines, the lobby), by their bare name, in both
// languages; the log gives the commonest ones a sentence of their own (log.js).
const LOBBY = {
  Created: ["Game created", "Partida creada"], Terms: ["Terms of the game set", "Condiciones de la partida fijadas"],
  PlayerJoined: ["A player sat down", "Alguien se sentó"], SeatTaken: ["A seat was taken", "Asiento ocupado"],
  PlayerLeft: ["A player left", "Alguien se fue"], InvitationDeclined: ["Invitation declined", "Invitación rechazada"],
  ReservationsLapsed: ["Reserved seats freed", "Asientos reservados liberados"], Started: ["The game started", "La partida empezó"],
  Ended: ["The game ended", "La partida terminó"], Cancelled: ["The game was cancelled", "La partida se canceló"],
  Aborted: ["The game was called off", "La partida se anuló"], Claimed: ["The game was claimed", "La partida se reclamó"],
  SeatResigned: ["A player resigned", "Alguien abandonó"], SeatAway: ["A player is away", "Alguien está ausente"],
  DecisionTimedOut: ["Time ran out: the default was played", "Se acabó el tiempo: se jugó la opción por defecto"],
  DeadlineExtended: ["Deadline extended", "Plazo prorrogado"], Paused: ["The table was paused", "La mesa se pausó"],
  Resumed: ["The table resumed", "La mesa siguió"],
  RevealsOpened: ["Every seat is taken: each player's random secret is revealed", "Todos sentados: se revela el secreto aleatorio de cada jugador"],
  SeedRevealed: ["A player's random secret was revealed", "Se reveló el secreto aleatorio de alguien"],
  SeedsCombined: ["The players' secrets were mixed into the shuffles", "Los secretos de los jugadores se mezclaron en los barajados"],
};

const words = (name) => {
  const text = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export const EVENT_WORDS = {
  en: Object.fromEntries([...Object.keys(ES).map((k) => [`ev_${k}`, words(k)]),
    ...Object.entries(LOBBY).map(([k, [en]]) => [`ev_${k}`, en])]),
  es: Object.fromEntries([...Object.entries(ES).map(([k, v]) => [`ev_${k}`, v]),
    ...Object.entries(LOBBY).map(([k, [, es]]) => [`ev_${k}`, es])]),
};
