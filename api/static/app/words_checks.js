// The verifier's findings in English and Spanish (POST /v1/verify, a league's audit): each
// check's name, what a passed check found, and why a failed one failed, by the stable `code`
// the server sends (openapi.yaml VerifyReport; tests/web checks every code has words in both).
// Shown by the replay viewer (../replay/words.js) and the league's review (leaguereview.js).
// Keys: check_<name>, found_<what>, fail_<code>.

// by the name the server gives them (events/audit.py, signature.py, transparency.py,
// leagues/audit.py, service/proof.py)
const CHECKS = {
  "hash chain": ["hash chain", "cadena de hashes"],
  "seed and random draws": ["seed and random draws", "semilla y sorteos"],
  "every command decided again": ["every command decided again", "cada orden decidida de nuevo"],
  "final result recounted": ["final result recounted", "resultado final recontado"],
  "header bound to the log": ["header bound to the log", "cabecera ligada al registro"],
  "times and deadlines": ["times and deadlines", "horas y plazos"],
  "signed by the service": ["signed by the service", "firmado por el servicio"],
  "signed within its key's window": ["signed within its key's window", "firmado dentro del periodo de su clave"],
  "cosigned by the witnesses": ["cosigned by the witnesses", "cofirmado por los testigos"],
  "in the public log of games": ["in the public log of games", "en el registro público de partidas"],
  "consistent with a tree head seen before": ["consistent with a tree head seen before", "coherente con una cabeza de árbol vista antes"],
  "standings recounted with rulings": ["standings recounted with rulings", "clasificación recontada con las resoluciones"],
  "the same as this server's log": ["the same as this server's log", "igual al registro de este servidor"],
  "the server's log extends the tree head seen": ["the server's log extends the tree head seen", "el registro del servidor extiende la cabeza de árbol vista"],
};
const checkKey = (name) => `check_${String(name).replace(/[^A-Za-z0-9]+/g, "_")}`;
// Each table holds [English, Spanish] pairs; `language` picks one side, keyed by `key`.
const language = (table, i, key = (k) => k) =>
  Object.fromEntries(Object.entries(table).map(([k, w]) => [key(k), w[i]]));

