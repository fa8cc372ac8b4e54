#!/usr/bin/env node
'use strict';
/**
 * marketfold next to boardgame.io on the same machine (issue #34.2): one driver plays both.
 *
 *     node bench/peer/driver.cjs [--quick] [--clients 1,8,32] [--rounds 5]
 *          [--pairs one-call/flatfile,one-call/memory,one-call/postgres,two-call/flatfile,bare/flatfile,bare/memory]
 *          [--kills 5]
 *          [--games 1:4,8:16,32:32] [--json FILE] [--pause-while FILE]
 *
 * It starts `marketfold serve` (embedded Valkey, appendfsync always; the queues' Valkey;
 * gunicorn with two gevent processes; one RQ worker) and boardgame.io's Server with each storage
 * the pairs name (FlatFile, in memory, PostgreSQL: bgio-postgres on a throwaway PostgreSQL
 * cluster with synchronous_commit on, procs.cjs) on free loopback ports. Without
 * PostgreSQL's server programs the postgres pairs and kill trials are skipped, with a line
 * saying so. For each number of clients, each round plays alternated
 * pairs: marketfold in a mode (one-call: act on the stream's `owes` and the POST answer's
 * `actions`; two-call: GET /legal then POST), then boardgame.io with a storage, each on
 * new games of 3-6 seats (each client plays its share of the games one after another).
 * The mode `bare` (e.g. `--pairs bare/flatfile,bare/memory`) plays the stack's ceiling
 * instead of marketfold: bench/moves/bare_app.py, one XADD per POST and nothing else, under the
 * same gunicorn on its own Valkey (appendfsync always), BARE_MOVES POSTs a game.
 * It prints moves/s, p50/p99 of a move (sending it to the mover seeing the new state),
 * and the CPU per move of each server process (/proc, the server's whole tree, and
 * PostgreSQL's for the postgres peer) and of the driver; then the kill trials (kills.cjs). The packages come from the cache
 * bench/peer/install.sh fills on first use; Python from $PYTHON or .venv.
 */
const fs = require('fs');
const os = require('os');
const bgio = require('./play_bgio.cjs');
const mf = require('./play_marketfold.cjs');
const { agent, percentileMs, request } = require('./common.cjs');
const { killTrials } = require('./kills.cjs');
const { bare, boardgameio, marketfold, postgres, postgresMissing, sleep, tempDir, treeCpu } = require('./procs.cjs');

const BARE_MOVES = 60; // about a Goblin Market game's (the one-call runs: 59 a game)

const FULL = {
  rounds: 5,
  kills: 5,
  games: '1:4,8:16,32:32',
  pairs: 'one-call/flatfile,one-call/memory,one-call/postgres,two-call/flatfile,bare/flatfile,bare/memory',
};
const QUICK = { rounds: 1, kills: 2, games: '1:2,8:8,32:32', pairs: 'one-call/flatfile,one-call/memory,one-call/postgres' };

function options(argv) {
  const quick = argv.includes('--quick');
  const base = quick ? QUICK : FULL;
  const value = (name, fallback) => {
    const at = argv.indexOf(name);
    return at === -1 ? fallback : argv[at + 1];
  };
  const games = Object.fromEntries(value('--games', base.games).split(',').map(kv => kv.split(':').map(Number)));
  const clients = value('--clients', Object.keys(games).join(',')).split(',').map(Number);
  return {
    quick,
    clients,
    games: c => games[c] || Math.max(c, 4),
    rounds: Number(value('--rounds', base.rounds)),
    kills: Number(value('--kills', base.kills)),
    pairs: value('--pairs', base.pairs).split(',').map(p => {
      const [mode, storage] = p.split('/');
      return { mode, storage };
    }),
    json: value('--json', null),
    pauseFile: value('--pause-while', null),
  };
}

/** Wait while `file` exists (a shared machine's "quiet, someone is measuring" flag). */
async function pauseWhile(file) {
  while (file && fs.existsSync(file)) await sleep(5000);
}

const load = () => os.loadavg().map(x => x.toFixed(2)).join(' ');

/** CPU seconds so far of each group of the trees of `pids`. */
function cpuOf(pids) {
  const out = {};
  for (const pid of pids) for (const [g, s] of Object.entries(treeCpu(pid))) out[g] = (out[g] || 0) + s;
  return out;
}

/** Time `clients` clients playing their share of `tables`; CPU per move of the trees of
 * `pids` (a server's, and its database's). */
