#!/usr/bin/env bash
# Fails when something already listens on the ports `make run` (default) or `make replicas` would use: credentials
# go to those ports, so they must be ours. Run before building (so a second `make run` changes nothing) and again
# by scripts/run.sh and scripts/replicas.sh before they start anything.
set -euo pipefail
# shellcheck source=lib/start.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/start.sh"
case "${1:-run}" in
  run)
    require_free_ports "GATEHOUSE_PORT (gateway, default 8080), GATEHOUSE_LOCAL_PORT (local services, default 8181)\
 and GATEHOUSE_AUTH_PORT (authorization server, default 8282)" \
      "$LOCAL_PORT" "${GATEHOUSE_AUTH_PORT:-8282}" "${GATEHOUSE_PORT:-8080}" ;;
  replicas)
    require_free_ports "GATEHOUSE_PORT (replica A, default 8080), GATEHOUSE_PORT_B (replica B, default 8081),\
 GATEHOUSE_LOCAL_PORT (local services, default 8181) and GATEHOUSE_PG_PORT (PostgreSQL, default 54329)" \
      "$LOCAL_PORT" "${GATEHOUSE_PORT:-8080}" "${GATEHOUSE_PORT_B:-8081}" "${GATEHOUSE_PG_PORT:-54329}" ;;
  *) echo "usage: $0 [run|replicas]" >&2; exit 2 ;;
esac
