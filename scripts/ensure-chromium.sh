#!/usr/bin/env bash
# Prints the path of a Chromium for the browser tests, installing Debian's `chromium` package when none is found.
# playwright-core drives it through executablePath (`npx playwright install` downloads its own browser from a host
# these machines cannot reach). CHROMIUM_PATH, when set, wins. CI runs as root; elsewhere sudo is used if present.
set -euo pipefail

find_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; return 0; fi
  command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || return 1
}

if path="$(find_chromium)"; then
  echo "$path"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "ensure-chromium: no chromium found and not root: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium package (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >&2
"${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium >&2
find_chromium || { echo "ensure-chromium: apt-get installed chromium but it is not on PATH" >&2; exit 1; }
