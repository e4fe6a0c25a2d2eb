#!/usr/bin/env bash
# Makes sure a headless Chromium is on PATH for the matrix page's browser test (cli MatrixPageBrowserTest).
# Idempotent: does nothing when `chromium` is already there; otherwise installs Debian's chromium package
# (apt-get needs root, as on the project's machines and CI). Prints the browser's version.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium is missing and cannot be installed here (needs root and apt-get): install Debian's chromium" >&2
    exit 1
  fi
  echo ">> installing chromium (Debian package) for the matrix page's browser test"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
chromium --version
