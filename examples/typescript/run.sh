#!/usr/bin/env bash
# Regenerate the TypeScript client types from openapi.yaml, compile the example and play:
#   examples/typescript/run.sh http://127.0.0.1:8000 [ruleset ...]
# Needs node and npm. The pinned npm tools (package.json, package-lock.json at the root) are
# installed once with `npm ci` into NPM_TOOLS (default ~/.cache/marketfold/npm-<lock hash>).
# BUILD_DIR: where the generated types and compiled script go.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$here/build}"
tools="$("$root/.ci/npm-tools")"
rm -rf "$build" && mkdir -p "$build"
ln -s "$tools/node_modules" "$build/node_modules"
cp "$here/play.mts" "$here/tsconfig.json" "$build/"
# fields with a default stay optional: a client may leave them out
"$tools/node_modules/.bin/openapi-typescript" "$root/openapi.yaml" -o "$build/schema.d.ts" \
  --default-non-nullable false >&2
(cd "$build" && "$tools/node_modules/.bin/tsc" -p tsconfig.json >&2)
exec node "$build/play.mjs" "$@"
