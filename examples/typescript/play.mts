// Play whole games through a client generated from openapi.yaml (openapi-typescript types,
// openapi-fetch calls); examples/typescript/run.sh generates, compiles and runs it:
//   node play.mjs http://127.0.0.1:8000 [goblin-market sorcerous-futures black-market gobcon]
// Every seat is a bot picking a random legal action, one call per move (docs/clients.md, "A
// move in one call"): each seat follows its own event stream, acts on an `owes` frame that
// brings news and goes on from its answer's `actions` while it owes something; it never
// reads `/legal`. The first player invites the others by handle to an unlisted table, each
// finds the invitation and accepts by joining; a spectator follows the stream too; at the
// end the game is exported as a file and that file is verified as downloaded, and a rematch
// is offered and declined.
import { mkdirSync, writeFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type S = components["schemas"];
type Action = S["Action"];
type Json = Record<string, any>;

const GAMES: Record<string, S["GameCreate"]> = { // short games: few seats
  "goblin-market": { ruleset: "goblin-market", players: 3 },
  "sorcerous-futures": { ruleset: "sorcerous-futures", players: 3 },
  "black-market": { ruleset: "black-market", players: 3 },
  gobcon: { ruleset: "gobcon", players: 2, options: { time_limit: 2 } },
};

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pick = <T,>(items: T[]): T => items[int(0, items.length - 1)];

function build(schema: Json): unknown { // a random value of the schemas `legal` publishes
  if (schema.oneOf) return build(pick(schema.oneOf));
  if ("const" in schema) return schema.const;
  if (schema.enum) return pick(schema.enum);
  if (schema.type === "integer") return int(schema.minimum ?? 0, schema.maximum ?? 100);
  if (schema.type === "boolean") return random() < 0.5;
  if (schema.type === "object") {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, build(v as Json)]));
  }
  const low = schema.minItems ?? 0;
  if (schema.allOf) { // a list of consts, each capped by maxContains
    const pool: unknown[] = schema.allOf.flatMap((c: Json) => Array(c.maxContains).fill(c.contains.const));
    const size = int(low, Math.max(low, Math.min(schema.maxItems ?? pool.length, pool.length)));
    return Array.from({ length: size }, () => pool.splice(int(0, pool.length - 1), 1)[0]);
  }
  return Array.from({ length: int(low, schema.maxItems ?? low) }, () => build(schema.items));
}

type Api = ReturnType<typeof createClient<paths>>;
type Frame = { id?: string; event: string; data: Json };
const sleep = (s: number) => new Promise((done) => setTimeout(done, 1000 * s));

// The frames of a game's event stream, resumed after `last` (Last-Event-ID) when given.
async function* frames(api: Api, id: string, last?: string): AsyncGenerator<Frame> {
  const headers = last ? { "Last-Event-ID": last } : {};
  const { data, response } = await api.GET("/v1/games/{id}/events/stream", { params: { path: { id } }, headers, parseAs: "stream" });
  if (!data) return void (await sleep(Number(response.headers.get("Retry-After") ?? 1)));
  const reader = data.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const blocks = (rest + chunk.value).split("\n\n");
    rest = blocks.pop()!;
    for (const block of blocks) {
      const frame: Frame = { event: "message", data: {} };
      let text = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) frame.id = line.slice(4);
        else if (line.startsWith("event: ")) frame.event = line.slice(7);
        else if (line.startsWith("data: ")) text += line.slice(6);
      }
      if (text) yield { ...frame, data: JSON.parse(text) }; // a heartbeat comment has no data
    }
  }
}

async function follow(api: Api, id: string, seqs: number[]) {
  for await (const frame of frames(api, id)) if (frame.id !== undefined) seqs.push(Number(frame.id));
}

const choose = (actions: S["ActionSpec"][]): Action => {
  const spec = pick(actions);
  return spec.choices ? pick(spec.choices) : (build(spec.schema) as Action);
};

// POST one action read at `version`; return the version and actions its answer gives,
// accepted or refused (the game moved on without it: a refusal says what the seat may do
// now), so that the seat goes on without asking.
async function move(me: Api, id: string, version: number, action: Action, tally: { calls: number; moves: number }) {
  const key = crypto.randomUUID(); // the same key on a retry: the server applies it once
  for (;;) {
    const { data, error, response } = await me.POST("/v1/games/{id}/actions", {
      params: { path: { id }, header: { "Idempotency-Key": key, "If-Match": `"${version}"` } },
      body: action,
    });
    tally.calls += 1;
    if (response.status === 429 || response.status === 503) { // wait as told, then again
      await sleep(Number(response.headers.get("Retry-After") ?? 1));
      continue;
    }
    if (data) tally.moves += 1;
    const answer = (data ?? error) as { version: number; actions: S["ActionSpec"][] }; // 409, 412: now
    return { version: answer.version, actions: answer.actions };
  }
}

// One seat's bot: follow its own stream to the end of the game and move on each `owes` frame
// at a version newer than any it acted on or was answered with; keep the receipt the stream
// sends after game.Ended (docs/audit.md, section 7).
async function seatPlays(me: Api, id: string, tally: { calls: number; moves: number }, kept: Json[]) {
  let acted = -1, last: string | undefined, ended = false;
  for (;;) { // the server ends a stream now and then: resume after the last event
    for await (const { id: frameId, event, data } of frames(me, id, last)) {
      if (frameId !== undefined && !frameId.includes(".")) last = frameId; // `<seq>.<k>`: a private step
      if (event === "receipt") return void kept.push(data as S["KeptReceipt"]); // the game's receipt
      if (event === "game.Ended") ended = true;
      if (event !== "owes" || data.version <= acted) continue; // no news: an answer said it already
      let { version, actions } = data as S["StreamOwes"];
      while (actions.length > 0) { // several decisions in a row: one call each
        ({ version, actions } = await move(me, id, version, choose(actions), tally));
        acted = Math.max(acted, version);
      }
    }
    if (ended) return; // the stream ended with the game, without a receipt
  }
}

