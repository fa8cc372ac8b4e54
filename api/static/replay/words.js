// The replay viewer's words in English and Spanish (the language as the web client picks it:
// ../shared/lang.js). `t(key, values)` fills {name} placeholders; the games' event names and
// the views' keys come from the web client's own lists, so both pages say them alike.
import { LANGS, pickLang, storeLang } from "../shared/lang.js";
import { EVENT_WORDS } from "../app/words_events.js";
import { WORDS_ES } from "../app/words_es.js";
import { TABLE_WORDS } from "../app/words_table.js";
import { ERROR_WORDS } from "../app/words_errors.js";
import { CHECK_WORDS, checkText as wordCheck } from "../app/words_checks.js";
import { human as humanKey, LABELS } from "../shared/dom.js";

export { LANGS, storeLang };

export const REPLAY_WORDS = {
  en: {
    pageTitle: "Replay · marketfold", replay: "Replay", replayOf: "{name}: replay", docTitle: "{name} replay · {id}",
    loading: "loading", spectator: "spectator", auditBundle: "audit bundle", language: "Language",
    notVerifiedYet: "not verified yet", verifyTitle: "the game's export checked by POST /v1/verify",
    openBundle: "open a bundle file…", yourBundle: "Your bundle file",
    viewAsPlayer: "View as a player…", viewAsPlayerSet: "View as a player (token set)…",
    tokenHelp: "Paste your player token. It stays in this browser (localStorage) and is sent only to this server.",
    tokenPlaceholder: "token", use: "Use", forget: "Forget",
    controls: "Replay controls", first: "First event (Home)", back: "Back one event (←)", backBtn: "◀ Back",
    playPause: "Play / pause (space)", play: "▶ Play", pause: "‖ Pause", step: "Forward one event (→)", stepBtn: "Step ▶",
    last: "Last event (End)", eventSlider: "Event", eventWord: "event", speed: "speed", slow: "slow", normal: "normal", fast: "fast",
    boardTitle: "The game at this step", events: "Events", tableChat: "Table chat",
    kind_action: "action", kind_auto: "automatic", kind_default: "default", kind_resolution: "resolution",
    kind_extension: "extension", kind_lobby: "lobby", kind_hidden: "hidden",
    tokenRefused: " (the pasted token was refused; forget it to watch)", retrying: "{error}; retrying in {n} s",
    wrongAddress: "this page must be opened at /games/<id>/replay",
    nowFinished: "now finished", nowActive: "now in play", nowWaiting: "now waiting for players",
    verifying: "verifying…", couldNotVerify: "could not verify: {detail}", verifyingFile: "verifying {name}…",
    notJson: "the file is not JSON", otherGame: "the file is game {id}, not the game shown here",
    partsAt: "the file parts from this server's copy at event {n}",
    countDiffers: "the file has {n} events, this server's copy {m}",
    sameEvents: "the file's {n} events are this server's, event for event",
    noMessages: "no messages", noStorage: "this browser does not allow storing the token",
    pass: "PASS", fail: "FAIL", atEvent: " (event {n})",
    seatN: "seat {n}", seatsFilled: "{n} of {m} seats filled. The table is dealt when every seat is taken.",
    seats: "Seats", asEveryone: "The table as everyone saw it", only: "Only ", saw: " saw",
    nothingMore: "nothing more than the table above",
    endedOpen: "This game has ended, so every seat's view is open at every step. Show:",
    allSeats: "all seats", sameAsSpectator: "this seat saw the same as a spectator here", same: " (same)",
    atEventK: "At event", nOfM: "{n} of {m}", turn: "Turn", until: " until {time}",
    gameOver: "game over", noDecision: "no decision owed", order: "Order", result: "Result", fullResult: "Full result",
    eventNofM: "Event {n} of {m}: {name}", eventN: "Event {n}: {name}", concerns: " concerns ",
    afterAction: " after an action of ", hiddenFromViewer: "hidden from this viewer", time: "Time ",
    deadlineNote: " · deadline {time}: {text}", noData: "no data shown", envelope: "Envelope (JSON)",
    system: "system", hidden: "hidden", viewingAs: "viewing as {name}",
    tokenNotSeated: "token not seated here: spectator view", spectatorView: "spectator view",
    yes: "yes", no: "no", none: "none", items: "{n} items", seat: "seat", toAct: "to act", winner: "★ winner",
    you: "you", table: "Table", worth: "worth", type_item: "item", type_friend: "friend", type_game: "game",
    type_special: "special",
    defaultAfter: "default applied {n} s after the deadline", defaultBefore: "default applied {n} s BEFORE the deadline",
    metWith: "met with {n} s to spare", late: "LATE by {n} s",
    signedBy: ", signed by key {key}", notSigned: ", not signed by this server's keys",
    verifiedOk: "verified: {n} events, {m} checks{signed}", notVerifiedWhy: "NOT verified: {why}{signed}",
    refusedIt: "the verifier refused it", notBundle: "not a bundle: {detail}",
    onceEnded: "verified once the game has ended", couldNotExport: "could not export: {status}",
    notVerified: "not verified: {detail}",
    status_waiting: "waiting", status_active: "in play", status_finished: "finished", status_cancelled: "cancelled",
    ...CHECK_WORDS.en,
  },
  es: {
    pageTitle: "Repetición · marketfold", replay: "Repetición", replayOf: "{name}: repetición", docTitle: "{name}, repetición · {id}",
    loading: "cargando", spectator: "espectador", auditBundle: "paquete de auditoría", language: "Idioma",
    notVerifiedYet: "aún sin verificar", verifyTitle: "la exportación de la partida, comprobada con POST /v1/verify",
    openBundle: "abrir un archivo de paquete…", yourBundle: "Tu archivo de paquete",
    viewAsPlayer: "Ver como jugador…", viewAsPlayerSet: "Ver como jugador (token puesto)…",
    tokenHelp: "Pega tu token de jugador. Se queda en este navegador (localStorage) y solo se envía a este servidor.",
    tokenPlaceholder: "token", use: "Usar", forget: "Olvidar",
    controls: "Controles de la repetición", first: "Primer evento (Inicio)", back: "Un evento atrás (←)", backBtn: "◀ Atrás",
    playPause: "Reproducir / pausa (espacio)", play: "▶ Reproducir", pause: "‖ Pausa", step: "Un evento adelante (→)", stepBtn: "Avanzar ▶",
    last: "Último evento (Fin)", eventSlider: "Evento", eventWord: "evento", speed: "velocidad", slow: "lenta", normal: "normal", fast: "rápida",
    boardTitle: "La partida en este paso", events: "Eventos", tableChat: "Chat de la mesa",
    kind_action: "acción", kind_auto: "automático", kind_default: "por defecto", kind_resolution: "resolución",
    kind_extension: "prórroga", kind_lobby: "sala", kind_hidden: "oculto",
    tokenRefused: " (el token pegado fue rechazado; olvídalo para mirar)", retrying: "{error}; reintento en {n} s",
    wrongAddress: "esta página debe abrirse en /games/<id>/replay",
    nowFinished: "ya terminada", nowActive: "en juego", nowWaiting: "esperando jugadores",
    verifying: "verificando…", couldNotVerify: "no se pudo verificar: {detail}", verifyingFile: "verificando {name}…",
    notJson: "el archivo no es JSON", otherGame: "el archivo es de la partida {id}, no de la que se muestra aquí",
    partsAt: "el archivo se aparta de la copia de este servidor en el evento {n}",
    countDiffers: "el archivo tiene {n} eventos, la copia de este servidor {m}",
    sameEvents: "los {n} eventos del archivo son los de este servidor, uno por uno",
    noMessages: "sin mensajes", noStorage: "este navegador no permite guardar el token",
    pass: "BIEN", fail: "FALLA", atEvent: " (evento {n})",
    seatN: "asiento {n}", seatsFilled: "{n} de {m} asientos ocupados. Se reparte cuando todos los asientos estén ocupados.",
    seats: "Asientos", asEveryone: "La mesa como la vieron todos", only: "Solo ", saw: " vio",
    nothingMore: "nada más que la mesa de arriba",
    endedOpen: "Esta partida terminó, así que la vista de cada asiento está abierta en cada paso. Mostrar:",
    allSeats: "todos los asientos", sameAsSpectator: "este asiento vio aquí lo mismo que un espectador", same: " (igual)",
    atEventK: "En el evento", nOfM: "{n} de {m}", turn: "Turno", until: " hasta {time}",
    gameOver: "partida terminada", noDecision: "nadie debe decidir", order: "Orden", result: "Resultado", fullResult: "Resultado completo",
    eventNofM: "Evento {n} de {m}: {name}", eventN: "Evento {n}: {name}", concerns: " atañe a ",
    afterAction: " tras una acción de ", hiddenFromViewer: "oculto para quien mira", time: "Hora ",
    deadlineNote: " · plazo {time}: {text}", noData: "sin datos que mostrar", envelope: "Sobre (JSON)",
    system: "sistema", hidden: "oculto", viewingAs: "viendo como {name}",
    tokenNotSeated: "el token no tiene asiento aquí: vista de espectador", spectatorView: "vista de espectador",
    yes: "sí", no: "no", none: "ninguno", items: "{n} elementos", seat: "asiento", toAct: "decide", winner: "★ ganador",
    you: "tú", table: "Mesa", worth: "vale", type_item: "objeto", type_friend: "amigo", type_game: "juego",
    type_special: "especial",
    defaultAfter: "defecto aplicado {n} s después del plazo", defaultBefore: "defecto aplicado {n} s ANTES del plazo",
    metWith: "a tiempo, con {n} s de margen", late: "TARDE por {n} s",
    signedBy: ", firmado con la clave {key}", notSigned: ", no firmado con las claves de este servidor",
    verifiedOk: "verificado: {n} eventos, {m} comprobaciones{signed}", notVerifiedWhy: "NO verificado: {why}{signed}",
    refusedIt: "el verificador lo rechazó", notBundle: "no es un paquete: {detail}",
    onceEnded: "se verifica cuando la partida termine", couldNotExport: "no se pudo exportar: {status}",
    notVerified: "no verificado: {detail}",
    status_waiting: "esperando", status_active: "en juego", status_finished: "terminada", status_cancelled: "cancelada",
    ...CHECK_WORDS.es,
  },
};

