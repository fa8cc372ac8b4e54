'use strict';
/**
 * The servers the driver plays: starting them, their CPU from /proc, kill -9.
 *
 * - marketfold: `python -m cli serve` (embedded Valkey with appendfsync always, the RQ
 *   queues' own Valkey, gunicorn with 2 gevent processes, one RQ worker, under its
 *   supervisor), as a user runs it;
 * - boardgame.io: bench/peer/server.cjs (boardgame.io's `Server`), with FlatFile storage
 *   in a directory, in memory, or on PostgreSQL (bgio-postgres);
 * - PostgreSQL: a throwaway cluster (initdb into a temporary directory) of the server
 *   programs installed here (Debian's postgresql package), on a free loopback port, with
 *   fsync and synchronous_commit on. PostgreSQL refuses to run as root: as root, the
 *   cluster belongs to and runs as $PEER_PG_USER, else `postgres` (the user Debian's
 *   package creates), else `nobody`.
 * CPU per process comes from /proc/PID/stat (utime + stime) over the server's whole
 * process tree, each process put in a group by what it runs.
 */
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const TICK = 100; // USER_HZ: clock ticks per second in /proc/PID/stat on Linux

/** The npm packages of package-lock.json, installed on first use into a cache. */
function modulesDir() {
  if (process.env.PEER_NODE_MODULES_DIR) return process.env.PEER_NODE_MODULES_DIR;
  const dir = execFileSync(path.join(__dirname, 'install.sh'), { encoding: 'utf8' }).trim();
  process.env.PEER_NODE_MODULES_DIR = dir;
  return dir;
}

/** require() a package from that cache. */
function peerRequire(name) {
  return require(require.resolve(name, { paths: [path.join(modulesDir(), 'node_modules')] }));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

/** Resolve once GET `url` answers anything; reject after `timeoutMs` or if `proc` exits. */
async function waitUp(url, proc, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`${proc.spawnargs.join(' ')} exited (${proc.exitCode ?? proc.signalCode})`);
    }
    const ok = await new Promise(resolve => {
      const req = http.get(url, res => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.setTimeout(1000, () => req.destroy());
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await sleep(50);
  }
}

function marketfoldEnv() {
  return {
    ...process.env,
    PYTHONPATH: ROOT,
    // one address plays every seat: lift the per-address and per-token limits, as bench/common.py
    MARKETFOLD_RATE_LIMIT_ANON: '10000000/minute',
    MARKETFOLD_RATE_LIMIT_TOKEN: '10000000/minute',
    MARKETFOLD_WAITING_GAMES_PER_PLAYER: '10000000',
    MARKETFOLD_STREAM_LIMIT_TOKEN: '100000',
    MARKETFOLD_STREAM_LIMIT_ANON: '100000',
  };
}

function pythonPath() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = path.join(ROOT, '.venv', 'bin', 'python');
  return fs.existsSync(venv) ? venv : 'python3';
}

