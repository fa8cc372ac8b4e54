#!/usr/bin/env bash
# Regenerate the Python client from openapi.yaml and play whole games with it:
#   examples/python/run.sh http://127.0.0.1:8000 [ruleset ...]
# Needs openapi-python-client (pip install -e '.[test]'). BUILD_DIR: where the client goes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$here/build}"
python="${PYTHON:-python3}"
# the generator formats its output with ruff, installed next to it
export PATH="$("$python" -c "import os, sys; print(os.path.dirname(sys.executable))"):$PATH"
rm -rf "$build/marketfold_client"
mkdir -p "$build"
"$python" -m openapi_python_client generate --path "$root/openapi.yaml" \
  --output-path "$build/marketfold_client" --meta none \
  --config "$here/openapi-python-client.yaml" --fail-on-warning >&2
PYTHONPATH="$build" exec "$python" "$here/play.py" "$@"
