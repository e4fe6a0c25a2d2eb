#!/usr/bin/env bash
# A scripted session with real MCP clients against a running `make run`: prints each call, allowed or denied,
# with the policy's reason codes, then a Project Work notice arriving and the one aggregate message it leads to.
# Usage: scripts/demo.sh [modern|handshake|both]   (default: both)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$ROOT/.gatehouse-data}"
E2E="$ROOT/gateway/src/test/e2e"
[[ -f "$DATA/demo-credentials.env" ]] || { echo "start the gateway first: make run" >&2; exit 1; }
[[ -d "$E2E/node_modules" ]] || npm ci --prefix "$E2E" --no-audit --no-fund
set -a
# shellcheck disable=SC1091
source "$DATA/demo-credentials.env"
set +a
node "$ROOT/scripts/demo.mjs" "${1:-both}"
python3 "$ROOT/scripts/demo-notices.py"
