'use strict';
/**
 * Playing boardgame.io's server as its own clients do, over socket.io: one socket per
 * seat (websocket transport) in the game's namespace, `sync` to join the match, a move is
 * an `update` carrying a MAKE_MOVE action and the stateID it was decided on, and every
 * seat receives an `update` with the new state as that seat may see it (`playerView`).
 * A move's latency runs from sending it to the mover's own `update` with a newer stateID.
 * Matches are created and joined beforehand through boardgame.io's lobby API (the
 * seats' credentials), so that only play is timed.
 */
const { legal } = require('./auction.cjs');
const { pick, pool, postJson, rng } = require('./common.cjs');
const { peerRequire } = require('./procs.cjs');

const GAME = 'auction';

/** Create and join `games` matches of 3-6 seats; return [{matchID, seats: [{playerID, credentials}]}]. */
async function seatTables(base, games, agent) {
  const tasks = [];
  for (let g = 0; g < games; g += 1) tasks.push(() => seatTable(base, 3 + (g % 4), agent));
  return pool(8, tasks);
}

async function seatTable(base, players, agent) {
  const { matchID } = await postJson(agent, `${base}/games/${GAME}/create`, { numPlayers: players });
  const seats = [];
  for (let p = 0; p < players; p += 1) {
    const playerID = String(p);
    const joined = await postJson(agent, `${base}/games/${GAME}/${matchID}/join`, {
      playerID,
      playerName: `seat${p}`,
    });
    seats.push({ playerID, credentials: joined.playerCredentials });
  }
  return { matchID, numPlayers: players, seats };
}

/** Open one socket per seat and wait for each seat's first state. */
async function connect(base, table) {
  const io = peerRequire('socket.io-client');
  const seats = table.seats.map(seat => ({ ...seat, socket: null, state: null }));
  await Promise.all(
    seats.map(
      seat =>
        new Promise((resolve, reject) => {
          const socket = io(`${base}/${GAME}`, { transports: ['websocket'], forceNew: true });
          seat.socket = socket;
          socket.once('connect_error', reject);
          socket.once('sync', (matchID, info) => {
            seat.state = info.state;
            resolve();
          });
          socket.on('connect', () => {
            socket.emit('sync', table.matchID, seat.playerID, seat.credentials, table.numPlayers);
          });
        })
    )
  );
  return { ...table, seats };
}

function checkHidden(seat) {
  const { G } = seat.state;
  for (const [other, hand] of Object.entries(G.hands)) {
    const mine = other === seat.playerID;
    if (G.phase !== 'over' && mine !== Array.isArray(hand)) {
      throw new Error(`seat ${seat.playerID} sees seat ${other}'s hand as ${JSON.stringify(hand)}`);
    }
  }
  if ('deck' in G || 'goblins' in G) throw new Error('a player view shows a deck');
}

/** Play a connected match to its end with random legal moves; push each move's latency
 * (seconds) to `latencies`; resolve with the number of moves made. */
function play(table, seed, latencies, { onAck } = {}) {
  const random = rng(seed);
  let moves = 0;
  return new Promise((resolve, reject) => {
    let watchdog = null;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => reject(new Error(`match ${table.matchID} stalled`)), 20000);
    };
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(watchdog);
      for (const seat of table.seats) {
        seat.socket.off('update');
        seat.socket.close();
      }
      resolve(moves);
    };
    const act = seat => {
      const { G, ctx, _stateID } = seat.state;
      if (ctx.gameover !== undefined) {
        if (table.seats.every(s => s.sent === undefined)) done(); // every move acknowledged
        return;
      }
      const options = legal(G, seat.playerID);
      if (options.length === 0 || seat.sentAt === _stateID) return;
      const choice = pick(random, options);
      const args = pick(random, choice.args);
      seat.sentAt = _stateID;
      seat.sent = process.hrtime.bigint();
      const action = {
        type: 'MAKE_MOVE',
        payload: { type: choice.move, args, playerID: seat.playerID, credentials: seat.credentials },
      };
      seat.socket.emit('update', action, _stateID, table.matchID, seat.playerID);
    };
    for (const seat of table.seats) {
      checkHidden(seat);
      seat.socket.on('update', (matchID, state) => {
        if (finished) return;
        if (matchID !== table.matchID || state._stateID <= seat.state._stateID) return;
        seat.state = state;
        if (seat.sent !== undefined && state._stateID > seat.sentAt) {
          latencies.push(Number(process.hrtime.bigint() - seat.sent) / 1e9);
          seat.sent = undefined;
          moves += 1;
          arm();
          if (onAck && onAck(state._stateID, moves) === 'stop') {
            finished = true;
            clearTimeout(watchdog);
            return resolve(moves);
          }
        }
        act(seat);
      });
    }
    arm();
    for (const seat of table.seats) act(seat);
  });
}

/** The state a seat gets when it syncs with the match now (after a restart, say). */
async function syncState(base, table, seatIndex = 0) {
  const io = peerRequire('socket.io-client');
  const seat = table.seats[seatIndex];
  return new Promise((resolve, reject) => {
    const socket = io(`${base}/${GAME}`, { transports: ['websocket'], forceNew: true });
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no sync answer in 10 s'));
    }, 10000);
    socket.once('connect_error', err => {
      clearTimeout(timer);
      socket.close();
      reject(err);
    });
    socket.once('sync', (matchID, info) => {
      clearTimeout(timer);
      socket.close();
      resolve(info.state);
    });
    socket.on('connect', () => {
      socket.emit('sync', table.matchID, seat.playerID, seat.credentials, table.numPlayers);
    });
  });
}

module.exports = { connect, play, seatTables, syncState };
