#!/usr/bin/env bash
# Every server scenario of @modelcontextprotocol/conformance (pinned in package.json) against a running gateway,
# through proxy.mjs, which adds a thread session's bearer token. Scenarios run at each wire they apply to, in three
# passes of `--suite all` (active, pending, draft and extension scenarios):
#   default     every scenario at its own wire: 2026-07-28 for those introduced there, 2025-11-25 for the others
#   2026-07-28  every scenario that applies to 2026-07-28, at the stateless wire
#   2025-06-18  every scenario that applies to 2025-06-18, at that handshake wire
# Not-applicable scenarios (or single checks) are listed with reasons in baseline.yml; each pass fails on any other
# failure or warning, and on a baseline entry that passes.
# Usage: conformance/run.sh [gateway-base-url]   (default http://127.0.0.1:8080; results in $DATA/conformance)
# Environment: GATEHOUSE_TOKEN (else A1_TOKEN from `make run`'s demo-credentials.env), GATEHOUSE_DATA_DIR,
#              GATEHOUSE_CONFORMANCE_PROXY_PORT (8099), GATEHOUSE_CONFORMANCE_OUT (results directory).
# Needs Node 22: the npm package `node@22` is installed next to the runner.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$HERE/../.gatehouse-data}"
BASE="${1:-http://127.0.0.1:8080}"
PORT="${GATEHOUSE_CONFORMANCE_PROXY_PORT:-8099}"
OUT="${GATEHOUSE_CONFORMANCE_OUT:-$DATA/conformance}"
if [[ -z "${GATEHOUSE_TOKEN:-}" ]]; then
  [[ -f "$DATA/demo-credentials.env" ]] || { echo "start the gateway first: make run" >&2; exit 1; }
  # shellcheck disable=SC1091
  source "$DATA/demo-credentials.env"
  GATEHOUSE_TOKEN="$A1_TOKEN"
fi
[[ -d "$HERE/node_modules" ]] || npm ci --prefix "$HERE" --no-audit --no-fund
NODE22="$HERE/node_modules/.bin/node"

GATEHOUSE_TOKEN="$GATEHOUSE_TOKEN" "$NODE22" "$HERE/proxy.mjs" "$PORT" "$BASE" &
PROXY=$!
trap 'kill $PROXY 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
rm -rf "$OUT" && mkdir -p "$OUT" && cd "$OUT"

failed=0
for wire in default 2026-07-28 2025-06-18; do
  args=(server --url "http://127.0.0.1:$PORT/mcp" --suite all --expected-failures "$HERE/baseline.yml"
        -o "$OUT/$wire")
  [[ "$wire" == default ]] || args+=(--spec-version "$wire")
  echo ">> conformance pass: $wire"
  if ! "$NODE22" "$HERE/node_modules/.bin/conformance" "${args[@]}" > "$OUT/$wire.log" 2>&1; then
    failed=1
  fi
  # The runner's verdict without colours, minus the expected failures (the summary below counts them).
  sed 's/\x1b\[[0-9;]*m//g' "$OUT/$wire.log" | sed -n '/^\(Stale baseline entries\|Unexpected failures (not\)/,$p' \
    | grep -v '^$' | sed 's/^/   /' || true
  python3 - "$OUT/$wire" "$HERE/baseline.yml" <<'PY'
import glob, json, os, re, sys
run, baseline = sys.argv[1], sys.argv[2]
listed = {l.strip()[2:] for l in open(baseline) if l.strip().startswith('- ')}
whole = {e for e in listed if ':' not in e}
counts = {'passed': 0, 'excluded': 0, 'partly excluded': 0, 'failed': 0}
for f in glob.glob(os.path.join(run, '*', 'checks.json')):
    name = re.sub(r'-\d{4}-\d\d-\d\dT[\d-]+Z$', '', os.path.basename(os.path.dirname(f)))[len('server-'):]
    bad = {c['id'] for c in json.load(open(f)) if c['status'] in ('FAILURE', 'WARNING')}
    if name in whole:
        counts['excluded'] += 1
    elif bad and all(f'{name}:{b}' in listed for b in bad):
        counts['partly excluded'] += 1
    else:
        counts['failed' if bad else 'passed'] += 1
print('   scenarios: ' + ', '.join(f'{v} {k}' for k, v in counts.items()))
PY
done
[[ $failed == 0 ]] && echo ">> conformance: every applicable scenario passed in every pass (results in $OUT)" \
  || { echo ">> conformance FAILED (logs in $OUT/<pass>.log)"; exit 1; }
