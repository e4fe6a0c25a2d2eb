#!/usr/bin/env bash
# Prints a revision for the policy bundle: the SHA-256 of every file it is staged from (policies/ and the tool
# input schemas, scripts/bundle-source.py), in path order.
set -euo pipefail
cd "$(dirname "$0")/.."
find policies schemas/tools -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64