export function lang() {
  return pickLang();
}

export function t(key, values = {}) {
  const l = lang();
  const text = REPLAY_WORDS[l][key] ?? REPLAY_WORDS.en[key] ?? key;
  return text.replace(/\{([a-z]+)\}/g, (_, k) => (k in values ? String(values[k]) : `{${k}}`));
}

// The views' keys in words, in the page's language.
export function labels() {
  return lang() === "es" ? { ...LABELS, ...WORDS_ES } : LABELS;
}

// An event's name in words: "game.PlayerJoined" -> "Player joined" / "Alguien se sentó".
export function eventName(type) {
  const bare = String(type).replace(/^[a-z0-9-]+\./, "");
  const named = (EVENT_WORDS[lang()] || {})[`ev_${bare}`];
  return named || humanKey(type, labels());
}

// A decision a seat owes in words ("split_choice" -> "take the cards" / "quedarse las cartas"), as the table says it.
export function kindName(kind) {
  return TABLE_WORDS[lang()][`kind_${kind}`] || TABLE_WORDS.en[`kind_${kind}`] || humanKey(kind, labels());
}

// A refused call's problem in words: its code's sentence (the web client's), else its detail.
export function problemText(body) {
  const code = body && typeof body.code === "string" ? `err_${body.code}` : "";
  return (ERROR_WORDS[lang()] || {})[code] || (body && body.detail) || "";
}

// The words the shared drawing (../shared/draw.js) asks for.
export function drawWords() {
  const keys = ["yes", "no", "seat", "none", "toAct", "winner", "you", "hidden", "table", "worth",
    "type_item", "type_friend", "type_game", "type_special"];
  const table = TABLE_WORDS[lang()] || TABLE_WORDS.en; // the suits, GP and the die's faces, as the table says them
  const cardKeys = Object.keys(table).filter((k) => /^(suit_|abbr_|val_face_|gpShort$|earlierN$)/.test(k));
  return { ...Object.fromEntries(cardKeys.map((k) => [k, table[k]])), ...Object.fromEntries(keys.map((k) => [k, t(k)])) };
}

// A verifier's check in the page's language: its name and what it found or why it failed
// ({name, detail}, ../app/words_checks.js); `seat(n)` names a seat.
export function checkText(check, seat = (n) => t("seatN", { n })) {
  return wordCheck(check, t, seat);
}
