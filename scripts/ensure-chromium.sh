#!/usr/bin/env bash
# Makes sure a headless Chromium and its WebDriver are on PATH for the browser tests (cli MatrixPageBrowserTest, the
# console's ConsoleBrowserIT). Idempotent: does nothing when `chromium` and `chromedriver` are already there;
# otherwise installs Debian's chromium and chromium-driver packages (apt-get needs root, as on the project's machines
# and CI). Prints the browser's version.
#
# Another apt or dpkg run (an unattended upgrade, a second test run installing at the same time) may hold the
# package locks: this waits for them, at most APT_LOCK_WAIT seconds (default 600), instead of failing at once.
# apt-get waits for dpkg's lock itself (DPkg::Lock::Timeout) but not for the package lists' or the download
# cache's, so a command refused for a held lock is run again until the wait is over.
set -euo pipefail
APT_LOCK_WAIT="${APT_LOCK_WAIT:-600}"

apt_get() { # apt-get arguments...
  local deadline=$((SECONDS + APT_LOCK_WAIT)) out
  until out="$(apt-get -o DPkg::Lock::Timeout="$APT_LOCK_WAIT" "$@" 2>&1)"; do
    if grep -qE "Could not get lock|Unable to acquire the dpkg frontend lock" <<< "$out" \
        && (( SECONDS < deadline )); then
      echo ">> apt-get $1: another apt or dpkg holds the lock; waiting" >&2
      sleep 5
      continue
    fi
    echo "$out" >&2
    return 1
  done
}

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium or chromedriver is missing and cannot be installed here (needs root and apt-get):" \
      "install Debian's chromium and chromium-driver" >&2
    exit 1
  fi
  echo ">> installing chromium and chromium-driver (Debian packages) for the browser tests"
  export DEBIAN_FRONTEND=noninteractive
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
chromium --version
