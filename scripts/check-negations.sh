#!/usr/bin/env bash
# Fails on `not f(input.…)` in policies/. OPA compiles it as "bind the argument, then negate", so when the input
# field is absent the negation never fires and a rule meant to deny stays silent (docs/design.md, "Decision contract").
# Wrap the call in a named rule (`x if f(input.y)`) and negate the rule instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if grep -rnE '^[^#]*\bnot +[A-Za-z_][A-Za-z0-9_.]*\([^)]*input\.' policies --include='*.rego'; then
  echo "negated call on an input reference (see the comment in scripts/check-negations.sh)"
  exit 1
fi
echo ">> no negated calls on input references"