async function timed(pids, clients, tables, playOne) {
  const latencies = [];
  const loadBefore = load();
  const cpuBefore = cpuOf(pids);
  const selfBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  let moves = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const http = agent();
      for (let g = i; g < tables.length; g += clients) {
        const made = await playOne(tables[g], g, latencies, http); // not `moves += await`: a lost update
        moves += made;
      }
      http.destroy();
    })
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = cpuOf(pids);
  const self = process.cpuUsage(selfBefore);
  const cpu = {};
  for (const [group, s] of Object.entries(cpuAfter)) cpu[group] = ((s - (cpuBefore[group] || 0)) * 1e6) / moves;
  return {
    clients,
    games: tables.length,
    moves,
    seconds,
    rate: moves / seconds,
    p50: percentileMs(latencies, 50),
    p99: percentileMs(latencies, 99),
    cpu, // µs per move, by process group
    server_cpu: Object.values(cpu).reduce((a, b) => a + b, 0),
    driver_cpu: (self.user + self.system) / moves,
    load: `${loadBefore} -> ${load()}`,
  };
}

async function runMarketfold(server, mode, clients, games) {
  const tables = await mf.seatTables(server.url, games, agent());
  if (mode === 'one-call') await Promise.all(tables.map(t => mf.openStreams(server.url, t)));
  const play =
    mode === 'one-call'
      ? (t, g, lat, http) => mf.playOneCall(server.url, t, g, lat, http)
      : (t, g, lat, http) => mf.playTwoCall(server.url, t, g, lat, http);
  try {
    return { system: `marketfold ${mode}`, ...(await timed([server.pid], clients, tables, play)) };
  } finally {
    tables.forEach(mf.closeStreams);
  }
}

async function runBare(server, clients, games) {
  const tables = Array.from({ length: games }, (_, g) => `${process.pid}-${Date.now()}-${g}`);
  const play = async (stream, g, latencies, http) => {
    for (let i = 0; i < BARE_MOVES; i += 1) {
      const sent = process.hrtime.bigint();
      const res = await request(http, 'POST', `${server.url}/xadd/${stream}`, { type: 'bid', amount: i % 7 });
      if (res.status !== 201) throw new Error(`POST xadd: ${res.status} ${JSON.stringify(res.body)}`);
      latencies.push(Number(process.hrtime.bigint() - sent) / 1e9);
    }
    return BARE_MOVES;
  };
  return { system: 'bare one-POST', ...(await timed([server.pid], clients, tables, play)) };
}

const runOurs = (servers, mode, clients, games) =>
  mode === 'bare' ? runBare(servers.bare, clients, games) : runMarketfold(servers.marketfold, mode, clients, games);

async function runBgio(server, storage, clients, games) {
  const seated = await bgio.seatTables(server.url, games, agent());
  const tables = await Promise.all(seated.map(t => bgio.connect(server.url, t)));
  const play = (t, g, lat) => bgio.play(t, g, lat);
  const pids = server.database ? [server.pid, server.database.pid] : [server.pid];
  return { system: `boardgame.io ${storage}`, ...(await timed(pids, clients, tables, play)) };
}

function line(run) {
  const cpu = Object.entries(run.cpu)
    .map(([g, us]) => `${g} ${us.toFixed(0)}`)
    .join(', ');
  return (
    `${run.system.padEnd(24)} ${String(run.clients).padStart(2)} clients ${String(run.moves).padStart(5)} moves ` +
    `${run.rate.toFixed(0).padStart(5)} moves/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  ` +
    `server CPU/move ${run.server_cpu.toFixed(0)} µs (${cpu}); driver ${run.driver_cpu.toFixed(0)} µs; load ${run.load}`
  );
}

/** Every pair's ratio, and the pair with the median ratio, per (pair kind, clients). */
function summarize(pairs) {
  const out = [];
  const kinds = [...new Set(pairs.map(p => `${p.ours.system} / ${p.theirs.system}`))];
  for (const kind of kinds) {
    for (const clients of [...new Set(pairs.map(p => p.ours.clients))]) {
      const these = pairs
        .filter(p => `${p.ours.system} / ${p.theirs.system}` === kind && p.ours.clients === clients)
        .sort((a, b) => a.ratio - b.ratio);
      if (these.length === 0) continue;
      const median = these[Math.floor(these.length / 2)];
      out.push({ kind, clients, median, ratios: these.map(p => p.ratio) });
    }
  }
  return out;
}