// why a check failed, by its code: [English, Spanish]
const FAILED = {
  not_a_bundle: ["this is not an export of a game with its events", "esto no es una exportación de una partida con sus eventos"],
  not_a_league: ["the log does not make a league", "el registro no forma una liga"],
  header_differs: ["the header says something the log does not", "la cabecera dice algo distinto del registro"],
  event_missing: ["an event is missing or out of place", "falta un evento o está fuera de su sitio"],
  event_redacted: ["an event is hidden: only a finished game's export verifies fully", "un evento está oculto: solo la exportación de una partida terminada se verifica entera"],
  prev_mismatch: ["this event does not point to the one before it", "este evento no apunta al anterior"],
  hash_mismatch: ["this event was changed after it was logged: its hash no longer matches", "este evento se cambió después de registrarse: su hash ya no coincide"],
  private_missing: ["a private step is missing or out of place", "falta un paso privado o está fuera de su sitio"],
  private_out_of_order: ["a private step is out of order with the log", "un paso privado no sigue el orden del registro"],
  private_redacted: ["a private step is hidden: only a finished game's export verifies", "un paso privado está oculto: solo se verifica la exportación de una partida terminada"],
  private_unlinked: ["a private step is not linked to the one before it", "un paso privado no está enlazado con el anterior"],
  no_commitment: ["the game does not begin with a commitment to its seed", "la partida no empieza con un compromiso de su semilla"],
  seed_not_revealed: ["the seed is not revealed yet: the game has not ended", "la semilla aún no se ha revelado: la partida no ha terminado"],
  seed_differs: ["the export's seed differs from the one the end of the game reveals", "la semilla de la exportación difiere de la que revela el final de la partida"],
  seed_not_hex: ["the revealed seed is not a hexadecimal number", "la semilla revelada no es un número hexadecimal"],
  seed_mismatch: ["the revealed seed is not the one committed to at the start", "la semilla revelada no es la comprometida al empezar"],
  draws_gap: ["a move's random draws do not continue from the last", "los sorteos de una jugada no siguen a los anteriores"],
  draws_differ: ["a move drew other random numbers than the log says", "una jugada sacó otros números al azar que los que dice el registro"],
  no_rules: ["this server has no rules of that game and version to replay it with", "este servidor no tiene las reglas de ese juego y versión para repetirla"],
  creation_wrong: ["the game's creation is not as the rules make it", "la creación de la partida no es como la hacen las reglas"],
  not_seated: ["a move was made by someone not seated in this game", "una jugada la hizo alguien sin asiento en esta partida"],
  rules_refuse: ["the rules refuse this move", "las reglas rechazan esta jugada"],
  not_produced: ["the rules do not produce this event here", "las reglas no producen este evento aquí"],
  event_differs: ["this event differs from what the rules decide", "este evento difiere de lo que deciden las reglas"],
  event_lacking: ["the rules produce an event the log lacks here", "las reglas producen aquí un evento que falta en el registro"],
  end_misplaced: ["the game ends where the rules do not end it, or goes on where they do", "la partida termina donde las reglas no la terminan, o sigue donde sí"],
  not_ended: ["the game has not ended", "la partida no ha terminado"],
  end_wrong: ["the end of the game is not public or not the system's", "el final de la partida no es público o no es del sistema"],
  result_differs: ["the result logged differs from a recount", "el resultado registrado difiere del recuento"],
  times_wrong: ["a time goes backwards, or a move or default is not in its time", "una hora retrocede, o una jugada u opción por defecto no llega a su tiempo"],
  standings_differ: ["the export's standings differ from a recount with the rulings", "la clasificación de la exportación difiere del recuento con las resoluciones"],
  not_signed: ["no key this server publishes signed it", "no lo firmó ninguna clave que publique este servidor"],
  no_keys: ["not checked: no trusted key was given", "sin comprobar: no se dio ninguna clave de confianza"],
  key_out_of_window: ["signed with a key outside the time its key was in use", "firmado con una clave fuera del tiempo en que estuvo en uso"],
  not_logged: ["the game is not in the public log of games as the export says", "la partida no está en el registro público de partidas como dice la exportación"],
  promise_broken: ["the receipt's promise does not hold", "la promesa del recibo no se cumple"],
  head_not_seen: ["the log does not extend the tree head seen before", "el registro no extiende la cabeza de árbol vista antes"],
  history_broken: ["the server's log was rolled back or forked since the tree head seen", "el registro del servidor se deshizo o se bifurcó desde la cabeza de árbol vista"],
  not_held: ["a leaf of this game the tree head seen held is not the export's", "una hoja de esta partida que tenía la cabeza de árbol vista no es la de la exportación"],
  unwitnessed: ["not enough witnesses cosigned the log holding this game", "no bastantes testigos cofirmaron el registro que contiene esta partida"],
  no_proofs: ["the export carries no proofs of the public log", "la exportación no lleva pruebas del registro público"],
  another_game: ["this is another game than the one expected", "esta es otra partida que la esperada"],
  server_unreachable: ["the server did not answer", "el servidor no respondió"],
  differs_from_server: ["this event differs from this server's log", "este evento difiere del registro de este servidor"],
  count_differs: ["the export has another number of events than this server's log", "la exportación tiene otro número de eventos que el registro de este servidor"],
  unchecked_chain_or_seed: ["not checked: the chain or the seed failed", "sin comprobar: falló la cadena o la semilla"],
  unchecked_chain: ["not checked: the chain failed", "sin comprobar: falló la cadena"],
  unchecked_no_rules: ["not checked: no rules to replay with", "sin comprobar: no hay reglas con que repetirla"],
  unchecked_replay: ["not checked: the replay stopped", "sin comprobar: la repetición se detuvo"],
};

