'use strict';
/**
 * Playing marketfold over HTTP, Goblin Market games of 3-6 seats, in two modes:
 *
 * - one call per move (docs/clients.md, "A move in one call"): each seat follows its
 *   game's event stream; on an `owes` frame with `actions` at a version newer than any it
 *   acted on or was answered with, it POSTs one of them with `If-Match`, and goes on from
 *   the answer's `actions` while it owes something;
 * - two calls per move (as bench/moves/actions.py): GET /legal for the seat the last answer
 *   says owes, then POST.
 * A move's latency runs from sending the POST to its answer, which holds the new version
 * and the events the move caused (the state the mover sees). Players are registered and
 * seated beforehand, so that only play is timed; the streams are opened before play too.
 */
const http = require('http');
const { getJson, pick, pool, postJson, request, rng } = require('./common.cjs');

/** Register players, create `games` games of 3-6 seats and seat them. */
async function seatTables(base, games, agent) {
  const tasks = [];
  for (let g = 0; g < games; g += 1) tasks.push(() => seatTable(base, 3 + (g % 4), agent, g));
  return pool(8, tasks);
}

async function seatTable(base, players, agent, tag) {
  const auths = [];
  for (let p = 0; p < players; p += 1) {
    const who = await postJson(agent, `${base}/v1/players`, { name: `peer${tag}-${p}` });
    auths.push({ authorization: `Bearer ${who.token}` });
  }
  const game = await postJson(agent, `${base}/v1/games`, { ruleset: 'goblin-market', players }, auths[0]);
  for (const auth of auths) await postJson(agent, `${base}/v1/games/${game.id}/join`, undefined, auth);
  const seats = [];
  for (const auth of auths) {
    const view = await getJson(agent, `${base}/v1/games/${game.id}`, auth);
    seats.push({ seat: view.you, auth });
    if (seats.length === players) return { gid: game.id, seats, owed: view.owed };
  }
  return null;
}

function chooseAction(random, actions) {
  const spec = pick(random, actions);
  if (!spec.choices || spec.choices.length === 0) throw new Error(`no choices for ${spec.type}`);
  return pick(random, spec.choices);
}

/** Open each seat's event stream; resolve once every stream has sent its first `owes`. */
function openStreams(base, table) {
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  return Promise.all(
    table.seats.map(
      seat =>
        new Promise((resolve, reject) => {
          seat.onOwes = frame => {
            seat.first = frame;
            resolve();
          };
          const req = http.get(
            `${base}/v1/games/${table.gid}/events/stream`,
            { agent: streamAgent, headers: { ...seat.auth, accept: 'text/event-stream' } },
            res => {
              if (res.statusCode !== 200) {
                return reject(new Error(`stream of ${table.gid}: ${res.statusCode}`));
              }
              res.setEncoding('utf8');
              let buffer = '';
              res.on('data', chunk => {
                buffer += chunk;
                let end;
                while ((end = buffer.indexOf('\n\n')) !== -1) {
                  const frame = buffer.slice(0, end);
                  buffer = buffer.slice(end + 2);
                  if (frame.startsWith('event: owes\n') || frame.includes('\nevent: owes\n')) {
                    const data = frame.slice(frame.indexOf('data: ') + 6);
                    seat.onOwes(JSON.parse(data.split('\n')[0]));
                  }
                }
              });
              res.on('error', () => {});
            }
          );
          req.on('error', err => {
            if (seat.closing) return;
            err.message = `stream of ${table.gid}: ${err.message}`;
            reject(err);
          });
          seat.stream = req;
        })
    )
  );
}

function closeStreams(table) {
  for (const seat of table.seats) {
    seat.closing = true;
    if (seat.stream) seat.stream.destroy();
  }
}

/** One call per move: play a seated game whose streams are open, to its end. */
function playOneCall(base, table, seed, latencies, agent) {
  const random = rng(seed);
  let moves = 0;
  let finished = false;
  return new Promise((resolve, reject) => {
    let watchdog = null;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => reject(new Error(`game ${table.gid} stalled`)), 20000);
    };
    const act = (seat, version, actions) => {
      seat.inflight = true;
      seat.acted = Math.max(seat.acted, version);
      const action = chooseAction(random, actions);
      const sent = process.hrtime.bigint();
      request(agent, 'POST', `${base}/v1/games/${table.gid}/actions`, action, {
        ...seat.auth,
        'if-match': `"${version}"`,
      }).then(res => {
        seat.inflight = false;
        if (res.status !== 201 && res.status !== 202) {
          return reject(new Error(`POST action: ${res.status} ${JSON.stringify(res.body)}`));
        }
        latencies.push(Number(process.hrtime.bigint() - sent) / 1e9);
        moves += 1;
        arm();
        const answer = res.body;
        seat.acted = Math.max(seat.acted, answer.version);
        if (answer.owed.length === 0 && !answer.pending) {
          finished = true;
          clearTimeout(watchdog);
          closeStreams(table);
          return resolve(moves);
        }
        if (answer.actions.length > 0) return act(seat, answer.version, answer.actions);
        const frame = seat.pending;
        seat.pending = null;
        if (frame) consider(seat, frame);
      }, reject);
    };
    const consider = (seat, frame) => {
      if (finished) return;
      if (seat.inflight) {
        seat.pending = frame; // the answer in flight decides whether this one is news
        return;
      }
      if (frame.version > seat.acted && frame.actions && frame.actions.length > 0) {
        act(seat, frame.version, frame.actions);
      }
    };
    for (const seat of table.seats) {
      seat.acted = -1;
      seat.inflight = false;
      seat.pending = null;
      seat.onOwes = frame => consider(seat, frame);
    }
    arm();
    for (const seat of table.seats) consider(seat, seat.first);
  });
}

/** Two calls per move: GET /legal for the seat that owes, then POST; to the end (or
 * until `onAck(version, moves)` says 'stop' right after an acknowledged move). */
async function playTwoCall(base, table, seed, latencies, agent, { onAck } = {}) {
  const random = rng(seed);
  const bySeat = new Map(table.seats.map(s => [s.seat, s.auth]));
  let owed = table.owed;
  let moves = 0;
  while (owed.length > 0) {
    const auth = bySeat.get(owed[0].seat);
    const legal = await getJson(agent, `${base}/v1/games/${table.gid}/legal`, auth);
    const action = chooseAction(random, legal.actions);
    const sent = process.hrtime.bigint();
    const res = await request(agent, 'POST', `${base}/v1/games/${table.gid}/actions`, action, auth);
    if (res.status !== 201 && res.status !== 202) {
      throw new Error(`POST action: ${res.status} ${JSON.stringify(res.body)}`);
    }
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e9);
    moves += 1;
    if (onAck && onAck(res.body.version, moves) === 'stop') return moves;
    owed = res.body.owed;
  }
  return moves;
}

async function version(base, table) {
  const game = await getJson(null, `${base}/v1/games/${table.gid}`, table.seats[0].auth);
  return game.version;
}

module.exports = { closeStreams, openStreams, playOneCall, playTwoCall, seatTables, version };
