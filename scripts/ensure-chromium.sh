#!/usr/bin/env bash
# Makes sure a headless Chromium and its WebDriver are on PATH for the browser tests (cli MatrixPageBrowserTest, the
# console's ConsoleBrowserIT). Idempotent: does nothing when `chromium` and `chromedriver` are already there;
# otherwise installs Debian's chromium and chromium-driver packages (apt-get needs root, as on the project's machines
# and CI). Prints the browser's version.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium or chromedriver is missing and cannot be installed here (needs root and apt-get):" \
      "install Debian's chromium and chromium-driver" >&2
    exit 1
  fi
  echo ">> installing chromium and chromium-driver (Debian packages) for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
chromium --version
