// The page's words in English and Spanish. The language comes from the browser
// (navigator.languages), can be switched, and is sent as Accept-Language so the server's card
// names and texts match it. `t(key, values)` fills {name} placeholders.
import { human, LABELS } from "../shared/dom.js";
import { WORDS_ES } from "./words_es.js";
import { TABLE_WORDS } from "./words_table.js";

const KEY = "marketfold.lang";
export const LANGS = { en: "English", es: "Español" };

export const WORDS = {
  en: {
    title: "marketfold", tagline: "Decktet games at a table, in your browser",
    pickName: "Pick a name to play", name: "Name", play: "Play", haveToken: "I have a token",
    useToken: "Use this token", token: "Token", signOut: "Sign out", signedInAs: "Playing as {name}",
    tokenOnce: "Your token, shown once: copy it to play from another device or a program. This browser keeps it.",
    copy: "Copy", copied: "Copied", dismiss: "Done",
    myGames: "My games", lobby: "Lobby", leagues: "My leagues", none: "none", noGames: "No games yet.",
    lobbyEmpty: "Nobody is waiting for players right now.", standings: "standings",
    newGame: "New game", ruleset: "Game", players: "Players", timeout: "Time per decision",
    noLimit: "no limit", seconds: "{n} s", minutes: "{n} min", sitDown: "Take a seat myself",
    hours: "{n} h", days: "{n} d", claimAfter: "claimable after {time} idle",
    create: "Create", open: "Open", join: "Join", leave: "Leave", watch: "Watch", cancelGame: "Cancel game",
    yourTurn: "your turn", waitingFor: "waiting for players ({n}/{m})", active: "in play",
    finished: "finished", cancelled: "cancelled", waiting: "waiting",
    seatsTaken: "{n} of {m} seats", back: "← All games", language: "Language",
    invite: "Invite by link", inviteHelp: "Send this link: whoever opens it can join.",
    turnOf: "Turn", deadline: "{time} left", noDecision: "no decision owed", gameOver: "game over",
    you: "you", seat: "seat", toAct: "to act", winner: "★ winner", hidden: "hidden", table: "Table",
    yourMove: "Your move", notYourTurn: "Nothing to decide right now.",
    sealedWaiting: "Sealed: waiting for {n} others", sealedWaitingOne: "Sealed: waiting for 1 other",
    send: "Send", submit: "Submit", refused: "Refused: {detail}",
    chat: "Table chat", chatPlaceholder: "Say something", noMessages: "No messages yet.",
    report: "Report", reportWhy: "Why do you report this message to the server's operators?",
    reported: "Reported", hide: "Hide", hideWhy: "Why hide this message? (players see the reason)",
    chatHidden: "Hidden by the operators: {reason}",
    moderation: "Moderation", moderationDone: "Done: {what}", notOperator: "This page is for the server's operators.",
    reportLine: "{by} reported {who} · {at}", reportGame: "Open the game", noReports: "No open reports.",
    mute: "Mute", muteWhy: "Why mute {who}? (they are told)", ban: "Ban", banWhy: "Why ban {who}? (they are told)",
    banSure: "Ban {who}? Their tokens stop working, their waiting games are cancelled and their running seats resign.",
    closeReport: "Close", closeWhy: "What was done? (a note for the other operators)",
    lastEvents: "What just happened", resign: "Resign", resignSure: "Resign this game? Your seat then plays defaults to the end.",
    rematch: "Rematch", replay: "Replay", result: "Result", place: "Place", score: "Score", player: "Player",
    spectating: "You are watching: only public facts are shown.", signInToPlay: "Pick a name above to join.",
    notify: "Notify me on my turn", notifyOn: "Notifications on", live: "live", reconnecting: "reconnecting…",
    waitingStart: "{n} of {m} seats taken. The game starts when every seat is filled.",
    timedOut: "{name}'s time ran out: the default was played", joined: "{name} sat down",
    left: "{name} left", started: "The game started", ended: "The game ended", resigned: "{name} resigned",
    created: "Game created", cancelledEv: "The game was cancelled", hiddenEv: "something hidden happened",
    leaguesNone: "You are in no league.", loading: "Loading…", error: "Error", reload: "Try again",
    rematchOffer: "{name} offers a rematch", accept: "Accept", decline: "Decline", invitations: "Invitations",
    invitedTo: "New invitation: {name}",
    turnElsewhere: "Your turn in 1 other game", turnsElsewhere: "Your turn in {n} other games",
    inviteNames: "Invite players (handles, comma separated)", unlisted: "Private (not in the lobby)",
    handle: "Handle (optional)", handleHint: "Others invite you to games by it.", rematchTag: "rematch",
    yes: "yes", no: "no", answer_pending: "invited", answer_accepted: "accepted", answer_declined: "declined", answer_lapsed: "lapsed",
    pushTitle: "Notifications when I am away", pushOff: "Turn on push notifications", pushOn: "Push notifications on (turn off)",
    pushStarted: "This browser will show your notifications, even with no marketfold page open.",
    pushStopped: "This browser will no longer show your notifications.",
    pushBlocked: "Notifications are blocked for this site in the browser's settings.",
    pushUnsupported: "This browser cannot receive push notifications.", pushFailed: "Could not change it: {detail}",
    pushNoService: "the browser's push service did not answer",
  },
  es: {
    title: "marketfold", tagline: "Juegos del Decktet en una mesa, en tu navegador",
    pickName: "Elige un nombre para jugar", name: "Nombre", play: "Jugar", haveToken: "Tengo un token",
    useToken: "Usar este token", token: "Token", signOut: "Salir", signedInAs: "Juegas como {name}",
    tokenOnce: "Tu token, se muestra una vez: cópialo para jugar desde otro dispositivo o un programa. Este navegador lo guarda.",
    copy: "Copiar", copied: "Copiado", dismiss: "Hecho",
    myGames: "Mis partidas", lobby: "Sala", leagues: "Mis ligas", none: "nada", noGames: "Aún no hay partidas.",
    lobbyEmpty: "Ahora nadie espera jugadores.", standings: "clasificación",
    newGame: "Nueva partida", ruleset: "Juego", players: "Jugadores", timeout: "Tiempo por decisión",
    noLimit: "sin límite", seconds: "{n} s", minutes: "{n} min", sitDown: "Sentarme yo también",
    hours: "{n} h", days: "{n} d", claimAfter: "reclamable tras {time} sin jugar",
    create: "Crear", open: "Abrir", join: "Unirme", leave: "Salir de la mesa", watch: "Mirar", cancelGame: "Cancelar partida",
    yourTurn: "tu turno", waitingFor: "esperando jugadores ({n}/{m})", active: "en juego",
    finished: "terminada", cancelled: "cancelada", waiting: "esperando",
    seatsTaken: "{n} de {m} asientos", back: "← Todas las partidas", language: "Idioma",
    invite: "Invitar con un enlace", inviteHelp: "Envía este enlace: quien lo abra puede unirse.",
    turnOf: "Turno", deadline: "quedan {time}", noDecision: "nadie decide ahora", gameOver: "partida terminada",
    you: "tú", seat: "asiento", toAct: "debe decidir", winner: "★ ganador", hidden: "oculto", table: "Mesa",
    yourMove: "Tu jugada", notYourTurn: "Ahora no tienes nada que decidir.",
    sealedWaiting: "Sellado: esperando a {n} más", sealedWaitingOne: "Sellado: esperando a 1 más",
    send: "Enviar", submit: "Confirmar", refused: "Rechazado: {detail}",
    chat: "Chat de la mesa", chatPlaceholder: "Escribe algo", noMessages: "Aún no hay mensajes.",
    report: "Denunciar", reportWhy: "¿Por qué denuncias este mensaje a los operadores del servidor?",
    reported: "Denunciado", hide: "Ocultar", hideWhy: "¿Por qué ocultar este mensaje? (los jugadores ven el motivo)",
    chatHidden: "Oculto por los operadores: {reason}",
    moderation: "Moderación", moderationDone: "Hecho: {what}", notOperator: "Esta página es para los operadores del servidor.",
    reportLine: "{by} denunció a {who} · {at}", reportGame: "Abrir la partida", noReports: "No hay denuncias abiertas.",
    mute: "Silenciar", muteWhy: "¿Por qué silenciar a {who}? (se le dirá)", ban: "Expulsar", banWhy: "¿Por qué expulsar a {who}? (se le dirá)",
    banSure: "¿Expulsar a {who}? Sus tokens dejan de valer, sus partidas en espera se cancelan y sus asientos en juego abandonan.",
    closeReport: "Cerrar", closeWhy: "¿Qué se hizo? (una nota para los demás operadores)",
    lastEvents: "Lo último que pasó", resign: "Abandonar", resignSure: "¿Abandonar la partida? Tu asiento jugará por defecto hasta el final.",
    rematch: "Revancha", replay: "Repetición", result: "Resultado", place: "Puesto", score: "Puntos", player: "Jugador",
    spectating: "Estás mirando: solo se muestra lo público.", signInToPlay: "Elige un nombre arriba para unirte.",
    notify: "Avisarme en mi turno", notifyOn: "Avisos activados", live: "en directo", reconnecting: "reconectando…",
    waitingStart: "{n} de {m} asientos ocupados. La partida empieza cuando se llenan todos.",
    timedOut: "A {name} se le acabó el tiempo: se jugó la opción por defecto", joined: "{name} se sentó",
    left: "{name} se fue", started: "Empezó la partida", ended: "Terminó la partida", resigned: "{name} abandonó",
    created: "Partida creada", cancelledEv: "Se canceló la partida", hiddenEv: "pasó algo oculto",
    leaguesNone: "No estás en ninguna liga.", loading: "Cargando…", error: "Error", reload: "Reintentar",
    rematchOffer: "{name} ofrece la revancha", accept: "Aceptar", decline: "Rechazar", invitations: "Invitaciones",
    invitedTo: "Nueva invitación: {name}",
    turnElsewhere: "Tu turno en otra partida", turnsElsewhere: "Tu turno en {n} partidas más",
    inviteNames: "Invitar jugadores (identificadores, separados por comas)", unlisted: "Privada (fuera de la sala)",
    handle: "Identificador (opcional)", handleHint: "Con él te invitan a partidas.", rematchTag: "revancha",
    yes: "sí", no: "no", answer_pending: "invitado", answer_accepted: "aceptó", answer_declined: "rechazó", answer_lapsed: "caducó",
    pushTitle: "Avisos cuando no estoy", pushOff: "Activar avisos push", pushOn: "Avisos push activados (desactivar)",
    pushStarted: "Este navegador mostrará tus avisos, aunque no haya ninguna página de marketfold abierta.",
    pushStopped: "Este navegador ya no mostrará tus avisos.",
    pushBlocked: "Los avisos de este sitio están bloqueados en los ajustes del navegador.",
    pushUnsupported: "Este navegador no puede recibir avisos push.", pushFailed: "No se pudo cambiar: {detail}",
    pushNoService: "el servicio push del navegador no respondió",
  },
};

