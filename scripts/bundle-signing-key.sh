#!/usr/bin/env bash
# Prints the directory of the local bundle-signing key pair, making it once: an RSA 2048 key (RS256, OPA's default
# signing algorithm) in $GATEHOUSE_DATA_DIR/bundle-signing/ (default .gatehouse-data): private.pem (mode 600,
# used by `make bundle`) and public.pem (the gateway's gatehouse.policy.verification-key, and OPA's
# --verification-key). For local use only; README ("Signed bundles") says how to use a real key.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${GATEHOUSE_DATA_DIR:-.gatehouse-data}/bundle-signing"
if [[ ! -s "$DIR/private.pem" || ! -s "$DIR/public.pem" ]]; then
  mkdir -p "$DIR"
  chmod 700 "$DIR"
  (umask 077; openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$DIR/private.pem" 2>/dev/null)
  openssl pkey -in "$DIR/private.pem" -pubout -out "$DIR/public.pem"
  echo ">> made a local bundle-signing key pair in $DIR" >&2
fi
echo "$DIR"