const FINDINGS = {
  found_linked: ["{n} events linked", "{n} eventos enlazados"],
  found_linkedPrivate: ["{n} events linked; {m} private steps linked", "{n} eventos enlazados; {m} pasos privados enlazados"],
  found_seed: ["the seed matches its commitment; {n} draws re-derived", "la semilla coincide con su compromiso; {n} sorteos derivados de nuevo"],
  found_replayed: ["{n} commands decided again, every event equal", "{n} órdenes decididas de nuevo, cada evento igual"],
  found_result: ["winners {names}, standings recounted", "ganadores {names}, clasificación recontada"],
  found_bound: ["id, game, rules version, options, seats, time per decision, league as logged", "id, juego, versión de las reglas, opciones, asientos, tiempo por decisión y liga como en el registro"],
  found_times: ["times never go backwards; every action, default and resolution in time", "las horas nunca retroceden; cada acción, opción por defecto y resolución a tiempo"],
  found_signed: ["signed by key {key} ({alg}); the statement matches the bundle", "firmado con la clave {key} ({alg}); la declaración coincide con el paquete"],
  found_logged: ["the game's leaves {kinds} included in the tree head of {n} leaves signed by {key}", "hojas de la partida {kinds} incluidas en la cabeza del árbol de {n} hojas firmada por {key}"],
  found_seen: ["consistent with the tree head of {n} leaves saved at {at}", "coherente con la cabeza del árbol de {n} hojas guardada el {at}"],
  found_extends: ["the server's head of size {n} extends the head of size {m} seen at {at}", "la cabeza del servidor, de tamaño {n}, extiende la de tamaño {m} vista el {at}"],
  found_stored: ["every one of the {n} events is the one this server logged", "cada uno de los {n} eventos es el que registró este servidor"],
  leaf_created: ["created", "creada"],
  leaf_started: ["started", "empezada"],
  leaf_ended: ["ended", "terminada"],
};

export const CHECK_WORDS = {
  en: {
    ...language(CHECKS, 0, checkKey),
    ...language(FAILED, 0, (k) => `fail_${k}`),
    ...language(FINDINGS, 0),
  },
  es: {
    ...language(CHECKS, 1, checkKey),
    ...language(FAILED, 1, (k) => `fail_${k}`),
    ...language(FINDINGS, 1),
  },
};

// What a passed check found, as the server says it (English), read into the page's words:
// [pattern, key, the match's values]
const FOUND = [
  [/^(\d+) events linked; (\d+) private steps linked$/, "found_linkedPrivate", (m) => ({ n: m[1], m: m[2] })],
  [/^(\d+) events linked$/, "found_linked", (m) => ({ n: m[1] })],
  [/^commitment matches; (\d+) draws re-derived$/, "found_seed", (m) => ({ n: m[1] })],
  [/^(\d+) commands decided again, every event equal$/, "found_replayed", (m) => ({ n: m[1] })],
  [/^winners \[([\d, ]*)\], standings recounted$/, "found_result", (m, seat) => ({ names: m[1].split(/, */).filter(Boolean).map((x) => seat(Number(x))).join(", ") })],
  [/^id, ruleset, rules version, options, seats, timeout, league as logged$/, "found_bound", () => ({})],
  [/^times never go backwards; every action, default, resolution in time$/, "found_times", () => ({})],
  [/^signed by key (\S+) \((\S+)\); the statement matches the bundle$/, "found_signed", (m) => ({ key: m[1], alg: m[2] })],
  [/^(.+) included in the tree head of (\d+) leaves signed by (\S+)$/, "found_logged", (m, seat, t) => ({ kinds: leaves(m[1], t), n: m[2], key: m[3] })],
  [/^consistent with the tree head of (\d+) leaves saved at (\S+)$/, "found_seen", (m) => ({ n: m[1], at: m[2] })],
  [/^every one of the (\d+) events is the one this server logged$/, "found_stored", (m) => ({ n: m[1] })],
  [/^the server's head of size (\d+) extends the head of size (\d+) seen at (\S+)$/, "found_extends", (m) => ({ n: m[1], m: m[2], at: m[3] })],
];
// the game's leaves in the public log (events/transparency.py KINDS)
const leaves = (text, t) => text.split(/, */).map((k) => (`leaf_${k}` in CHECK_WORDS.en ? t(`leaf_${k}`) : k)).join(", ");

// A verifier's check in words ({name, detail}): its name (the server's when it is a new one),
// what a passed one found, why a failed one failed (by its code; the server's sentence only
// for a code these words do not know). `t(key, values)`: the page's words, which hold
// CHECK_WORDS; `seat(n)` names a seat.
export function checkText(check, t, seat) {
  const named = (key) => (t(key) === key ? null : t(key));
  const name = named(checkKey(check.name)) ?? String(check.name);
  const said = String(check.detail ?? "");
  if (!check.ok) return { name, detail: (check.code && named(`fail_${check.code}`)) || said };
  for (const [pattern, k, values] of FOUND) {
    const m = pattern.exec(said);
    if (m) return { name, detail: t(k, values(m, seat, t)) };
  }
  return { name, detail: said };
}