export function lang() {
  let chosen = null;
  try {
    chosen = localStorage.getItem(KEY);
  } catch {
    chosen = null;
  }
  if (chosen && WORDS[chosen]) return chosen;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (WORDS[short]) return short;
  }
  return "en";
}

export function setLang(l) {
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l;
}

export function t(key, values = {}) {
  const l = lang();
  const text = WORDS[l][key] ?? TABLE_WORDS[l][key] ?? WORDS.en[key] ?? TABLE_WORDS.en[key] ?? key;
  return text.replace(/\{([a-z]+)\}/g, (_, k) => (k in values ? String(values[k]) : `{${k}}`));
}

// A key of the API's JSON (a view's field, a decision, an action type) as words in the
// page's language.
export function labels() {
  return lang() === "es" ? { ...LABELS, ...WORDS_ES } : LABELS;
}

export function word(key) {
  return human(key, labels());
}

// An untimed game's idle time before a seat may claim it, as the lobby, an invitation and
// the table show it (null for a timed game: nothing to show).
export function claimText(seconds) {
  if (!Number.isInteger(seconds)) return null;
  const [key, n] = seconds % 86400 === 0 ? ["days", seconds / 86400]
    : seconds % 3600 === 0 ? ["hours", seconds / 3600]
    : seconds % 60 === 0 ? ["minutes", seconds / 60] : ["seconds", seconds];
  return t("claimAfter", { time: t(key, { n }) });
}

// A refused call's problem in the page's language: its code's words when there are some,
// else the server's own detail.
export function problemWords(e) {
  if (!e) return "";
  const key = `err_${e.code || (e.status === 404 ? "not_found" : "")}`;
  const words = t(key);
  return words !== key ? words : String(e.message || e);
}
