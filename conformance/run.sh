#!/usr/bin/env bash
# The MCP conformance server scenarios against a running gateway (`make run`), through proxy.mjs, which adds the
# demo a1 session token. Not-applicable scenarios are listed with reasons in baseline.yml; the run fails on any
# other failure and on a stale baseline. Needs Node 22: the npm package `node@22` is installed next to the runner.
# Usage: conformance/run.sh [gateway-base-url]   (default http://127.0.0.1:8080; results in $DATA/conformance)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$HERE/../.gatehouse-data}"
BASE="${1:-http://127.0.0.1:8080}"
PORT="${GATEHOUSE_CONFORMANCE_PROXY_PORT:-8099}"
[[ -f "$DATA/demo-credentials.env" ]] || { echo "start the gateway first: make run" >&2; exit 1; }
[[ -d "$HERE/node_modules" ]] || npm ci --prefix "$HERE" --no-audit --no-fund
# shellcheck disable=SC1091
source "$DATA/demo-credentials.env"
NODE22="$HERE/node_modules/.bin/node"

GATEHOUSE_TOKEN="$A1_TOKEN" "$NODE22" "$HERE/proxy.mjs" "$PORT" "$BASE" &
PROXY=$!
trap 'kill $PROXY 2>/dev/null || true' EXIT
sleep 1
mkdir -p "$DATA/conformance" && cd "$DATA/conformance"
"$NODE22" "$HERE/node_modules/.bin/conformance" server --url "http://127.0.0.1:$PORT/mcp" \
  --expected-failures "$HERE/baseline.yml"
