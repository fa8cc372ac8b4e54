// The page's words in English and Spanish. The language comes from the browser
// (navigator.languages), can be switched, and is sent as Accept-Language so the server's card
// names and texts match it. `t(key, values)` fills {name} placeholders.
import { human, LABELS } from "../shared/dom.js";
import { WORDS_ES } from "./words_es.js";
import { TABLE_WORDS } from "./words_table.js";
import { LANGS, pickLang, storeLang } from "../shared/lang.js";

export { LANGS };

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
    perDecision: "{time} per decision", noTimeLimit: "no time limit", optionsOf: "Options: {list}",
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
    operatorsLink: "Roles and moderation", rolesTitle: "Roles", rolesHelp: "Organizers create and run leagues; operators run the server and grant roles. A role works from the player's next action, no restart.",
    grantWho: "Player (handle or id)", grantRole: "Role", grant: "Grant", granted: "{name} is now {role}.",
    role_organizer: "organizer", role_operator: "operator", roleFromConfig: "(set in the server's OPERATORS setting)",
    revoke: "Revoke", revokeSure: "Take the {role} role from {name}?",
    moderation: "Moderation", moderationDone: "Done: {what}", notOperator: "This page is for the server's operators.",
    reportLine: "{by} reported {who} · {at}", reportGame: "Open the game", noReports: "No open reports.",
    mute: "Mute", muteWhy: "Why mute {who}? (they are told)", ban: "Ban", banWhy: "Why ban {who}? (they are told)",
    banSure: "Ban {who}? Their tokens stop working, their waiting games are cancelled and their running seats resign.",
    closeReport: "Close", closeWhy: "What was done? (a note for the other operators)",
    lastEvents: "What just happened", resign: "Resign", resignSure: "Resign this game? Your seat then plays defaults to the end.",
    rematch: "Rematch", replay: "Replay", result: "Result", place: "Place", score: "Score", player: "Player",
    receiptKept: "Receipt kept", receiptDownload: "Download receipt",
    receiptHelp: "This browser keeps the service's signed receipt of this game: with it, marketfold verify --seen shows whether the game was changed later.",
    spectating: "You are watching: only public facts are shown.", signInToPlay: "Pick a name above to join.",
    notify: "Notify me on my turn", notifyOn: "Notifications on", live: "live", reconnecting: "reconnecting…",
    waitingStart: "{n} of {m} seats taken. The game starts when every seat is filled.",
    timedOut: "{name}'s time ran out: the default was played", joined: "{name} sat down",
    left: "{name} left", started: "The game started", startedOrder: "The game started: {names} play in that order", revealsOpenedEv: "Every seat is taken: {names} reveal their random secrets", ended: "The game ended", resigned: "{name} resigned",
    pausedEv: "The league's organizers paused the table", resumedEv: "The league's organizers restarted the table's clock",
    created: "The game was created", cancelledEv: "The game was cancelled", hiddenEv: "something hidden happened",
    termsEv: "The table's terms were set", termsPrivate: "the table is private", termsReserved: "seats are kept for the invited until {time}",
    declinedEv: "An invited player declined", lapsedEv: "The seats kept for the invited were freed", lapsedListed: "the table is now listed in the lobby",
    revealedEv: "{name} revealed their random secret", combinedEv: "The players' secrets were mixed into the shuffles",
    withheldEv: "{names} never revealed theirs", withheldEv_one: "{names} never revealed theirs",
    uncommittedEv: "{names} sent no secret", uncommittedEv_one: "{names} sent no secret",
    leaguesNone: "You are in no league.", loading: "Loading…", error: "Error", reload: "Try again",
    rematchOffer: "{name} offers a rematch", accept: "Accept", decline: "Decline", invitations: "Invitations",
    invitedTo: "New invitation: {name}",
    turnElsewhere: "Your turn in 1 other game", turnsElsewhere: "Your turn in {n} other games",
    inviteNames: "Invite players (handles, comma separated)", unlisted: "Private (not in the lobby)",
    handle: "Handle (optional)", handleHint: "Others invite you to games by it.", rematchTag: "rematch",
    playComputer: "Play against the computer", playComputerHelp: "A table with you and computer players, started at once.",
    computerLevel: "Computer level", level_quick: "quick", level_strong: "strong",
    levelHelp_quick: "Answers at once, with simple habits.",
    levelHelp_strong: "Thinks up to a second per move, playing out many possible deals of the cards it cannot see.",
    computerTag: "computer, {level}", fillComputer: "Fill the empty seats with computer players",
    fillNow: "Fill the empty seats with computer players", computerPlayers: "Computer players",
    yes: "yes", no: "no", answer_pending: "invited", answer_accepted: "accepted", answer_declined: "declined", answer_lapsed: "lapsed",
    pushTitle: "Notifications when I am away", pushOff: "Turn on push notifications", pushOn: "Push notifications on (turn off)",
    pushStarted: "This browser will show your notifications, even with no marketfold page open.",
    pushStopped: "This browser will no longer show your notifications.",
    pushBlocked: "Notifications are blocked for this site in the browser's settings.",
    pushUnsupported: "This browser cannot receive push notifications.", pushFailed: "Could not change it: {detail}",
    pushNoService: "the browser's push service did not answer",
    inbox: "Notifications", unread: "unread", unreadCount: "{n} unread", unreadBadge: "{n} unread",
    unreadOne: "1 unread notification", unreadMany: "{n} unread notifications", noNotes: "No notifications yet.",
    markRead: "Mark read", markAllRead: "Mark all read", notifySettings: "Notification settings",
    emailAddress: "E-mail address", verified: "verified", unverified: "not verified yet: open the link we sent", noAddress: "no address: no e-mails",
    timeZone: "Time zone", quietHours: "Quiet hours (turns wait until they end)", quietFrom: "Quiet from", quietTo: "Quiet until",
    reminder: "Remind me before a deadline", reminderAt: "when {n}% of the time is left", never: "never",
    digest: "Daily e-mail digest at", whatTells: "What tells me of what", notification: "Notification",
    channel_email: "E-mail", channel_push: "Push", channel_webhook: "Webhook", save: "Save", savedSettings: "Saved.",
    type_your_turn: "Your turn", type_deadline_reminder: "Deadline reminder", type_invitation: "Invitation",
    type_rematch: "Rematch offer", type_invitation_answered: "Invitation answered", type_game_started: "Game started",
    type_game_finished: "Game ended", type_trade_offer: "Private trade offer", type_round_started: "League round started",
    type_withdrawn: "Withdrawn from a league", type_reinstated: "Reinstated in a league", type_substituted: "Seat substituted",
    type_removed: "Removed from a league", type_forfeit: "Game forfeited", type_dispute_opened: "Dispute opened",
    type_dispute_ruled: "Dispute ruled", type_league_finished: "League over", type_webhook_disabled: "Webhook disabled",

    // leagues
    newLeague: "New league", newLeagueHelp: "Players join from the league's page (its join link) or you add them by handle. Times are in your time zone.",
    createLeague: "Create league", atLeast: "at least", atMost: "at most", inZone: "your time zone: {zone}", unit: "unit",
    unit_seconds: "seconds", unit_minutes: "minutes", unit_hours: "hours", unit_days: "days",
    lf_name: "League name", lf_ruleset: "Game", lf_table_size: "Players per table", lf_rounds: "Rounds",
    lf_start_at: "Round 1 starts", lf_cadence_s: "Time between rounds", lf_decision_timeout_s: "Time per decision",
    lf_withdraw_after_timeouts: "Withdraw after timeouts in a row", lf_points: "Points by place",
    lf_late_join_until_round: "Late joining until round", lf_bye_points: "Points for a bye",
    lfh_withdraw_after_timeouts: "A member whose decisions time out this many times in a row plays no later rounds. 0: never.",
    lfh_points: "First place, second, …, separated by commas. Empty: 3, 2, 1, 0, 0, 0.",
    lfh_late_join_until_round: "Players may still join until this round starts (0: until round 1).",
    lfh_bye_points: "Empty: the average of that player's own games.",
    lfh_decision_timeout_s: "A decision not made in time gets the game's default.",
    league_scheduled: "not started", league_running: "running", league_paused: "paused", league_finished: "finished", league_cancelled: "cancelled",
    roundOf: "round {n} of {m}", membersN: "{n} players", membersN_one: "1 player", standingsPage: "Standings page", standingsCsv: "Standings as CSV",
    roundFinished: "Round {n} is finished.", nextRoundAt: "Round {n} starts {when}.",
    leaguePausedNote: "The league is paused: no round starts until it resumes. Games under way go on.",
    leagueFinishedNote: "The league is over: the standings are final.",
    daysHours: "{d} d {h} h", hoursMinutes: "{h} h {m} min", overdue: "time is up", owedFor: "waiting {time}",
    byeAverage: "the player's average",
    yourPlace: "You in this league", signInToJoin: "Pick a name on the home page to join.", youAreMember: "You play in this league.",
    leaveLeague: "Leave the league", leaveLeagueSure: "Leave this league? You play no more rounds and resign your unfinished games of it.",
    youWithdrew: "You left this league (from round {n}).", joinLeague: "Join the league", joiningClosed: "Joining is closed.",
    joinLink: "Join link", joinLinkHelp: "Send this link: whoever opens it can join the league.",
    rounds: "Rounds", roundN: "Round {n}", round_finished: "finished", round_playing: "being played",
    round_scheduled: "to come", round_paused: "on hold", round_cancelled: "cancelled",
    startsAt: "Starts {when}", sittingOut: "Sitting out: {names}", tableN: "Table {n}",
    aborted: "aborted", opening: "opening", scheduled: "to come", paused: "paused",
    openTable: "Open the table", placeN: "place {n}", owesKind: "owes: {kind}", late: "late", noShow: "no-show ({n} timed out)", noShow_one: "no-show (1 timed out)",
    standingsTitle: "Standings", points: "Points", gamesN: "Games", won: "Won", byesN: "Byes", withdrawnTag: "withdrawn",
    noMembers: "No players yet.", organizerTag: "you organize", leagueWhere: "{name} · round {round} · table {table}",
    organizerDesk: "Organizer's desk", addByHandle: "A player's handle", addMember: "Add now", memberAdded: "{name} is in the league.",
    membersTitle: "Players", withdrawnFrom: "withdrawn from round {n}", removeMember: "Remove",
    removeSure: "Remove {name} from the league? They play no more rounds and resign their unfinished games of it.",
    pauseLeague: "Pause the league", pauseSure: "Pause the league? No round starts until you resume it; games under way go on.",
    resumeLeague: "Resume the league", resumeSure: "Resume the league? The next round starts now or at its time, the others one cadence apart.",
    cancelLeague: "Cancel the league", cancelSure: "Cancel the league for good? Every unfinished game of it is aborted.",
    leagueActions: "The league",
    disputesTitle: "Disputes and rulings", disputesWaiting: "{n} disputes wait for your ruling.", disputesWaiting_one: "1 dispute waits for your ruling.", disputeN: "Dispute {n}",
    dispute_open: "open", dispute_ruled: "ruled", disputeWhere: "by {name} · round {round} · table {table}",
    ruledAs: "Ruling: {what} ({reason})", noDisputes: "No disputes.", rulingsTitle: "Rulings", rulingInForce: "Ruling: {what}",
    tableInRound: "Round {round}, table {table}", ruleOnGame: "Rule on a game", ruleOnDispute: "Rule on dispute {n}",
    whichGame: "Game", rulingKind: "Ruling", rulingReason: "Reason (shown to everyone, kept in the league's log)",
    rulingPoints: "League points for this game", rulingForfeiters: "Who forfeits", recordRuling: "Record the ruling",
    rulingSure: "Record this ruling ({kind}) on table {n}? It goes into the league's log for good; a later ruling can change it.",
    ruling_stands: "the result stands", ruling_adjusted: "points adjusted", ruling_annulled: "game annulled",
    ruling_forfeit: "forfeit", ruling_replay: "the table plays again",
    disputeGame: "Dispute this game", disputeHelp: "Say what went wrong: the organizer sees it with the game's record and rules on it.",
    disputeReason: "What went wrong", sendDispute: "Send to the organizer", disputeOpened: "Dispute {n} is open: the organizer is told.",
    reinstate: "Reinstate", reinstateSure: "Reinstate {name}? They are paired again from the next round.",
    substitute: "Substitute…", substituteHandle: "Who takes {name}'s place (handle)", substituteGo: "Substitute",
    substituteSure: "Put {sub} in {name}'s place? {sub} plays {name}'s later rounds and takes their seat at running games now.",
    organizersTitle: "Organizers", addOrganizer: "Add an organizer (handle)", addOrganizerGo: "Add", editSettings: "Change settings not in effect yet",
    pauseTable: "Pause table", resumeTable: "Resume table",
    pausedSince: "Paused since {when}", tablePausedSince: "The league's organizers paused this table on {when}: no deadline runs and nobody can move until they resume it.",
    seatAwayUntil: "{name} is away from {from} until {until}: their deadlines in those days are extended.", awayUntil: "away until {until}",
    vacationTitle: "Days away", vacationHelp: "Going away? Declare the days: your deadlines in those days are extended, and your tables see it. This league allows {n} days per player; you have {left} left.",
    vacationHelp_one: "Going away? Declare the days: your deadlines in those days are extended, and your tables see it. This league allows 1 day per player; you have {left} left.",
    vacationSpan: "Away from {from} until {until} ({n} days)", vacationSpan_one: "Away from {from} until {until} (1 day)", vacationFrom: "First day", vacationDays: "Days",
    declareVacation: "Declare days away", vacationSure: "Declare yourself away from {from} until {until}? It takes {n} of your days and cannot be undone.",
    pauseTableSure: "Stop the clock of table {n}? Nobody there can move until you resume it.",
    resumeTableSure: "Restart the clock of table {n}? Every owed decision gets back the time it had left.",
    editLeague: "Settings of {name}", editLeagueHelp: "Only what you change is sent; a setting already in effect is refused and nothing changes.",
    reviewTitle: "Review: round {round}, table {table}", reviewGame: "Review and rule", replayViewer: "Step through the replay",
    exportGame: "The game's signed export", rulingAfterResult: "A ruling can be recorded once the game's result is in.",
    resultTitle: "Result", placeTitle: "Place", pointsNow: "League points now", notRecordedYet: "Not recorded yet.",
    checksTitle: "The audit's checks", checksAllOk: "Every check passes ({n} events decided again).", checksFailed: "A check fails: see below.", atEventN: "event {n}",
    checkPassed: "passed:", checkFailed: "FAILED:", checksWhenEnded: "The audit runs once the game has ended.",
    refusedTitle: "Refused attempts", lateBy: "deadline {deadline}, arrived {arrived}", arrivedAt: "Arrived", refusedCode: "Code",
    refusedWhy: "Why", noRefused: "No move of this table was refused.", outagesTitle: "Server outages while it ran",
    outageSpan: "From {from} until {until} ({n} s)", noOutages: "No outage was recorded while this game ran.",
    movesTitle: "The moves", movesHelp: "Every event of the game's log, in order; a decision the server took for a seat when its time ran out is marked.",
    defaulted: "default",
    backToLeague: "← The league", saveSettings: "Save the changes",
    lf_absence_window: "Absence: decisions looked at", lf_absence_share: "Absence: share defaulted", lf_absence_days: "Absence: days without a move",
    lf_forfeit_points: "Points for a forfeit", lf_vacation_days: "Vacation days per player",
    inviteMember: "Invite", memberInvited: "{name} is invited: they join or decline from their home page.",
    invitedTitle: "Invited, no answer yet", youAreInvited: "You are invited to this league.",
    nDays: "{n} d", nHours: "{n} h", nMinutes: "{n} min", nSeconds: "{n} s",
    lfh_cadence_s: "Round n starts this long after round n − 1.", gameOptions: "Game options",
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
    perDecision: "{time} por decisión", noTimeLimit: "sin límite de tiempo", optionsOf: "Opciones: {list}",
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
    sealedWaiting: "Enviado: faltan {n} jugadores", sealedWaitingOne: "Enviado: falta 1 jugador",
    send: "Enviar", submit: "Confirmar", refused: "Rechazado: {detail}",
    chat: "Chat de la mesa", chatPlaceholder: "Escribe algo", noMessages: "Aún no hay mensajes.",
    report: "Denunciar", reportWhy: "¿Por qué denuncias este mensaje a los operadores del servidor?",
    reported: "Denunciado", hide: "Ocultar", hideWhy: "¿Por qué ocultar este mensaje? (los jugadores ven el motivo)",
    chatHidden: "Oculto por los operadores: {reason}",
    operatorsLink: "Roles y moderación", rolesTitle: "Roles", rolesHelp: "Los organizadores crean y llevan ligas; los operadores llevan el servidor y dan roles. Un rol vale desde la siguiente acción del jugador, sin reiniciar.",
    grantWho: "Jugador (alias o id)", grantRole: "Rol", grant: "Dar el rol", granted: "{name} ahora es {role}.",
    role_organizer: "organizador", role_operator: "operador", roleFromConfig: "(fijado en el ajuste OPERATORS del servidor)",
    revoke: "Quitar el rol", revokeSure: "¿Quitar el rol de {role} a {name}?",
    moderation: "Moderación", moderationDone: "Hecho: {what}", notOperator: "Esta página es para los operadores del servidor.",
    reportLine: "{by} denunció a {who} · {at}", reportGame: "Abrir la partida", noReports: "No hay denuncias abiertas.",
    mute: "Silenciar", muteWhy: "¿Por qué silenciar a {who}? (se le dirá)", ban: "Expulsar", banWhy: "¿Por qué expulsar a {who}? (se le dirá)",
    banSure: "¿Expulsar a {who}? Sus tokens dejan de valer, sus partidas en espera se cancelan y sus asientos en juego abandonan.",
    closeReport: "Cerrar", closeWhy: "¿Qué se hizo? (una nota para los demás operadores)",
    lastEvents: "Lo último que pasó", resign: "Abandonar", resignSure: "¿Abandonar la partida? Tu asiento jugará por defecto hasta el final.",
    rematch: "Revancha", replay: "Repetición", result: "Resultado", place: "Puesto", score: "Puntos", player: "Jugador",
    receiptKept: "Recibo guardado", receiptDownload: "Descargar el recibo",
    receiptHelp: "Este navegador guarda el recibo firmado de esta partida: con él, marketfold verify --seen muestra si la partida se cambió después.",
    spectating: "Estás mirando: solo se muestra lo público.", signInToPlay: "Elige un nombre arriba para unirte.",
    notify: "Avisarme en mi turno", notifyOn: "Avisos activados", live: "en directo", reconnecting: "reconectando…",
    waitingStart: "{n} de {m} asientos ocupados. La partida empieza cuando se llenan todos.",
    timedOut: "A {name} se le acabó el tiempo: se jugó la opción por defecto", joined: "{name} se sentó",
    left: "{name} se fue", started: "Empezó la partida", startedOrder: "Empezó la partida: juegan {names}, en ese orden", revealsOpenedEv: "Todos sentados: {names} revelan su secreto aleatorio", ended: "Terminó la partida", resigned: "{name} abandonó",
    pausedEv: "Los organizadores de la liga pausaron la mesa", resumedEv: "Los organizadores de la liga reanudaron el reloj de la mesa",
    created: "Se creó la partida", cancelledEv: "Se canceló la partida", hiddenEv: "pasó algo oculto",
    termsEv: "Se fijaron las condiciones de la mesa", termsPrivate: "la mesa es privada", termsReserved: "los asientos se guardan a los invitados hasta {time}",
    declinedEv: "Una persona invitada dijo que no", lapsedEv: "Se liberaron los asientos guardados a los invitados", lapsedListed: "la mesa ya aparece en la lista",
    revealedEv: "{name} reveló su secreto aleatorio", combinedEv: "Los secretos de los jugadores se mezclaron en los barajados",
    withheldEv: "{names} no revelaron el suyo", withheldEv_one: "{names} no reveló el suyo",
    uncommittedEv: "{names} no enviaron secreto", uncommittedEv_one: "{names} no envió secreto",
    leaguesNone: "No estás en ninguna liga.", loading: "Cargando…", error: "Error", reload: "Reintentar",
    rematchOffer: "{name} ofrece la revancha", accept: "Aceptar", decline: "Rechazar", invitations: "Invitaciones",
    invitedTo: "Nueva invitación: {name}",
    turnElsewhere: "Tu turno en otra partida", turnsElsewhere: "Tu turno en {n} partidas más",
    inviteNames: "Invitar jugadores (identificadores, separados por comas)", unlisted: "Privada (fuera de la sala)",
    handle: "Identificador (opcional)", handleHint: "Con él te invitan a partidas.", rematchTag: "revancha",
    playComputer: "Jugar contra el ordenador", playComputerHelp: "Una mesa contigo y jugadores del ordenador, que empieza al momento.",
    computerLevel: "Nivel del ordenador", level_quick: "rápido", level_strong: "fuerte",
    levelHelp_quick: "Responde al instante, con hábitos sencillos.",
    levelHelp_strong: "Piensa hasta un segundo por jugada, jugando muchos repartos posibles de las cartas que no ve.",
    computerTag: "ordenador, {level}", fillComputer: "Llenar los asientos vacíos con jugadores del ordenador",
    fillNow: "Llenar los asientos vacíos con jugadores del ordenador", computerPlayers: "Jugadores del ordenador",
    yes: "sí", no: "no", answer_pending: "invitado", answer_accepted: "aceptó", answer_declined: "rechazó", answer_lapsed: "caducó",
    pushTitle: "Avisos cuando no estoy", pushOff: "Activar avisos push", pushOn: "Avisos push activados (desactivar)",
    pushStarted: "Este navegador mostrará tus avisos, aunque no haya ninguna página de marketfold abierta.",
    pushStopped: "Este navegador ya no mostrará tus avisos.",
    pushBlocked: "Los avisos de este sitio están bloqueados en los ajustes del navegador.",
    pushUnsupported: "Este navegador no puede recibir avisos push.", pushFailed: "No se pudo cambiar: {detail}",
    pushNoService: "el servicio push del navegador no respondió",
    inbox: "Avisos", unread: "sin leer", unreadCount: "{n} sin leer", unreadBadge: "{n} sin leer",
    unreadOne: "1 sin leer en avisos", unreadMany: "{n} sin leer en avisos", noNotes: "Aún no hay avisos.",
    markRead: "Marcar leído", markAllRead: "Marcar todo leído", notifySettings: "Ajustes de avisos",
    emailAddress: "Correo electrónico", verified: "verificado", unverified: "sin verificar: abre el enlace que te enviamos", noAddress: "sin dirección: sin correos",
    timeZone: "Zona horaria", quietHours: "Horas de silencio (los turnos esperan a que acaben)", quietFrom: "Silencio desde", quietTo: "Silencio hasta",
    reminder: "Recordarme antes del plazo", reminderAt: "cuando quede el {n}% del tiempo", never: "nunca",
    digest: "Resumen diario por correo a las", whatTells: "Qué me avisa de qué", notification: "Aviso",
    channel_email: "Correo", channel_push: "Push", channel_webhook: "Webhook", save: "Guardar", savedSettings: "Guardado.",
    type_your_turn: "Tu turno", type_deadline_reminder: "Recordatorio de plazo", type_invitation: "Invitación",
    type_rematch: "Oferta de revancha", type_invitation_answered: "Invitación respondida", type_game_started: "Partida empezada",
    type_game_finished: "Partida terminada", type_trade_offer: "Oferta privada", type_round_started: "Ronda de liga empezada",
    type_withdrawn: "Retirado de una liga", type_reinstated: "Readmitido en una liga", type_substituted: "Asiento sustituido",
    type_removed: "Quitado de una liga", type_forfeit: "Partida perdida por abandono", type_dispute_opened: "Disputa abierta",
    type_dispute_ruled: "Disputa resuelta", type_league_finished: "Liga terminada", type_webhook_disabled: "Webhook desactivado",

    // ligas
    newLeague: "Nueva liga", newLeagueHelp: "Los jugadores se unen desde la página de la liga (su enlace) o los añades por su identificador. Las horas son las de tu zona horaria.",
    createLeague: "Crear la liga", atLeast: "como mínimo", atMost: "como máximo", inZone: "tu zona horaria: {zone}", unit: "unidad",
    unit_seconds: "segundos", unit_minutes: "minutos", unit_hours: "horas", unit_days: "días",
    lf_name: "Nombre de la liga", lf_ruleset: "Juego", lf_table_size: "Jugadores por mesa", lf_rounds: "Rondas",
    lf_start_at: "Empieza la ronda 1", lf_cadence_s: "Tiempo entre rondas", lf_decision_timeout_s: "Tiempo por decisión",
    lf_withdraw_after_timeouts: "Retirar tras plazos vencidos seguidos", lf_points: "Puntos por puesto",
    lf_late_join_until_round: "Unirse tarde hasta la ronda", lf_bye_points: "Puntos por descanso",
    lfh_withdraw_after_timeouts: "Quien deja vencer tantas decisiones seguidas no juega más rondas. 0: nunca.",
    lfh_points: "Primer puesto, segundo, …, separados por comas. Vacío: 3, 2, 1, 0, 0, 0.",
    lfh_late_join_until_round: "Aún se puede entrar hasta que empiece esta ronda (0: hasta la ronda 1).",
    lfh_bye_points: "Vacío: la media de las partidas de ese jugador.",
    lfh_decision_timeout_s: "Una decisión no tomada a tiempo recibe la opción por defecto del juego.",
    league_scheduled: "sin empezar", league_running: "en marcha", league_paused: "en pausa", league_finished: "terminada", league_cancelled: "cancelada",
    roundOf: "ronda {n} de {m}", membersN: "{n} jugadores", membersN_one: "1 jugador", standingsPage: "Página de la clasificación", standingsCsv: "Clasificación en CSV",
    roundFinished: "La ronda {n} ha terminado.", nextRoundAt: "La ronda {n} empieza el {when}.",
    leaguePausedNote: "La liga está en pausa: no empieza ninguna ronda hasta que se reanude. Las partidas en curso siguen.",
    leagueFinishedNote: "La liga ha terminado: la clasificación es definitiva.",
    daysHours: "{d} d {h} h", hoursMinutes: "{h} h {m} min", overdue: "se acabó el tiempo", owedFor: "esperando {time}",
    byeAverage: "la media del jugador",
    yourPlace: "Tu lugar en la liga", signInToJoin: "Elige un nombre en la página de inicio para unirte.", youAreMember: "Juegas en esta liga.",
    leaveLeague: "Dejar la liga", leaveLeagueSure: "¿Dejar esta liga? No jugarás más rondas y abandonarás tus partidas sin terminar de ella.",
    youWithdrew: "Dejaste esta liga (desde la ronda {n}).", joinLeague: "Unirme a la liga", joiningClosed: "Ya no se puede entrar.",
    joinLink: "Enlace para unirse", joinLinkHelp: "Envía este enlace: quien lo abra puede unirse a la liga.",
    rounds: "Rondas", roundN: "Ronda {n}", round_finished: "terminada", round_playing: "en juego",
    round_scheduled: "por jugar", round_paused: "en espera", round_cancelled: "cancelada",
    startsAt: "Empieza el {when}", sittingOut: "Descansan: {names}", tableN: "Mesa {n}",
    aborted: "anulada", opening: "abriéndose", scheduled: "por jugar", paused: "en pausa",
    openTable: "Abrir la mesa", placeN: "puesto {n}", owesKind: "debe: {kind}", late: "tarde", noShow: "ausente ({n} plazos vencidos)", noShow_one: "ausente (1 plazo vencido)",
    standingsTitle: "Clasificación", points: "Puntos", gamesN: "Partidas", won: "Ganadas", byesN: "Descansos", withdrawnTag: "retirado",
    noMembers: "Aún no hay jugadores.", organizerTag: "la organizas", leagueWhere: "{name} · ronda {round} · mesa {table}",
    organizerDesk: "Mesa del organizador", addByHandle: "Identificador del jugador", addMember: "Añadir ya", memberAdded: "{name} está en la liga.",
    membersTitle: "Jugadores", withdrawnFrom: "retirado desde la ronda {n}", removeMember: "Quitar",
    removeSure: "¿Quitar a {name} de la liga? No jugará más rondas y abandonará sus partidas sin terminar de ella.",
    pauseLeague: "Pausar la liga", pauseSure: "¿Pausar la liga? No empieza ninguna ronda hasta que la reanudes; las partidas en curso siguen.",
    resumeLeague: "Reanudar la liga", resumeSure: "¿Reanudar la liga? La próxima ronda empieza ya o a su hora, las demás con su cadencia.",
    cancelLeague: "Cancelar la liga", cancelSure: "¿Cancelar la liga para siempre? Se anulan todas sus partidas sin terminar.",
    leagueActions: "La liga",
    disputesTitle: "Reclamaciones y resoluciones", disputesWaiting: "{n} reclamaciones esperan tu resolución.", disputesWaiting_one: "1 reclamación espera tu resolución.", disputeN: "Reclamación {n}",
    dispute_open: "abierta", dispute_ruled: "resuelta", disputeWhere: "de {name} · ronda {round} · mesa {table}",
    ruledAs: "Resolución: {what} ({reason})", noDisputes: "No hay reclamaciones.", rulingsTitle: "Resoluciones", rulingInForce: "Resolución: {what}",
    tableInRound: "Ronda {round}, mesa {table}", ruleOnGame: "Resolver sobre una partida", ruleOnDispute: "Resolver la reclamación {n}",
    whichGame: "Partida", rulingKind: "Resolución", rulingReason: "Motivo (lo ven todos, queda en el registro de la liga)",
    rulingPoints: "Puntos de liga por esta partida", rulingForfeiters: "Quién pierde por incomparecencia", recordRuling: "Registrar la resolución",
    rulingSure: "¿Registrar esta resolución ({kind}) en la mesa {n}? Queda en el registro de la liga; otra resolución posterior puede cambiarla.",
    ruling_stands: "el resultado se mantiene", ruling_adjusted: "puntos ajustados", ruling_annulled: "partida anulada",
    ruling_forfeit: "incomparecencia", ruling_replay: "la mesa vuelve a jugar",
    disputeGame: "Reclamar esta partida", disputeHelp: "Cuenta qué salió mal: el organizador lo ve con el registro de la partida y resuelve.",
    disputeReason: "Qué salió mal", sendDispute: "Enviar al organizador", disputeOpened: "La reclamación {n} está abierta: se avisó al organizador.",
    reinstate: "Readmitir", reinstateSure: "¿Readmitir a {name}? Vuelve a jugar desde la próxima ronda.",
    substitute: "Sustituir…", substituteHandle: "Quién ocupa el lugar de {name} (identificador)", substituteGo: "Sustituir",
    substituteSure: "¿Poner a {sub} en el lugar de {name}? {sub} juega las próximas rondas de {name} y ocupa ya su asiento en las partidas en curso.",
    organizersTitle: "Organizadores", addOrganizer: "Añadir un organizador (identificador)", addOrganizerGo: "Añadir", editSettings: "Cambiar ajustes que aún no rigen",
    pauseTable: "Pausar la mesa", resumeTable: "Reanudar la mesa",
    pausedSince: "En pausa desde {when}", tablePausedSince: "Los organizadores de la liga pausaron esta mesa el {when}: no corre ningún plazo y nadie puede jugar hasta que la reanuden.",
    seatAwayUntil: "{name} está ausente desde {from} hasta {until}: sus plazos en esos días se prorrogan.", awayUntil: "ausente hasta {until}",
    vacationTitle: "Días de ausencia", vacationHelp: "¿Te vas? Declara los días: tus plazos en esos días se prorrogan y tus mesas lo ven. Esta liga permite {n} días por jugador; te quedan {left}.",
    vacationHelp_one: "¿Te vas? Declara los días: tus plazos en esos días se prorrogan y tus mesas lo ven. Esta liga permite 1 día por jugador; te quedan {left}.",
    vacationSpan: "Ausente desde {from} hasta {until} ({n} días)", vacationSpan_one: "Ausente desde {from} hasta {until} (1 día)", vacationFrom: "Primer día", vacationDays: "Días",
    declareVacation: "Declarar días de ausencia", vacationSure: "¿Declararte ausente desde {from} hasta {until}? Usa {n} de tus días y no se puede deshacer.",
    pauseTableSure: "¿Parar el reloj de la mesa {n}? Nadie puede jugar allí hasta que la reanudes.",
    resumeTableSure: "¿Reanudar el reloj de la mesa {n}? Cada decisión pendiente recupera el tiempo que le quedaba.",
    editLeague: "Ajustes de {name}", editLeagueHelp: "Solo se envía lo que cambias; un ajuste que ya rige se rechaza y no cambia nada.",
    reviewTitle: "Revisión: ronda {round}, mesa {table}", reviewGame: "Revisar y resolver", replayViewer: "Ver la repetición paso a paso",
    exportGame: "La exportación firmada de la partida", rulingAfterResult: "Se puede resolver cuando el resultado de la partida esté registrado.",
    resultTitle: "Resultado", placeTitle: "Puesto", pointsNow: "Puntos de liga ahora", notRecordedYet: "Aún no registrado.",
    checksTitle: "Las comprobaciones de la auditoría", checksAllOk: "Todas las comprobaciones pasan ({n} eventos decididos de nuevo).", checksFailed: "Una comprobación falla: ver abajo.", atEventN: "evento {n}",
    checkPassed: "correcto:", checkFailed: "FALLA:", checksWhenEnded: "La auditoría se hace cuando la partida termina.",
    refusedTitle: "Intentos rechazados", lateBy: "plazo {deadline}, llegó {arrived}", arrivedAt: "Llegó", refusedCode: "Código",
    refusedWhy: "Por qué", noRefused: "No se rechazó ninguna jugada de esta mesa.", outagesTitle: "Caídas del servidor durante la partida",
    outageSpan: "Desde {from} hasta {until} ({n} s)", noOutages: "No se registró ninguna caída durante esta partida.",
    movesTitle: "Las jugadas", movesHelp: "Cada evento del registro de la partida, en orden; se marca cada decisión que el servidor tomó por un asiento al acabarse su tiempo.",
    defaulted: "por defecto",
    backToLeague: "← La liga", saveSettings: "Guardar los cambios",
    lf_absence_window: "Ausencia: decisiones que se miran", lf_absence_share: "Ausencia: parte por defecto", lf_absence_days: "Ausencia: días sin jugar",
    lf_forfeit_points: "Puntos por incomparecencia", lf_vacation_days: "Días de vacaciones por jugador",
    inviteMember: "Invitar", memberInvited: "{name} está invitado: se une o rechaza desde su página de inicio.",
    invitedTitle: "Invitados, sin respuesta aún", youAreInvited: "Te han invitado a esta liga.",
    nDays: "{n} d", nHours: "{n} h", nMinutes: "{n} min", nSeconds: "{n} s",
    lfh_cadence_s: "La ronda n empieza este tiempo después de la ronda n − 1.", gameOptions: "Opciones del juego",
  },
};

