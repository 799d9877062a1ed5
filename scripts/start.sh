#!/usr/bin/env bash
# `npm start`: provisions Node 24 into .tools/ when the machine's Node is older than 22.12 (scripts/ensure-node.sh;
# nothing happens on Node 22.12+), then runs the local stack (scripts/start.ts) with the arguments given.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/ensure-node.sh
exec node --import tsx scripts/start.ts "$@"
