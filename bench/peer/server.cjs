'use strict';
/**
 * boardgame.io's own `Server` (Koa, socket.io, its lobby API on the same port) serving the
 * peer's auction (auction.cjs):
 *
 *     node bench/peer/server.cjs --port 8001 [--flatfile DIR]
 *
 * With --flatfile, matches live in DIR through boardgame.io's FlatFile storage
 * (node-persist: one JSON file per key, written after the update is broadcast, no
 * fsync); without it, in boardgame.io's default in-memory storage. The packages come from
 * the cache bench/peer/install.sh fills (PEER_NODE_MODULES_DIR), never the repository.
 */
const { peerRequire } = require('./procs.cjs');
const { Auction } = require('./auction.cjs');

function option(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const { Server, FlatFile } = peerRequire('boardgame.io/server');
const dir = option('--flatfile');
const db = dir ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Auction], db });
server.run(Number(option('--port')), () => {});