export function lang() {
  return pickLang();
}

export function setLang(l) {
  storeLang(l);
}

// A count's words agree with it: where `values.n` is a number whose plural category in the
// page's language is "one" (1 in English and Spanish) and a `<key>_one` sentence exists, that
// sentence is used ("1 player", "1 jugador"); otherwise `key`'s ("{n} players").
export function t(key, values = {}) {
  const l = lang();
  if (typeof values.n === "number" && new Intl.PluralRules(l).select(values.n) === "one") {
    if (WORDS[l][`${key}_one`]) key = `${key}_one`;
  }
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
// n goods of one colour: "2 red" / "2 rojos"
export function goodsOf(c, n) {
  return `${n} ${t(n === 1 ? `good_${c}` : `goods_${c}`)}`;
}

export function claimText(seconds) {
  if (!Number.isInteger(seconds)) return null;
  return t("claimAfter", { time: duration(seconds) });
}

// A number of seconds as a person says it: "30 s", "5 min", "1 h", "1 d".
export function duration(seconds) {
  const [key, n] = seconds % 86400 === 0 ? ["days", seconds / 86400]
    : seconds % 3600 === 0 ? ["hours", seconds / 3600]
    : seconds % 60 === 0 ? ["minutes", seconds / 60] : ["seconds", seconds];
  return t(key, { n });
}

// A refused call's problem in the page's language: its code's words when there are some,
// else the server's own detail.
export function problemWords(e) {
  if (!e) return "";
  const key = `err_${e.code || (e.status === 404 ? "not_found" : "")}`;
  const words = t(key);
  return words !== key ? words : String(e.message || e);
}

// The words a card's drawing needs (shared/cards.js): suits and their marks, GP, the die's faces.
export function cardWords() {
  const suits = ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"];
  const keys = [...suits.flatMap((s) => [`suit_${s}`, `abbr_${s}`]), "gpShort", "earlierN",
    ...["king", "green", "black", "darth"].map((f) => `val_face_${f}`)];
  return Object.fromEntries(keys.map((k) => [k, t(k)]));
}
