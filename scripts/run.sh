#!/usr/bin/env bash
# `make run`: starts the embedded backends (local-services), the local OAuth 2.1 authorization server (local-auth)
# and the gateway on loopback, attaches the demo sessions through the admin API, gets the demo outside agent's
# token from the authorization server and prints what an MCP client needs. Ctrl-C stops all three.
#
# Credentials are generated once into the data directory (mode 600) and reused on later runs:
#   service-credential  local-services <-> gateway facades
#   admin-credential    the admin API (never accepted at /mcp)
#   credential-key      seals service credentials entered in the console (AES-256-GCM)
#   console-client-secret  the console's OpenID client at local-auth (which accepts any secret)
# The operator console is at $BASE/console: sign in at local-auth's login page as "operator" (an operator) or any
# other name (refused, 403).
# Outside agents are OAuth clients of local-auth: o1 is approved read-only, o2 full-access (the `t3_mode_ceiling`
# claim is set by the authorization server); the gateway checks their tokens with its JWKS.
# Sessions and agent settings live in the gateway's embedded PostgreSQL under $DATA/postgres, so the demo thread
# tokens of one start keep working after a restart: they are kept in $DATA/demo-credentials.env and minted again
# only when absent, expired or revoked (checked with GET /admin/sessions, which lists current sessions without tokens).
# Environment: GATEHOUSE_DATA_DIR (default .gatehouse-data), GATEHOUSE_PORT (8080), GATEHOUSE_LOCAL_PORT (8181),
# GATEHOUSE_AUTH_PORT (8282).
set -euo pipefail
# shellcheck source=lib/start.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/start.sh"

PORT="${GATEHOUSE_PORT:-8080}"
AUTH_PORT="${GATEHOUSE_AUTH_PORT:-8282}"
ISSUER="http://127.0.0.1:$AUTH_PORT/gatehouse"
SCOPE=mcp
BASE="http://127.0.0.1:$PORT"

require_build run "$(built_jar local-services)" "$(built_jar gateway)" "$(built_jar local-auth)" "$BUNDLE"
prepare_data_dir
stop_all_on_exit
"$ROOT/scripts/check-ports.sh" run

start_local_services

echo ">> starting the authorization server on $ISSUER (outside agents o1: read-only, o2: full-access)"
# It signs with its own key pair, made into $SECRETS on first start (mode 600) and reused.
GATEHOUSE_AUTH_PORT="$AUTH_PORT" GATEHOUSE_AUTH_AUDIENCE="$BASE/mcp" GATEHOUSE_AUTH_SCOPE="$SCOPE" \
GATEHOUSE_AUTH_CLIENTS="o1=read-only,o2=full-access" GATEHOUSE_AUTH_KEY_FILE="$SECRETS/local-auth-signing-key.json" \
  java -jar "$(built_jar local-auth)" >> "$DATA/logs/local-auth.log" 2>&1 &
started local-auth
wait_for "$ISSUER/.well-known/oauth-authorization-server" local-auth "${PIDS[-1]}"

echo ">> starting the gateway on $BASE"
if [[ ! -s "$SECRETS/credential-key" ]]; then # 32 random bytes, base64: the console's credential key
  (umask 077; head -c 32 /dev/urandom | base64 > "$SECRETS/credential-key")
fi
start_gateway gateway "$PORT" decisions.jsonl GATEHOUSE_OAUTH_ISSUER="$ISSUER" \
  GATEHOUSE_OAUTH_JWKS_URL="$ISSUER/jwks" GATEHOUSE_OAUTH_SCOPE="$SCOPE" \
  GATEHOUSE_CONSOLE_ENABLED=true GATEHOUSE_CONSOLE_ISSUER="$ISSUER" GATEHOUSE_CONSOLE_CLIENT_ID=gatehouse-console \
  GATEHOUSE_CONSOLE_CLIENT_SECRET="$(secret console-client-secret)" \
  GATEHOUSE_CREDENTIALS_KEY_FILE="$SECRETS/credential-key"
curl -s "$BASE/health"; echo

# The demo credentials of an earlier start, if any; each is kept while it still works.
A1_TOKEN="" A1_SESSION="" A2_TOKEN="" A2_SESSION="" O1_TOKEN=""
if [[ -f "$DATA/demo-credentials.env" ]]; then
  # shellcheck disable=SC1091
  source "$DATA/demo-credentials.env"
