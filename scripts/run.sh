#!/usr/bin/env bash
# `make run`: starts the embedded backends (local-services) and the gateway on loopback, attaches the demo
# sessions through the admin API and prints what an MCP client needs. Ctrl-C stops both.
#
# Credentials are generated once into the data directory (mode 600) and reused on later runs:
#   service-credential  local-services <-> gateway facades
#   admin-credential    the admin API (never accepted at /mcp)
#   oauth-hs256-secret  signs the local outside-agent token (a real deployment uses the issuer's JWKS instead)
# Environment: GATEHOUSE_DATA_DIR (default .gatehouse-data), GATEHOUSE_PORT (8080), GATEHOUSE_LOCAL_PORT (8181).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$ROOT/.gatehouse-data}"
PORT="${GATEHOUSE_PORT:-8080}"
LOCAL_PORT="${GATEHOUSE_LOCAL_PORT:-8181}"
BASE="http://127.0.0.1:$PORT"
SECRETS="$DATA/secrets"

LOCAL_JAR="$(ls "$ROOT"/local-services/target/local-services-*.jar 2>/dev/null | grep -v original | head -1 || true)"
GATEWAY_JAR="$(ls "$ROOT"/gateway/target/gateway-*.jar 2>/dev/null | grep -v original | head -1 || true)"
BUNDLE="$ROOT/target/bundle/bundle.tar.gz"
for f in "$LOCAL_JAR" "$GATEWAY_JAR" "$BUNDLE"; do
  [[ -n "$f" && -f "$f" ]] || { echo "missing build output ($f); run: make run" >&2; exit 1; }
done

# local-services seeds the demo data only into a data directory it creates itself.
mkdir -p "$SECRETS" "$DATA/logs"
chmod 700 "$DATA" "$SECRETS"
secret() { # 256 random bits, base64url, generated once
  local file="$SECRETS/$1"
  if [[ ! -s "$file" ]]; then
    (umask 077; head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' > "$file")
  fi
  cat "$file"
}
SERVICE_CREDENTIAL="$(secret service-credential)"
ADMIN_CREDENTIAL="$(secret admin-credential)"
OAUTH_SECRET="$(secret oauth-hs256-secret)"

PIDS=()
stop() {
  trap - INT TERM EXIT
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

"$ROOT/scripts/check-ports.sh"

wait_for() { # url, name, pid: the answer must come while our own process is alive
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null "$1" && kill -0 "$3" 2>/dev/null; then return 0; fi
    kill -0 "$3" 2>/dev/null || { echo "$2 exited; see $DATA/logs/$2.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "$2 did not start; see $DATA/logs/$2.log" >&2
  exit 1
}

echo ">> starting local-services on 127.0.0.1:$LOCAL_PORT (data: $DATA/services)"
GATEHOUSE_LOCAL_CREDENTIAL="$SERVICE_CREDENTIAL" GATEHOUSE_LOCAL_PORT="$LOCAL_PORT" \
GATEHOUSE_LOCAL_DATA_DIR="$DATA/services" \
  java -jar "$LOCAL_JAR" > "$DATA/logs/local-services.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$LOCAL_PORT/" local-services "${PIDS[0]}"

echo ">> starting the gateway on $BASE"
GATEHOUSE_ADMIN_CREDENTIAL="$ADMIN_CREDENTIAL" GATEHOUSE_OAUTH_HS256_SECRET="$OAUTH_SECRET" \
GATEHOUSE_PORT="$PORT" GATEHOUSE_PUBLIC_URL="$BASE" GATEHOUSE_OAUTH_ISSUER="$BASE" \
  java -Dgatehouse.policy.bundle-path="$BUNDLE" -Dgatehouse.audit.path="$DATA/logs/decisions.jsonl" \
    -Dgatehouse.services.host.url="http://127.0.0.1:$LOCAL_PORT" \
    -Dgatehouse.services.project.url="http://127.0.0.1:$LOCAL_PORT" \
    -Dgatehouse.services.wiki.url="http://127.0.0.1:$LOCAL_PORT" \
    -Dgatehouse.services.host.credential-file="$SECRETS/service-credential" \
    -Dgatehouse.services.project.credential-file="$SECRETS/service-credential" \
    -Dgatehouse.services.wiki.credential-file="$SECRETS/service-credential" \
    -jar "$GATEWAY_JAR" > "$DATA/logs/gateway.log" 2>&1 &
PIDS+=($!)
wait_for "$BASE/health" gateway "${PIDS[1]}"
curl -s "$BASE/health"; echo

admin() { # method, path, json body
  curl -sf -X "$1" "$BASE$2" -H "Authorization: Bearer $ADMIN_CREDENTIAL" -H 'Content-Type: application/json' \
    -d "$3"
}
token_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'; }

A1_TOKEN="$(admin POST /admin/sessions '{"environmentId":"local","threadId":"t1","providerSessionId":"ps-t1",
  "providerInstanceId":"pi-1","logicalAgentId":"a1","t3ProjectId":"demo","agentName":"Agent one"}' | token_of)"
A2_TOKEN="$(admin POST /admin/sessions '{"environmentId":"local","threadId":"t2","providerSessionId":"ps-t2",
  "providerInstanceId":"pi-2","logicalAgentId":"a2","t3ProjectId":"demo","agentName":"Agent two"}' | token_of)"
admin PUT /admin/agents/a1 '{"browserAccess":true,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
  "wiki":{"read":true,"write":true}}' > /dev/null
