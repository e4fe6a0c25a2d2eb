#!/usr/bin/env bash
# Fails when something already listens on the ports `make run` would use: credentials go to those ports, so they
# must be ours. Run before building (so a second `make run` changes nothing) and again by scripts/run.sh.
set -euo pipefail
for port in "${GATEHOUSE_LOCAL_PORT:-8181}" "${GATEHOUSE_AUTH_PORT:-8282}" "${GATEHOUSE_PORT:-8080}"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "127.0.0.1:$port is already in use (another make run?). Stop it, or choose other ports with" \
      "GATEHOUSE_PORT (gateway, default 8080), GATEHOUSE_LOCAL_PORT (local services, default 8181) and GATEHOUSE_AUTH_PORT (authorization server, default 8282)." >&2
    exit 1
  fi
done
