#!/usr/bin/env bash
# Makes sure the Debian packages the real-VS Code tooling needs are present:
#   chromium     the browser Playwright drives (e2e tests, render tests)
#   libkrb5-dev  headers for code-server's native `kerberos` module
#   build-essential, python3  node-gyp builds code-server's native modules
#   fonts-noto-color-emoji  emoji in replies render as emoji, not boxes, in Chromium
# Idempotent and silent when everything is present. As root it installs what is
# missing (apt-get update first); otherwise it prints the one command to run and
# exits non-zero.
set -euo pipefail

missing=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

command -v chromium >/dev/null 2>&1 || missing+=(chromium)
have_pkg libkrb5-dev || missing+=(libkrb5-dev)
{ command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1; } || missing+=(build-essential)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
have_pkg fonts-noto-color-emoji || missing+=(fonts-noto-color-emoji)

[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing system packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  exit 0
fi
echo "Missing system packages: ${missing[*]}. Run as root: sudo sh -c '$cmd'" >&2
exit 1