function print(summary, kills) {
  console.log('\n| marketfold / peer | clients | marketfold moves/s | p50 / p99 ms | peer moves/s | p50 / p99 ms | median ratio | every pair |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const s of summary) {
    const { ours, theirs, ratio } = s.median;
    console.log(
      `| ${s.kind} | ${s.clients} | ${ours.rate.toFixed(0)} | ${ours.p50.toFixed(1)} / ${ours.p99.toFixed(1)} | ` +
        `${theirs.rate.toFixed(0)} | ${theirs.p50.toFixed(1)} / ${theirs.p99.toFixed(1)} | ${ratio.toFixed(2)} | ` +
        `${s.ratios.map(r => r.toFixed(2)).join(', ')} |`
    );
  }
  if (kills.length) {
    console.log('\n| kill -9 after an acknowledged move | trials | acknowledged | survived | lost |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const system of [...new Set(kills.map(k => k.system))]) {
      const these = kills.filter(k => k.system === system);
      const acked = these.reduce((n, k) => n + k.acked, 0);
      const survived = these.reduce((n, k) => n + k.survived, 0);
      console.log(`| ${system} | ${these.length} | ${acked} | ${survived} | ${acked - survived} |`);
    }
  }
}

async function main() {
  const opts = options(process.argv.slice(2));
  const started = Date.now();
  const result = { started: new Date().toISOString(), cores: os.cpus().length, cpu: os.cpus()[0].model, node: process.version, load_start: load(), runs: [], pairs: [], kills: [] };
  console.log(`${os.cpus().length} cores, ${os.cpus()[0].model}; node ${process.version}; load average ${result.load_start}`);
  const noPostgres = postgresMissing();
  result.skipped = [];
  if (noPostgres && opts.pairs.some(p => p.storage === 'postgres')) {
    console.log(`boardgame.io on PostgreSQL skipped: ${noPostgres}`);
    result.skipped.push({ peer: 'boardgame.io postgres', why: noPostgres });
    opts.pairs = opts.pairs.filter(p => p.storage !== 'postgres');
  }
  const servers = {};
  let database = null; // PostgreSQL, started before the boardgame.io server that uses it
  if (opts.pairs.some(p => p.mode !== 'bare')) servers.marketfold = await marketfold(tempDir('peer-mf-'));
  if (opts.pairs.some(p => p.mode === 'bare')) servers.bare = await bare(tempDir('peer-bare-'));
  for (const storage of new Set(opts.pairs.map(p => p.storage))) {
    if (storage === 'postgres') {
      database = await postgres(tempDir('peer-pg-'));
      servers.postgres = await boardgameio('postgres', database);
      servers.postgres.database = database;
    } else {
      servers[storage] = await boardgameio(storage, storage === 'flatfile' ? tempDir('peer-ff-') : undefined);
    }
  }
  const stop = async () => {
    await Promise.all(Object.values(servers).map(s => s.stop()));
    if (database) await database.stop();
  };
  process.once('SIGINT', () => stop().then(() => process.exit(130)));
  process.once('SIGTERM', () => stop().then(() => process.exit(143)));
  try {
    if (database) await database.start();
    await Promise.all(Object.values(servers).map(s => s.start()));
    // warm up, unmeasured: a fresh server's first games pay for lazy imports and caches
    for (const { mode, storage } of opts.pairs) {
      await runOurs(servers, mode, 2, 2);
      await runBgio(servers[storage], storage, 2, 2);
    }
    for (const clients of opts.clients) {
      const games = opts.games(clients);
      for (let round = 0; round < opts.rounds; round += 1) {
        for (const { mode, storage } of opts.pairs) {
          await pauseWhile(opts.pauseFile);
          const ours = await runOurs(servers, mode, clients, games);
          console.log(line(ours));
          const theirs = await runBgio(servers[storage], storage, clients, games);
          console.log(line(theirs));
          result.runs.push(ours, theirs);
          result.pairs.push({ ours, theirs, ratio: ours.rate / theirs.rate });
        }
      }
    }
  } finally {
    await stop();
  }
  if (opts.kills > 0) {
    result.kills = await killTrials(opts.kills, !noPostgres, k =>
      console.log(`kill trial: ${k.system} #${k.trial}: ${k.survived} of ${k.acked} acknowledged moves survived ${k.note}`)
    );
  }
  result.summary = summarize(result.pairs).map(s => ({
    kind: s.kind,
    clients: s.clients,
    ratio: s.median.ratio,
    ratios: s.ratios,
    ours: s.median.ours,
    theirs: s.median.theirs,
  }));
  result.load_end = load();
  result.seconds = (Date.now() - started) / 1000;
  print(summarize(result.pairs), result.kills);
  console.log(`\nload average at the end ${result.load_end}; whole run ${result.seconds.toFixed(0)} s`);
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(result, null, 1));
}

main().then(
  () => process.exit(0),
  err => {
    console.error(err && err.stack ? err.stack : err);
    process.exit(1);
  }
);
