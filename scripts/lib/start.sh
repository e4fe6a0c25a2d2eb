# Sourced by scripts/run.sh (`make run`), scripts/replicas.sh (`make replicas`) and scripts/check-ports.sh: what
# starting Gatehouse on this machine takes, written once. Sourcing it only sets variables and functions; a script
# calls stop_all_on_exit before it starts anything.
#
# Environment: GATEHOUSE_DATA_DIR (default .gatehouse-data), GATEHOUSE_LOCAL_PORT (8181),
# GATEHOUSE_BUNDLE_VERIFICATION_KEY (default: the local signing key of `make bundle`).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA="${GATEHOUSE_DATA_DIR:-$ROOT/.gatehouse-data}"
SECRETS="$DATA/secrets"
LOCAL_PORT="${GATEHOUSE_LOCAL_PORT:-8181}"
BUNDLE="$ROOT/target/bundle/bundle.tar.gz"

# The shaded jar a module's build left in its target/ (not the original-*.jar beside it); empty when none.
built_jar() {
  ls "$ROOT/$1"/target/"$1"-*.jar 2>/dev/null | grep -v original | head -1 || true
}

# Fails unless every file exists, naming the make target that builds them.
require_build() { # make target, files...
  local target="$1" f; shift
  for f in "$@"; do
    [[ -n "$f" && -f "$f" ]] || { echo "missing build output ($f); run: make $target" >&2; exit 1; }
  done
}

# Fails when something already listens on one of the ports: credentials go to those ports, so they must be ours.
require_free_ports() { # "the variables that move them", ports...
  local how="$1" port; shift
  for port in "$@"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "127.0.0.1:$port is already in use (another make run or make replicas?). Stop it, or choose other" \
        "ports with $how." >&2
      exit 1
    fi
  done
}

# The data directory with its secrets and logs, readable by this user only; the files made from here on (the servers'
# logs hold what callers sent) are not readable by others either, even when the directory is moved or opened up.
prepare_data_dir() {
  umask 027
  mkdir -p "$SECRETS" "$DATA/logs"
  chmod 700 "$DATA" "$SECRETS"
  chmod -R o-rwx "$DATA/logs" # logs an earlier start made readable by others
}

