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
 * - boardgame.io on PostgreSQL (bgio-postgres; one throwaway cluster with synchronous_commit
 *   on for every trial), twice: kill -9 of the boardgame.io server alone (PostgreSQL, a
 *   service of its own, stays up), and of the server and every PostgreSQL process at once
 *   (a crash of the machine, short of its disk's cache: PostgreSQL recovers from its WAL
 *   when it starts again);
 * - marketfold (`serve`, appendfsync always), one data directory for every trial.
 */
const bgio = require('./play_bgio.cjs');
const mf = require('./play_marketfold.cjs');
const { agent } = require('./common.cjs');
const { boardgameio, marketfold, postgres, tempDir, tree } = require('./procs.cjs');

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
  try {
    return await bgioKill('boardgame.io FlatFile', trial, server, () => server.crash(), () => server.start());
  } finally {
    await server.stop();
  }
}

/** Play a fresh match on `server` until the kill, made by `kill()` after the trial's Nth
 * acknowledged move; restart with `restart()`; count what survived. */
async function bgioKill(system, trial, server, kill, restart) {
  const out = { system, trial, acked: 0, survived: 0, note: '' };
  const [seated] = await bgio.seatTables(server.url, 1, agent());
  const table = await bgio.connect(server.url, seated);
  const acked = [];
  let crashed = null;
  await bgio.play(table, 9000 + trial, [], {
    onAck: (stateID, n) => {
      acked.push(stateID);
      if (n < target(trial)) return undefined;
      crashed = kill();
      return 'stop';
    },
  });
  await crashed;
  for (const seat of table.seats) seat.socket.close();
  out.acked = acked.length;
  try {
    await restart();
    const state = await bgio.syncState(server.url, table);
    out.survived = acked.filter(id => id <= state._stateID).length;
    if (state._stateID === 0) out.note = 'the match came back at its start';
  } catch (err) {
    out.note = why(err, server);
  }
  return out;
}

/** boardgame.io on PostgreSQL: `trials` kills of its server alone, then `trials` of its
 * server and PostgreSQL together (every process of both stopped first, then killed). */
async function postgresTrials(trials, log) {
  const database = await postgres(tempDir('peer-kill-pg-'));
  await database.start();
  const server = await boardgameio('postgres', database);
  const results = [];
  try {
    await server.start();
    const both = async () => {
      const pids = [...tree(server.pid), ...tree(database.pid)];
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGSTOP');
        } catch (e) {
          /* gone */
        }
      }
      await Promise.all([server.crash(), database.crash()]);
    };
    const kinds = [
      ['boardgame.io PostgreSQL, server killed', () => server.crash(), () => server.start()],
      [
        'boardgame.io PostgreSQL, server and PostgreSQL killed',
        both,
        async () => {
          await database.start();
          await server.start();
        },
      ],
    ];
    for (const [system, kill, restart] of kinds) {
      for (let trial = 0; trial < trials; trial += 1) {
        const out = await bgioKill(system, trial, server, kill, restart);
        results.push(out);
        log(out);
        if (!server.running) break; // a restart failed: nothing left to try on
      }
    }
  } finally {
    await server.stop();
    await database.stop();
  }
  return results;
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

/** Every kill trial; those of boardgame.io on PostgreSQL only `withPostgres`. */
async function killTrials(trials, withPostgres, log) {
  const results = [];
  for (let trial = 0; trial < trials; trial += 1) {
    results.push(await bgioTrial(trial));
    log(results[results.length - 1]);
  }
  if (withPostgres) results.push(...(await postgresTrials(trials, log)));
  for (const out of await marketfoldTrials(trials)) {
    results.push(out);
    log(out);
  }
  return results;
}

module.exports = { killTrials };