async function play(base: string, ruleset: string) {
  const anon = createClient<paths>({ baseUrl: base });
  const as = (token: string): Api => createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });
  const body = GAMES[ruleset];
  const seats = new Map<number, ReturnType<typeof as>>();
  const tokens: string[] = [], handles: string[] = [], run = crypto.randomUUID().slice(0, 8);
  for (let i = 0; i < body.players; i++) { // handles are unique: one set per run
    const { data } = await anon.POST("/v1/players", { body: { name: `ts${i}`, handle: `ts${i}-${run}` } });
    tokens.push(data!.token);
    handles.push(data!.handle!);
  }
  const invite = { invite: handles.slice(1), join: true, unlisted: true };
  const { data: created } = await as(tokens[0]).POST("/v1/games", { body: { ...body, ...invite } });
  const id = created!.id;
  const seqs: number[] = [];
  const watching = follow(anon, id, seqs);
  seats.set(0, as(tokens[0])); // joined at creation (`join`); the others accept by joining
  let invited = true;
  for (const [i, token] of tokens.entries()) {
    if (i === 0) continue;
    const { data: me } = await as(token).GET("/v1/players/me");
    const { data: mine } = await as(token).GET("/v1/players/me/invitations");
    invited &&= me!.handle === handles[i] && mine!.invitations.map((v) => v.game).join() === id;
    const { data } = await as(token).POST("/v1/games/{id}/join", { params: { path: { id } } });
    seats.set(data!.seat, as(token));
  }
  const tally = { calls: 0, moves: 0 };
  const receipts: Json[][] = [...seats.values()].map(() => []);
  await Promise.all([...seats.values()].map((me, i) => seatPlays(me, id, tally, receipts[i])));
  const folder = process.env.RECEIPTS_DIR ?? "receipts"; // keep them: verify --seen FILE
  mkdirSync(folder, { recursive: true });
  [...seats.keys()].forEach((seat, i) => receipts[i].forEach((r) => writeFileSync(`${folder}/${id}.seat${seat}.receipt.json`, JSON.stringify(r))));
  const game = (await seats.get(0)!.GET("/v1/games/{id}", { params: { path: { id } } })).data!;
  await watching;
  // The bundle is a file: keep its text exactly as downloaded and post those bytes back.
  const { data: file } = await anon.GET("/v1/games/{id}/export", { params: { path: { id } }, parseAs: "text" });
  const { data: report } = await anon.POST("/v1/verify", {
    body: file as string,
    bodySerializer: (text: string) => text,
    headers: { "Content-Type": "application/octet-stream" },
  });
  const offer = await as(tokens[0]).POST("/v1/games/{id}/rematch", { params: { path: { id } }, body: { reserve_s: 60 } });
  const declined = await as(tokens[1]).POST("/v1/games/{id}/decline", { params: { path: { id: offer.data!.id } } });
  return {
    invited, rematch: [offer.response.status, offer.data!.rematch_of === id, declined.response.status],
    ruleset, game: id, status: game.status, version: game.version, streamed: seqs,
    verified: report!.ok, winners: game.result?.winners,
    receipts: receipts.flat().length, players: seats.size, // one per seat, kept from its stream
    moves: tally.moves, calls: tally.calls, // action calls, accepted or not; `/legal` never read
  };
}

// Two tables left early: one aborted before anyone moved, one untimed game claimed after a
// second of silence by the seat that owes nothing. Returns each one's reason.
async function quiet(base: string) {
  const anon = createClient<paths>({ baseUrl: base });
  const as = (token: string) => createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });
  const reasons: string[] = [];
  for (const step of ["abort", "claim"]) {
    const [a, b] = [(await anon.POST("/v1/players", { body: { name: "q0" } })).data!, (await anon.POST("/v1/players", { body: { name: "q1" } })).data!];
    const me: Record<string, ReturnType<typeof as>> = { [a.id]: as(a.token), [b.id]: as(b.token) };
    const body: S["GameCreate"] = { ruleset: "gobcon", players: 2, invite: [b.id], join: true, claim_after_s: 1 };
    const id = (await me[a.id].POST("/v1/games", { body })).data!.id;
    await me[b.id].POST("/v1/games/{id}/join", { params: { path: { id } } });
    if (step === "abort") {
      reasons.push((await me[a.id].POST("/v1/games/{id}/abort", { params: { path: { id } } })).data!.result.reason!);
      continue;
    }
    const game = (await me[a.id].GET("/v1/games/{id}", { params: { path: { id } } })).data!;
    const claimer = game.seats[1 - game.owed[0].seat].player;
    await new Promise((done) => setTimeout(done, 1200));
    reasons.push((await me[claimer].POST("/v1/games/{id}/claim", { params: { path: { id } } })).data!.result.reason!);
  }
  return { ruleset: "quiet-tables", reasons };
}

const [base, ...rulesets] = process.argv.slice(2);
for (const ruleset of rulesets.length ? rulesets : Object.keys(GAMES)) {
  console.log(JSON.stringify(await play(base, ruleset)));
}
console.log(JSON.stringify(await quiet(base)));