# A secret of 256 random bits, base64url, generated once into $SECRETS (mode 600) and reused after.
secret() { # name
  local file="$SECRETS/$1"
  [[ -s "$file" ]] || (umask 077; head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' > "$file")
  cat "$file"
}

# Every process started here is stopped when the script ends (Ctrl-C, an error, or the end); a script that must
# clean up more defines on_stop.
PIDS=()
declare -A NAMES=() # pid -> the server's name, which is also its log's
STOPPING=""
# Records the server just started in the background ($!) under name.
started() { # name
  PIDS+=($!)
  NAMES[$!]="$1"
}
# Stops the servers started here, the last started first, each before the next: a gateway ends before the backends
# it calls, so its shutdown meets no closed connection. A second Ctrl-C meanwhile stops the rest at once.
stop_all() {
  STOPPING=1
  trap - EXIT
  trap 'kill "${PIDS[@]}" 2>/dev/null || true' INT TERM HUP
  local i names=()
  for (( i = ${#PIDS[@]} - 1; i >= 0; i-- )); do names+=("${NAMES[${PIDS[i]}]}"); done
  if (( ${#PIDS[@]} )); then echo ">> stopping ${names[*]}"; fi # stdout: stderr may be muted by report_exits
  for (( i = ${#PIDS[@]} - 1; i >= 0; i-- )); do
    kill "${PIDS[i]}" 2>/dev/null || true
    wait "${PIDS[i]}" 2>/dev/null || true
  done
  if declare -F on_stop >/dev/null; then on_stop; fi
}
stop_all_on_exit() {
  trap stop_all INT TERM HUP EXIT
}

# Waits until every server started here has stopped, saying at once which one stopped by itself, with its exit status
# and log (otherwise a crash or a kill goes unseen until calls fail); the others keep running. Ctrl-C ends the wait.
report_exits() { # what to do about a stopped server (printed after its name)
  local running=("${PIDS[@]}") rest pid other status
  while (( ${#running[@]} )); do
    pid="" status=0
    { wait -n -p pid "${running[@]}"; } 2>/dev/null || status=$? # the line below says it, not bash's "Killed"
    # Interrupted by the trap, or a server ended by SIGINT: the user's Ctrl-C, which stops them all anyway.
    [[ -n "${pid:-}" && -z "$STOPPING" && "$status" -ne 130 ]] || return 0
    echo ">> ${NAMES[$pid]} (pid $pid) stopped with exit status $status; see $DATA/logs/${NAMES[$pid]}.log. $1" >&2
    rest=()
    for other in "${running[@]}"; do [[ "$other" == "$pid" ]] || rest+=("$other"); done
    running=("${rest[@]}")
  done
}

# Waits for an answer at url from our own process: fails when the process exits first or after 60 s.
wait_for() { # url, name (its log is $DATA/logs/<name>.log), pid
  for _ in $(seq 1 120); do
    if curl -s -o /dev/null "$1" && kill -0 "$3" 2>/dev/null; then return 0; fi
    kill -0 "$3" 2>/dev/null || { echo "$2 exited; see $DATA/logs/$2.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "$2 did not start; see $DATA/logs/$2.log" >&2
  exit 1
}

# The embedded backends (Project, Wiki and host APIs) on 127.0.0.1:$LOCAL_PORT, data in $DATA/services (seeded with
# demo data only when local-services creates that directory itself), with the shared service credential.
start_local_services() {
  local credential; credential="$(secret service-credential)"
  echo ">> starting local-services on 127.0.0.1:$LOCAL_PORT (data: $DATA/services)"
  GATEHOUSE_LOCAL_CREDENTIAL="$credential" GATEHOUSE_LOCAL_PORT="$LOCAL_PORT" \
  GATEHOUSE_LOCAL_DATA_DIR="$DATA/services" \
    java -jar "$(built_jar local-services)" >> "$DATA/logs/local-services.log" 2>&1 &
  started local-services
  wait_for "http://127.0.0.1:$LOCAL_PORT/" local-services "${PIDS[-1]}"
}

# A gateway on 127.0.0.1:port in front of local-services, verifying `make bundle`'s bundle, with the admin
# credential and Project Work notices for client gatehouse-local (T3 project demo); returns once /health answers.
start_gateway() { # name (its log is $DATA/logs/<name>.log), port, decision log file name, extra VAR=value...
  local name="$1" port="$2" decisions="$3" service admin_credential
  shift 3
  admin_credential="$(secret admin-credential)"
  local properties=(-Dgatehouse.policy.bundle-path="$BUNDLE" -Dgatehouse.audit.path="$DATA/logs/$decisions"
    -Dgatehouse.notices.enabled=true -Dgatehouse.notices.client-id=gatehouse-local
    -Dgatehouse.notices.host-project=demo)
  for service in host project wiki; do
    properties+=(-Dgatehouse.services.$service.url="http://127.0.0.1:$LOCAL_PORT"
      -Dgatehouse.services.$service.credential-file="$SECRETS/service-credential")
  done
  env GATEHOUSE_ADMIN_CREDENTIAL="$admin_credential" GATEHOUSE_DATA_DIR="$DATA" \
    GATEHOUSE_PORT="$port" GATEHOUSE_PUBLIC_URL="http://127.0.0.1:$port" \
    GATEHOUSE_BUNDLE_VERIFICATION_KEY="${GATEHOUSE_BUNDLE_VERIFICATION_KEY:-$DATA/bundle-signing/public.pem}" "$@" \
    java "${properties[@]}" -jar "$(built_jar gateway)" >> "$DATA/logs/$name.log" 2>&1 &
  started "$name"
  wait_for "http://127.0.0.1:$port/health" "$name" "${PIDS[-1]}"
}

# A call of the admin API of the gateway on port, with the admin credential; fails on an error status.
admin() { # port, method, path, json body
  curl -sf -X "$2" "http://127.0.0.1:$1$3" -H "Authorization: Bearer $(secret admin-credential)" \
    -H 'Content-Type: application/json' -d "$4"
}

# One member of a JSON object read from stdin.
field() { # name
  python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# The demo agent a1's settings and Project Work notice profile, through the admin API of the gateway on port: a1
# takes notices from this environment's Project client (docs/domain.md §9); a thread created for them asks for
# full-access/plan, which the policy caps by the limit auto/default.
configure_demo_agent_a1() { # port, browser access (true|false)
  admin "$1" PUT /admin/agents/a1 '{"browserAccess":'"$2"',"project":{"enabled":true,
    "projectServiceProjectId":"ps-demo"},"wiki":{"read":true,"write":true}}' > /dev/null
  admin "$1" PUT /admin/notices/agents/a1 '{"projectClientId":"gatehouse-local","runtimeMode":"full-access",
    "interactionMode":"plan","limitRuntimeMode":"auto","limitInteractionMode":"default"}' > /dev/null
}
