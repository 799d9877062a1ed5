#!/usr/bin/env bash
# `npm start`: provisions Node 24 into .tools/ when the machine's Node is older than 22.12 (scripts/ensure-node.sh;
# nothing happens on Node 22.12+), then runs the local stack (scripts/start.ts) with the arguments given.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Only when needed: ensure-node.sh reports the Node it uses, which would be noise on every start.
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; then
  . scripts/ensure-node.sh
fi
exec node --import tsx scripts/start.ts "$@"