admin PUT /admin/agents/a2 '{"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
  "wiki":{"read":true,"write":true}}' > /dev/null
# The outside agent o1 is registered by issuer and subject (docs/domain.md §1): its own id and settings.
admin PUT /admin/outside-agents '{"issuer":"'"$BASE"'","subject":"o1","logicalAgentId":"oa-o1",
  "browserAccess":false,"project":{"enabled":false},"wiki":{"read":true,"write":false}}' > /dev/null

# A read-only outside agent's access token (HS256, 8 hours), signed with the local secret.
O1_TOKEN="$(OAUTH_SECRET="$OAUTH_SECRET" ISSUER="$BASE" AUDIENCE="$BASE/mcp" python3 - <<'PY'
import base64, hashlib, hmac, json, os, time
def b64(raw): return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
now = int(time.time())
claims = {"iss": os.environ["ISSUER"], "aud": os.environ["AUDIENCE"], "sub": "o1", "iat": now,
          "exp": now + 8 * 3600, "t3_mode_ceiling": "read-only"}
payload = b64(json.dumps(claims).encode())
signature = hmac.new(os.environ["OAUTH_SECRET"].encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
print(f"{header}.{payload}.{b64(signature)}")
PY
)"
umask 077
printf 'MCP_URL=%s\nA1_TOKEN=%s\nA2_TOKEN=%s\nO1_TOKEN=%s\n' "$BASE/mcp" "$A1_TOKEN" "$A2_TOKEN" "$O1_TOKEN" \
  > "$DATA/demo-credentials.env"

cat <<INFO

Gatehouse is running.
  MCP endpoint : $BASE/mcp   (2026-07-28 and 2025-11-25 / 2025-06-18)
  health       : $BASE/health
  a1 (thread t1, full-access/default)     : $A1_TOKEN
  a2 (thread t2, approval-required/plan)  : $A2_TOKEN
  o1 (outside agent, read-only, JWT)      : $O1_TOKEN
  (also in $DATA/demo-credentials.env; the admin credential is in $SECRETS/admin-credential)

Try it with a real MCP client:
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli $BASE/mcp --transport http \\
    --header "Authorization: Bearer $A1_TOKEN" --method tools/list
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli $BASE/mcp --transport http \\
    --header "Authorization: Bearer $A1_TOKEN" --method tools/call --tool-name wiki_read --tool-arg path=page.md
A scripted session: scripts/demo.sh
Logs: $DATA/logs/ (decision log: decisions.jsonl)   Ctrl-C stops both servers.
INFO
wait
