#!/usr/bin/env bash
# `make replicas`: two gateway replicas on one PostgreSQL, to try scale-out locally. Replica A (GATEHOUSE_PORT, 8080)
# starts the embedded PostgreSQL (data in $DATA/postgres) on 127.0.0.1:GATEHOUSE_PG_PORT (54329); replica B
# (GATEHOUSE_PORT_B, 8081) uses it as an external database (GATEHOUSE_DATABASE_URL), as a managed PostgreSQL would be
# used in production. Both share the admin credential, the OAuth secret and the 2026-07-28 request-state key, and one
# local-services. A session attached through A is then called on B. Both run the Project Work notice consumer
# (replica names a and b); one at a time holds the notice streams, and /health says which. Ctrl-C stops everything.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$ROOT/.gatehouse-data}"
PORT_A="${GATEHOUSE_PORT:-8080}"
PORT_B="${GATEHOUSE_PORT_B:-8081}"
LOCAL_PORT="${GATEHOUSE_LOCAL_PORT:-8181}"
PG_PORT="${GATEHOUSE_PG_PORT:-54329}"
SECRETS="$DATA/secrets"
LOCAL_JAR="$(ls "$ROOT"/local-services/target/local-services-*.jar 2>/dev/null | grep -v original | head -1 || true)"
GATEWAY_JAR="$(ls "$ROOT"/gateway/target/gateway-*.jar 2>/dev/null | grep -v original | head -1 || true)"
BUNDLE="$ROOT/target/bundle/bundle.tar.gz"
for f in "$LOCAL_JAR" "$GATEWAY_JAR" "$BUNDLE"; do
  [[ -n "$f" && -f "$f" ]] || { echo "missing build output ($f); run: make replicas" >&2; exit 1; }
done
for port in "$LOCAL_PORT" "$PORT_A" "$PORT_B" "$PG_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "127.0.0.1:$port is already in use" >&2; exit 1; fi
done

mkdir -p "$SECRETS" "$DATA/logs"
chmod 700 "$DATA" "$SECRETS"
secret() {
  local file="$SECRETS/$1"
  [[ -s "$file" ]] || (umask 077; head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' > "$file")
  cat "$file"
}
SERVICE_CREDENTIAL="$(secret service-credential)"
ADMIN_CREDENTIAL="$(secret admin-credential)"
secret oauth-hs256-secret > /dev/null
[[ -s "$SECRETS/request-state-key" ]] || (umask 077; head -c 32 /dev/urandom | base64 | tr -d '\n' > "$SECRETS/request-state-key")
STATE_KEY="$(cat "$SECRETS/request-state-key")"

PIDS=()
stop() {
  trap - INT TERM EXIT; for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true
  # Replica A stops the embedded PostgreSQL when it exits; after a kill -9 of A it is left running: stop it here.
  local postmaster; postmaster="$(head -1 "$DATA/postgres/postmaster.pid" 2>/dev/null || true)"
  if [[ -n "$postmaster" ]] && tr '\0' ' ' 2>/dev/null < "/proc/$postmaster/cmdline" | grep -qF -- "$DATA/postgres"; then
    kill -INT "$postmaster" 2>/dev/null || true
  fi
}
trap stop INT TERM EXIT
wait_for() {
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null "$1" && kill -0 "$3" 2>/dev/null; then return 0; fi
    kill -0 "$3" 2>/dev/null || { echo "$2 exited; see $DATA/logs/$2.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "$2 did not start; see $DATA/logs/$2.log" >&2; exit 1
}

GATEHOUSE_LOCAL_CREDENTIAL="$SERVICE_CREDENTIAL" GATEHOUSE_LOCAL_PORT="$LOCAL_PORT" \
GATEHOUSE_LOCAL_DATA_DIR="$DATA/services" java -jar "$LOCAL_JAR" >> "$DATA/logs/local-services.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$LOCAL_PORT/" local-services "${PIDS[0]}"

gateway() { # name, port, extra environment assignments...
  local name="$1" port="$2"; shift 2
  env GATEHOUSE_ADMIN_CREDENTIAL="$ADMIN_CREDENTIAL" GATEHOUSE_OAUTH_DEV_HS256_SECRET_FILE="$SECRETS/oauth-hs256-secret" \
    GATEHOUSE_REPLICA_NAME="$name" GATEHOUSE_NOTICES_ENABLED=true GATEHOUSE_NOTICES_CLIENT_ID=gatehouse-local \
    GATEHOUSE_NOTICES_HOST_PROJECT=demo \
    GATEHOUSE_BUNDLE_VERIFICATION_KEY="${GATEHOUSE_BUNDLE_VERIFICATION_KEY:-$DATA/bundle-signing/public.pem}" \
    GATEHOUSE_PORT="$port" GATEHOUSE_PUBLIC_URL="http://127.0.0.1:$port" GATEHOUSE_OAUTH_ISSUER="http://127.0.0.1:$PORT_A" \
    GATEHOUSE_MCP_REQUEST_STATE_KEY="$STATE_KEY" GATEHOUSE_DATA_DIR="$DATA" "$@" \
    java -Dgatehouse.policy.bundle-path="$BUNDLE" -Dgatehouse.audit.path="$DATA/logs/decisions-$name.jsonl" \
      -Dgatehouse.services.host.url="http://127.0.0.1:$LOCAL_PORT" \
      -Dgatehouse.services.project.url="http://127.0.0.1:$LOCAL_PORT" \
      -Dgatehouse.services.wiki.url="http://127.0.0.1:$LOCAL_PORT" \
      -Dgatehouse.services.host.credential-file="$SECRETS/service-credential" \
      -Dgatehouse.services.project.credential-file="$SECRETS/service-credential" \
      -Dgatehouse.services.wiki.credential-file="$SECRETS/service-credential" \
      -jar "$GATEWAY_JAR" >> "$DATA/logs/gateway-$name.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$port/health" "gateway-$name" "${PIDS[-1]}"
}
echo ">> replica A on 127.0.0.1:$PORT_A (embedded PostgreSQL on 127.0.0.1:$PG_PORT, data in $DATA/postgres)"
gateway a "$PORT_A" GATEHOUSE_DATABASE_EMBEDDED_PORT="$PG_PORT"
echo ">> replica B on 127.0.0.1:$PORT_B (GATEHOUSE_DATABASE_URL=jdbc:postgresql://127.0.0.1:$PG_PORT/gatehouse)"
gateway b "$PORT_B" GATEHOUSE_DATABASE_EMBEDDED=false \
  GATEHOUSE_DATABASE_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/gatehouse" GATEHOUSE_DATABASE_USER=postgres

admin() { curl -sf -X "$1" "http://127.0.0.1:$PORT_A$2" -H "Authorization: Bearer $ADMIN_CREDENTIAL" \
  -H 'Content-Type: application/json' -d "$3"; }
admin PUT /admin/agents/a1 '{"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
  "wiki":{"read":true,"write":true}}' > /dev/null
# a1 takes Project Work notices from this environment's Project client, delivered by whichever replica holds the
# streams (README, "Project Work notices").
admin PUT /admin/notices/agents/a1 '{"projectClientId":"gatehouse-local","runtimeMode":"full-access",
  "interactionMode":"plan","limitRuntimeMode":"auto","limitInteractionMode":"default"}' > /dev/null
TOKEN="$(admin POST /admin/sessions '{"environmentId":"local","threadId":"t1","providerSessionId":"ps-t1",
  "providerInstanceId":"pi-1","logicalAgentId":"a1","t3ProjectId":"demo","provider":"codex"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
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
wait