fi
CURRENT="$(admin "$PORT" GET /admin/sessions '' || echo '[]')"
current() { # session id: is it listed as current (attached, not revoked, not expired)?
  [[ -n "$1" ]] && CURRENT="$CURRENT" python3 -c 'import json,os,sys
sys.exit(0 if any(s["sessionId"] == sys.argv[1] for s in json.loads(os.environ["CURRENT"])) else 1)' "$1"
}
attach() { # thread, provider instance, agent, name, provider kind -> "sessionId token"
  local created
  created="$(admin "$PORT" POST /admin/sessions "{\"environmentId\":\"local\",\"threadId\":\"$1\",
    \"providerSessionId\":\"ps-$1\",\"providerInstanceId\":\"$2\",\"logicalAgentId\":\"$3\",
    \"t3ProjectId\":\"demo\",\"agentName\":\"$4\",\"provider\":\"$5\"}")"
  echo "$(field sessionId <<< "$created") $(field token <<< "$created")"
}
if current "$A1_SESSION" && [[ -n "$A1_TOKEN" ]]; then echo ">> a1: reusing the session of an earlier start"
else read -r A1_SESSION A1_TOKEN <<< "$(attach t1 pi-1 a1 'Agent one' codex)"; fi
if current "$A2_SESSION" && [[ -n "$A2_TOKEN" ]]; then echo ">> a2: reusing the session of an earlier start"
else read -r A2_SESSION A2_TOKEN <<< "$(attach t2 pi-2 a2 'Agent two' claude)"; fi
configure_demo_agent_a1 "$PORT" true
admin "$PORT" PUT /admin/agents/a2 '{"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
  "wiki":{"read":true,"write":true}}' > /dev/null
# The outside agent o1 is registered by issuer and subject (docs/domain.md §1): its own id and settings.
admin "$PORT" PUT /admin/outside-agents '{"issuer":"'"$ISSUER"'","subject":"o1","logicalAgentId":"oa-o1",
  "browserAccess":false,"project":{"enabled":false},"wiki":{"read":true,"write":false}}' > /dev/null

# The read-only outside agent's access token, as any OAuth client gets it: client credentials at the token endpoint
# for this gateway's resource (the local server accepts any client secret).
O1_TOKEN="$(curl -sf -u o1:local-secret -d grant_type=client_credentials -d scope="$SCOPE" \
  --data-urlencode resource="$BASE/mcp" "$ISSUER/token" \
  | field access_token)"
umask 077
# LOCAL_URL: `make demo` sends local-services' own credential there, so it must be this start's local-services.
printf 'MCP_URL=%s\nA1_TOKEN=%s\nA1_SESSION=%s\nA2_TOKEN=%s\nA2_SESSION=%s\nO1_TOKEN=%s\nOAUTH_ISSUER=%s\nLOCAL_URL=%s\n' \
  "$BASE/mcp" "$A1_TOKEN" "$A1_SESSION" "$A2_TOKEN" "$A2_SESSION" "$O1_TOKEN" "$ISSUER" \
  "http://127.0.0.1:$LOCAL_PORT" > "$DATA/demo-credentials.env"
# `make bundle` signs with the data directory's key: name it when it is not the default one.
BUNDLE_COMMAND="make bundle"
if [[ -n "${GATEHOUSE_DATA_DIR:-}" ]]; then BUNDLE_COMMAND="GATEHOUSE_DATA_DIR=$GATEHOUSE_DATA_DIR make bundle"; fi

cat <<INFO

Gatehouse is running.
  MCP endpoint : $BASE/mcp   (2026-07-28 and 2025-11-25 / 2025-06-18)
  health       : $BASE/health
  a1 (thread t1, full-access/default)     : $A1_TOKEN
  a2 (thread t2, approval-required/plan)  : $A2_TOKEN
  o1 (outside agent, read-only, OAuth)    : $O1_TOKEN
  authorization server : $ISSUER   (clients o1 read-only, o2 full-access; scope $SCOPE; 1 h tokens)
  (also in $DATA/demo-credentials.env; the admin credential is in $SECRETS/admin-credential)
  operator console     : $BASE/console
    sign in at the authorization server's login page with the user name "operator" (any other name is refused)

Try it with a real MCP client:
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli $BASE/mcp --transport http \\
    --header "Authorization: Bearer $A1_TOKEN" --method tools/list
  npx -y @modelcontextprotocol/inspector@2.12.0 --cli $BASE/mcp --transport http \\
    --header "Authorization: Bearer $A1_TOKEN" --method tools/call --tool-name wiki_read --tool-arg path=page.md
An outside agent's token (an OAuth client gets it by itself after the 401, from the metadata it points to):
  curl -s -u o2:local-secret -d grant_type=client_credentials -d scope=$SCOPE \\
    --data-urlencode resource=$BASE/mcp $ISSUER/token
A scripted session: make demo
A policy change without a restart: edit policies/, run \`$BUNDLE_COMMAND\` (signed with $DATA/bundle-signing/); the
  gateway verifies, self-tests and activates the new revision within a second (log: "activated"; $BASE/health
  bundleRevision). A change that decides a golden case otherwise needs the golden and smoke cases regenerated
  (README, "Quotas: who may do how much", "Changing them"), or the gateway refuses it and says why in /health.
Logs: $DATA/logs/ (decision log: decisions.jsonl)   Ctrl-C stops all three servers.
INFO
report_exits "The others go on without it; Ctrl-C, then make run again, starts all three (the data is kept)."
