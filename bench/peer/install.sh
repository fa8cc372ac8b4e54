#!/usr/bin/env bash
# Install the peer's npm packages (boardgame.io and what its FlatFile storage and the driver
# need), pinned in bench/peer/package.json and package-lock.json, with `npm ci` into a
# cache directory keyed by the lock file's hash, once; print that directory. Never installs
# into the repository (as .ci/npm-tools does for the contract tools).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hash="$(sha256sum "$here/package-lock.json" | cut -c1-16)"
dir="${PEER_NODE_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/marketfold/peer-$hash}"
if [ ! -f "$dir/node_modules/boardgame.io/package.json" ]; then
  tmp="$dir.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  cp "$here/package.json" "$here/package-lock.json" "$tmp/"
  (cd "$tmp" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
  rm -rf "$dir" && mv "$tmp" "$dir"
fi
echo "$dir"
