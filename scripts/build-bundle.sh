#!/usr/bin/env bash
# Builds one policy bundle from its staged source (scripts/bundle-source.py: the policies, every tool input schema
# and the reason catalogue), so the Makefile, the benches and the tests build bundles one way.
#
# Usage: OPA=<opa binary> scripts/build-bundle.sh -o <out.tar.gz> [--wasm] [--policies DIR] [--schemas DIR]
#          [--revision REV] [-- <more opa build options, e.g. --signing-key K --claims-file F or -e entrypoints>]
# --wasm builds `-t wasm` with scripts/wasm-capabilities.json. Without --revision the revision is
# scripts/source-revision.sh's. The files are named policies/… in the bundle whatever DIR is called, and the
# bundle is written beside <out> and moved into place, so a watching gateway never reads half a file.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
opa="${OPA:?set OPA to the opa binary}"
out="" wasm=0 policies="$repo/policies" schemas="$repo/schemas/tools" revision="" extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    --wasm) wasm=1; shift ;;
    --policies) policies="$2"; shift 2 ;;
    --schemas) schemas="$2"; shift 2 ;;
    --revision) revision="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "build-bundle.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n "$out" ]] || { echo "build-bundle.sh: -o <out> is required" >&2; exit 2; }
[[ -n "$revision" ]] || revision="$("$repo/scripts/source-revision.sh")"
# Relative paths are the caller's: resolved here, before the staging below changes directory.
out="$(realpath -m "$out")" policies="$(realpath "$policies")" schemas="$(realpath "$schemas")"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
(cd "$repo/scripts" && python3 bundle-source.py "$opa" "$stage/policies" --policies "$policies" \
  --schemas "$schemas" >/dev/null)
options=(build -b policies --revision "$revision" -o "$out.tmp")
if [[ "$wasm" == 1 ]]; then options+=(-t wasm --capabilities "$repo/scripts/wasm-capabilities.json"); fi
(cd "$stage" && "$opa" "${options[@]}" "${extra[@]}")
mv -f "$out.tmp" "$out"
