'use strict';
/**
 * Kill trials: play a fresh 3-seat game, kill -9 the server's whole process tree right
 * after the Nth acknowledged move (in the callback that sees the acknowledgement), start
 * it again on the same data, and count the acknowledged moves the restarted server still
 * has. An acknowledgement is what the mover sees: boardgame.io's `update` to the mover,
 * marketfold's answer to the POST.
 *
 * - boardgame.io with FlatFile storage, a new directory each trial (so that one trial's
 *   damage cannot spoil the next); a match it cannot find is created afresh by its sync,
 *   at stateID 0, so "survived" then counts nothing;
 * - marketfold (`serve`, appendfsync always), one data directory for every trial.
 */
const bgio = require('./play_bgio.cjs');
const mf = require('./play_marketfold.cjs');
const { agent } = require('./common.cjs');
const { boardgameio, marketfold, tempDir, tree } = require('./procs.cjs');

const target = trial => 4 + ((trial * 7) % 17); // moves before the kill: 4 to 20

/** The line of a server's stderr that says why it failed, else its last line. */
function why(err, server) {
  const lines = server.stderr.split('\n').filter(Boolean);
  const line = lines.find(l => /^\s*\w*Error: /.test(l)) || lines[lines.length - 1] || '';
  return `restart failed (${String(err.message || err).slice(0, 80)}): ${line.trim().slice(0, 200)}`;
}

async function bgioTrial(trial) {
  const server = await boardgameio('flatfile', tempDir('peer-kill-'));
  await server.start();
  const out = { system: 'boardgame.io FlatFile', trial, acked: 0, survived: 0, note: '' };
  try {
    const [seated] = await bgio.seatTables(server.url, 1, agent());
    const table = await bgio.connect(server.url, seated);
    const acked = [];
    let crashed = null;
    await bgio.play(table, 9000 + trial, [], {
      onAck: (stateID, n) => {
        acked.push(stateID);
        if (n < target(trial)) return undefined;
        crashed = server.crash();
        return 'stop';
      },
    });
    await crashed;
    for (const seat of table.seats) seat.socket.close();
    out.acked = acked.length;
    try {
      await server.start();
      const state = await bgio.syncState(server.url, table);
      out.survived = acked.filter(id => id <= state._stateID).length;
      if (state._stateID === 0) out.note = 'the match came back at its start';
    } catch (err) {
      out.note = why(err, server);
    }
  } finally {
    await server.stop();
  }
  return out;
}

async function marketfoldTrials(trials) {
  const server = await marketfold(tempDir('peer-kill-mf-'));
  await server.start();
  const results = [];
  try {
    for (let trial = 0; trial < trials; trial += 1) {
      const http = agent();
      const [table] = await mf.seatTables(server.url, 1, http);
      const pids = tree(server.pid);
      const acked = [];
      let crashed = null;
      await mf.playTwoCall(server.url, table, 9000 + trial, [], http, {
        onAck: (version, n) => {
          acked.push(version);
          if (n < target(trial)) return undefined;
          crashed = server.crash(pids);
          return 'stop';
        },
      });
      await crashed;
      http.destroy();
      const out = { system: 'marketfold', trial, acked: acked.length, survived: 0, note: '' };
      try {
        await server.start();
        const now = await mf.version(server.url, table);
        out.survived = acked.filter(v => v <= now).length;
      } catch (err) {
        out.note = why(err, server);
      }
      results.push(out);
      if (out.note) break; // nothing left to try on
    }
  } finally {
    await server.stop();
  }
  return results;
}

async function killTrials(trials, log) {
  const results = [];
  for (let trial = 0; trial < trials; trial += 1) {
    results.push(await bgioTrial(trial));
    log(results[results.length - 1]);
  }
  for (const out of await marketfoldTrials(trials)) {
    results.push(out);
    log(out);
  }
  return results;
}

module.exports = { killTrials };