const LIVE = new Set(); // servers started here: none may outlive the driver
process.on('exit', () => {
  for (const server of LIVE) if (server.running) server.crash();
  for (const dir of TEMP) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** A server process the driver owns: its URL, pid, how to start it again. */
class Server {
  constructor(name, argv, env, url, health, spawnOptions = {}) {
    Object.assign(this, { name, argv, env, url, health, spawnOptions, proc: null, stderr: '' });
    this.stopSignal = 'SIGTERM';
  }

  /** Resolve once the server answers (an HTTP GET of its health URL). */
  ready() {
    return waitUp(this.url + this.health, this.proc);
  }

  async start() {
    LIVE.add(this);
    this.stderr = '';
    this.proc = spawn(this.argv[0], this.argv.slice(1), {
      cwd: ROOT,
      env: this.env,
      stdio: ['ignore', 'ignore', 'pipe'],
      ...this.spawnOptions,
    });
    this.proc.stderr.on('data', chunk => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.exited = new Promise(resolve => this.proc.once('exit', resolve));
    await this.ready();
    return this;
  }

  get running() {
    return Boolean(this.proc) && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  get pid() {
    return this.proc.pid;
  }

  /** kill -9 every process of the tree at once, as a crash of the machine would: first
   * SIGSTOP each (parents first), so that no supervisor restarts a child and none gets
   * the SIGTERM its parent's death would send, then SIGKILL each. Resolves once every
   * one is gone (reaped), so that a restart finds its port and data directory free. */
  crash(pids = tree(this.pid)) {
    const all = [...pids];
    const signal = (name, list) => {
      for (const pid of list) {
        try {
          process.kill(pid, name);
        } catch (e) {
          /* already gone */
        }
      }
    };
    signal('SIGSTOP', all);
    const late = tree(this.pid).filter(pid => !all.includes(pid)); // started meanwhile
    signal('SIGSTOP', late);
    all.push(...late);
    signal('SIGKILL', all);
    return this.exited.then(() => gone(all));
  }

  /** Stop cleanly (SIGTERM: marketfold's supervisor stops its children; PostgreSQL's
   * stopSignal is SIGINT, its fast shutdown), kill after 15 s. */
  async stop() {
    if (!this.running) return;
    const pids = tree(this.pid);
    this.proc.kill(this.stopSignal);
    const timer = setTimeout(() => this.crash(pids), 15000);
    await this.exited;
    clearTimeout(timer);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL'); // a child the supervisor left behind
      } catch (e) {
        /* gone, as it should be */
      }
    }
    await gone(pids);
  }
}

async function marketfold(dataDir) {
  const port = await freePort();
  const argv = [
    pythonPath(), '-m', 'cli', 'serve', '--port', String(port), '--data-dir', dataDir,
    '--appendfsync', 'always',
  ];
  return new Server('marketfold', argv, marketfoldEnv(), `http://127.0.0.1:${port}`, '/healthz');
}

/** The stack's ceiling: bench/moves/bare_app.py (one XADD per POST) under marketfold's gunicorn
 * command line, on its own Valkey with appendfsync always (bench/peer/bare_serve.py). */
async function bare(dataDir) {
  const port = await freePort();
  const argv = [pythonPath(), '-m', 'bench.peer.bare_serve', '--port', String(port), '--data-dir', dataDir];
  return new Server('bare', argv, marketfoldEnv(), `http://127.0.0.1:${port}`, '/healthz');
}

/** boardgame.io's server; `where`: FlatFile's directory, or the PostgreSQL server (below)
 * whose database holds the matches. */
async function boardgameio(storage, where) {
  const port = await freePort();
  const argv = [process.execPath, path.join(__dirname, 'server.cjs'), '--port', String(port)];
  if (storage === 'flatfile') argv.push('--flatfile', where);
  if (storage === 'postgres') argv.push('--postgres', where.uri);
  const env = { ...process.env, NODE_ENV: 'production', PEER_NODE_MODULES_DIR: modulesDir() };
  return new Server(`boardgame.io ${storage}`, argv, env, `http://127.0.0.1:${port}`, '/games');
}

const PG_PROGRAMS = ['initdb', 'postgres', 'pg_isready'];

/** The directory of PostgreSQL's server programs: $PEER_PG_BIN if set, else `pg_config
 * --bindir`, else the newest /usr/lib/postgresql/N/bin (Debian keeps them off the PATH);
 * null if it (or none) has initdb, postgres and pg_isready. */
function postgresBin() {
  const has = dir => PG_PROGRAMS.every(p => fs.existsSync(path.join(dir, p)));
  if (process.env.PEER_PG_BIN) return has(process.env.PEER_PG_BIN) ? process.env.PEER_PG_BIN : null;
  const candidates = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch (e) {
    /* no pg_config */
  }
  try {
    const versions = fs.readdirSync('/usr/lib/postgresql').filter(v => /^\d+$/.test(v));
    versions.sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map(v => `/usr/lib/postgresql/${v}/bin`));
  } catch (e) {
    /* no Debian package */
  }
  return candidates.find(has) || null;
}

/** The user PostgreSQL runs as: this one, unless root (which PostgreSQL refuses). */
function postgresUser() {
  if (process.getuid() !== 0) return null;
  for (const name of [process.env.PEER_PG_USER, 'postgres', 'nobody'].filter(Boolean)) {
    try {
      const id = flag => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      return { name, uid: id('-u'), gid: id('-g') };
    } catch (e) {
      /* no such user */
    }
  }
  throw new Error('running as root, and no user to run PostgreSQL as (set PEER_PG_USER)');
}

/** Why boardgame.io on PostgreSQL cannot run here, or null. */
function postgresMissing() {
  if (!postgresBin()) return `PostgreSQL's server programs (${PG_PROGRAMS.join(', ')}) not found (PEER_PG_BIN names their directory)`;
  try {
    postgresUser();
  } catch (e) {
    return e.message;
  }
  return null;
}

/** A throwaway PostgreSQL cluster in `dir` (made by initdb now; the driver removes the
 * directory when it exits), its superuser `bench` trusted on loopback, started with fsync
 * and synchronous_commit on: a commit returns once its WAL record is flushed to disk. */
async function postgres(dir) {
  const bin = postgresBin();
  const user = postgresUser();
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const env = { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C', HOME: dir };
  // --no-sync: initdb's own files need no fsync in a throwaway cluster; the server syncs
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'], ...asUser }
  );
  const port = await freePort();
  const argv = [
    path.join(bin, 'postgres'), '-D', data, '-p', String(port), '-k', dir,
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', '-c', 'synchronous_commit=on',
    '-c', 'full_page_writes=on',
  ];
  const server = new Server('postgresql', argv, env, `postgresql://127.0.0.1:${port}`, '', { cwd: dir, ...asUser });
  server.uri = `postgres://bench@127.0.0.1:${port}/postgres`;
  server.stopSignal = 'SIGINT'; // fast shutdown: SIGTERM would wait for every client to leave
  server.ready = async function ready() {
    const deadline = Date.now() + 60000;
    for (;;) {
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        throw new Error(`postgres exited (${this.proc.exitCode ?? this.proc.signalCode}): ${this.stderr.slice(-500)}`);
      }
      try {
        execFileSync(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'bench', '-d', 'postgres']);
        return;
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`PostgreSQL on port ${port} did not start`);
        await sleep(50);
      }
    }
  };
  return server;
}

