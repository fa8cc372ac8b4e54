'use strict';
/**
 * boardgame.io's own `Server` (Koa, socket.io, its lobby API on the same port) serving the
 * peer's auction (auction.cjs):
 *
 *     node bench/peer/server.cjs --port 8001 [--flatfile DIR [--write-queue] | --postgres URI]
 *
 * With --flatfile, matches live in DIR through boardgame.io's FlatFile storage
 * (node-persist: one JSON file per key, rewritten whole by fs.writeFile, no fsync, after
 * the update has been sent to the players); without it, in boardgame.io's default
 * in-memory storage. node-persist 3.1 queues writes and flushes the queue once a second
 * by default; boardgame.io waits for a move's writes before it takes the match's next
 * move, so each match then makes at most one move a second. The bench turns that queue
 * off (each write goes out at once: the peer's fastest and most durable FlatFile);
 * --write-queue keeps node-persist's default. With --postgres, matches live in that
 * PostgreSQL database through bgio-postgres (boardgame.io's PostgreSQL storage, on
 * Sequelize with its default pool of 5 connections): a move is sent to the players, then
 * its state written in one transaction (SELECT ... FOR UPDATE, UPDATE of the match's row
 * with its state and whole log) and its metadata by an upsert. The packages come from the cache
 * bench/peer/install.sh fills (PEER_NODE_MODULES_DIR), never the repository.
 */
const { peerRequire } = require('./procs.cjs');
const { Auction } = require('./auction.cjs');

function option(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const { Server, FlatFile } = peerRequire('boardgame.io/server');

/** FlatFile whose node-persist writes each file at once instead of once a second. */
class FlatFileWritingAtOnce extends FlatFile {
  async connect() {
    await this.games.init({ dir: this.dir, logging: false, writeQueue: false });
  }
}

function storage() {
  const dir = option('--flatfile');
  const uri = option('--postgres');
  if (uri) {
    const { PostgresStore } = peerRequire('bgio-postgres');
    return new PostgresStore(uri, { logging: false });
  }
  const Storage = process.argv.includes('--write-queue') ? FlatFile : FlatFileWritingAtOnce;
  return dir ? new Storage({ dir, logging: false }) : undefined;
}

const db = storage();
const server = Server({ games: [Auction], db, origins: [] });
server.run(Number(option('--port')), () => {});
