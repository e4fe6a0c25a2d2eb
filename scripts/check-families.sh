#!/usr/bin/env bash
# Every policy family policies/<f>/<f>.rego has unit tests policy-tests/<f>/<f>_test.rego and golden cases
# policy-tests/golden/<f>/cases.json (style card 11). Prints what is missing and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
for rego in policies/*/*.rego; do
  family=$(basename "$(dirname "$rego")")
  for need in "policy-tests/$family/${family}_test.rego" "policy-tests/golden/$family/cases.json"; do
    if [ ! -s "$need" ]; then echo "policy family '$family' lacks $need"; missing=1; fi
  done
done
[ "$missing" -eq 0 ] && echo ">> every policy family has unit tests and golden cases"
exit "$missing"
