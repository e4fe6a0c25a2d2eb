#!/usr/bin/env bash
# make bundle on a broken policy source stops with what is wrong and a non-zero exit, never a Python traceback (a
# Rego syntax error once ended in one from scripts/bundle-source.py's `opa inspect`). Builds copies of policies/ and
# schemas/tools/, each with one fault, with scripts/build-bundle.sh as make bundle does, and checks what it says.
# Usage: OPA=<opa binary> scripts/check-bundle-errors.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
: "${OPA:?set OPA to the opa binary}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# expect <name> <what the output must contain> <command that breaks the copy in $dir>
expect() {
  local name="$1" want="$2" dir="$work/$1"
  mkdir -p "$dir/schemas"
  cp -r "$repo/policies" "$dir/policies"
  cp -r "$repo/schemas/tools" "$dir/schemas/tools"
  (cd "$dir" && eval "$3")
  local rc=0 out
  out="$(OPA="$OPA" "$repo/scripts/build-bundle.sh" -o "$dir/bundle.tar.gz" --revision check \
    --policies "$dir/policies" --schemas "$dir/schemas/tools" 2>&1)" || rc=$?
  if [[ "$rc" == 0 || "$out" == *Traceback* || "$out" != *"$want"* || -e "$dir/bundle.tar.gz" ]]; then
    echo "FAIL $name: exit $rc, expected a non-zero exit, '$want' and no traceback or bundle; it said:"
    echo "$out" | sed 's/^/    /'
    failed=1
  fi
}

expect rego-syntax "rego_parse_error" 'printf "\nallow if {{{\n" >> policies/tools/tools.rego'
expect rego-two-files "rego_parse_error" \
  'printf "\nx if {\n" >> policies/tools/tools.rego; printf "\ny := \n" >> policies/wiki/wiki.rego'
expect rego-compile "rego_unsafe_var_error" 'printf "\nleak if q == 1\n" >> policies/tools/tools.rego'
expect schema-not-json "not JSON" 'f=$(ls schemas/tools/*.input.json | head -1); printf "{\"type\":" > "$f"'
expect schema-not-utf8 "not valid UTF-8" 'f=$(ls schemas/tools/*.input.json | head -1); printf "{\"x\":\"\xff\"}" > "$f"'
expect data-not-json "policies/gatehouse/data.json" 'printf "{" > policies/gatehouse/data.json'
[[ "$failed" == 0 ]] || exit 1
echo ">> a broken policy source stops make bundle with what is wrong, without a traceback"