const TEMP = []; // data directories made here, removed when the driver exits

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  TEMP.push(dir);
  return dir;
}

function parents() {
  const map = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      map.set(Number(name), Number(fields[1]));
    } catch (e) {
      /* exited meanwhile */
    }
  }
  return map;
}

const alive = pid => fs.existsSync(`/proc/${pid}`);

/** Resolve once none of `pids` exists any more, zombies included (a process killed in
 * the middle of an fsync dies when the disk answers; an orphan waits for init to reap
 * it; marketfold's pidfile check counts a zombie as a live server). */
async function gone(pids, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`processes still alive after kill -9: ${pids.filter(alive)}`);
    await sleep(20);
  }
}

/** `pid` and every process below it, parents before children. */
function tree(pid) {
  const byParent = new Map();
  for (const [child, parent] of parents()) {
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(child);
  }
  const out = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.shift();
    out.push(p);
    todo.push(...(byParent.get(p) || []));
  }
  return out;
}

/** What a process of a server's tree is, for the CPU table. */
function group(pid) {
  let comm = '';
  let cmd = '';
  try {
    comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch (e) {
    return null;
  }
  if (comm.startsWith('valkey') || comm.startsWith('redis')) {
    // serve's second Valkey holds the RQ queues in <data dir>/queues (its working directory)
    let cwd = '';
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch (e) {
      /* gone */
    }
    return cwd.endsWith(`${path.sep}queues`) ? 'valkey queues' : 'valkey';
  }
  if (comm === 'postgres' || comm === 'postmaster') return 'postgres'; // backends: "postgres: ... worker"
  if (cmd.includes('gunicorn') || cmd.includes('offload')) return 'gunicorn';
  if (/ -m cli worker|rq:|rqworker/.test(cmd) || cmd.includes(' worker')) return 'rq worker';
  if (cmd.includes('server.cjs')) return 'node';
  return 'supervisor';
}

/** CPU seconds used so far by each group of `pid`'s tree: each process's own, and that of
 * its children that have exited and been reaped (PostgreSQL's backends come and go with
 * the connections of its clients' pools). */
function treeCpu(pid) {
  const out = {};
  for (const p of tree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0); // utime stime cutime cstime
      const seconds = ticks / TICK;
      const g = group(p);
      if (g) out[g] = (out[g] || 0) + seconds;
    } catch (e) {
      /* exited meanwhile */
    }
  }
  return out;
}

module.exports = {
  ROOT,
  Server,
  bare,
  boardgameio,
  freePort,
  marketfold,
  modulesDir,
  peerRequire,
  postgres,
  postgresMissing,
  sleep,
  tempDir,
  tree,
  treeCpu,
};
