#!/usr/bin/env bash
# `make replicas`: two gateway replicas on one PostgreSQL, to try scale-out locally. Replica A (GATEHOUSE_PORT, 8080)
# starts the embedded PostgreSQL (data in $DATA/postgres) on 127.0.0.1:GATEHOUSE_PG_PORT (54329); replica B
# (GATEHOUSE_PORT_B, 8081) uses it as an external database (GATEHOUSE_DATABASE_URL), as a managed PostgreSQL would be
# used in production. Both share the admin credential, the OAuth secret and the 2026-07-28 request-state key, and one
# local-services. A session attached through A is then called on B. Both run the Project Work notice consumer
# (replica names a and b); one at a time holds the notice streams, and /health says which. Ctrl-C stops everything.
set -euo pipefail
# shellcheck source=lib/start.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/start.sh"

PORT_A="${GATEHOUSE_PORT:-8080}"
PORT_B="${GATEHOUSE_PORT_B:-8081}"
PG_PORT="${GATEHOUSE_PG_PORT:-54329}"

require_build replicas "$(built_jar local-services)" "$(built_jar gateway)" "$BUNDLE"
"$ROOT/scripts/check-ports.sh" replicas
prepare_data_dir
secret oauth-hs256-secret > /dev/null
[[ -s "$SECRETS/request-state-key" ]] || (umask 077; head -c 32 /dev/urandom | base64 | tr -d '\n' > "$SECRETS/request-state-key")

# Replica A stops the embedded PostgreSQL when it exits; after a kill -9 of A it is left running: stop it here.
on_stop() {
  local postmaster; postmaster="$(head -1 "$DATA/postgres/postmaster.pid" 2>/dev/null || true)"
  if [[ -n "$postmaster" ]] && tr '\0' ' ' 2>/dev/null < "/proc/$postmaster/cmdline" | grep -qF -- "$DATA/postgres"; then
    kill -INT "$postmaster" 2>/dev/null || true
  fi
}
stop_all_on_exit

start_local_services

replica() { # name, port, extra VAR=value...: both share the admin credential, the OAuth secret and the state key
  local name="$1" port="$2"; shift 2
  start_gateway "gateway-$name" "$port" "decisions-$name.jsonl" GATEHOUSE_REPLICA_NAME="$name" \
    GATEHOUSE_OAUTH_DEV_HS256_SECRET_FILE="$SECRETS/oauth-hs256-secret" GATEHOUSE_OAUTH_ISSUER="http://127.0.0.1:$PORT_A" \
    GATEHOUSE_MCP_REQUEST_STATE_KEY="$(cat "$SECRETS/request-state-key")" "$@"
}
echo ">> replica A on 127.0.0.1:$PORT_A (embedded PostgreSQL on 127.0.0.1:$PG_PORT, data in $DATA/postgres)"
replica a "$PORT_A" GATEHOUSE_DATABASE_EMBEDDED_PORT="$PG_PORT"
echo ">> replica B on 127.0.0.1:$PORT_B (GATEHOUSE_DATABASE_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/gatehouse)"
replica b "$PORT_B" GATEHOUSE_DATABASE_EMBEDDED=false \
  GATEHOUSE_DATABASE_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/gatehouse" GATEHOUSE_DATABASE_USER=postgres

# a1 takes Project Work notices from this environment's Project client, delivered by whichever replica holds the
# streams (README, "Project Work notices").
configure_demo_agent_a1 "$PORT_A" false
TOKEN="$(admin "$PORT_A" POST /admin/sessions '{"environmentId":"local","threadId":"t1","providerSessionId":"ps-t1",
  "providerInstanceId":"pi-1","logicalAgentId":"a1","t3ProjectId":"demo","provider":"codex"}' \
  | field token)"
call() { # port: a 2026-07-28 tools/call of wiki_read
  curl -s "http://127.0.0.1:$1/mcp" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: wiki_read' \
    -H 'MCP-Protocol-Version: 2026-07-28' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":
    "wiki_read","arguments":{"path":"page.md"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
    "io.modelcontextprotocol/clientInfo":{"name":"curl","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}'
}
echo ">> a session attached through A, called on B:"
ANSWER="$(call "$PORT_B")"; echo "$ANSWER"
# The call must have been decided and answered on B (a tool result, not a JSON-RPC error such as unavailable).
grep -q '"result"' <<< "$ANSWER" || { echo "replica B did not answer the call; see $DATA/logs/gateway-b.log" >&2; exit 1; }
cat <<INFO

Two replicas are running on one PostgreSQL: A http://127.0.0.1:$PORT_A/mcp, B http://127.0.0.1:$PORT_B/mcp.
  a1 token (attached through A, works on both): $TOKEN
  Revoke or change settings through either admin API; the other replica applies it at the next call.
  Project Work notices: both run the consumer, one holds the streams (curl -s http://127.0.0.1:$PORT_A/health:
  notices.hold). Kill the holder (replica A is pid ${PIDS[1]}, B is pid ${PIDS[2]}; kill -9 <pid>) and the other
  takes them over within about a second (its /health: notices.hold.holding true).
  Any load balancer in front works for 2026-07-28 calls; handshake-era sessions need sticky routing (or the client
  initializes again after a 404). Logs: $DATA/logs/gateway-{a,b}.log   Ctrl-C stops everything.
INFO
report_exits "The others go on without it."
