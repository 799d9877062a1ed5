#!/usr/bin/env bash
# `npm run setup`: the first Quickstart command on a fresh clone. Provisions Node 24 into .tools/ when the machine's
# Node is older than 22.12 (scripts/ensure-node.sh), then installs the dependencies with it, exactly as the lock file
# says (npm ci): some of them (native addons with prebuilt binaries for current Node only, tools that need Node
# 22.12+) do not install on Node 20. .ci/run installs through this script too, so the Quickstart command is tested.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/ensure-node.sh
exec npm ci --no-audit --no-fund "$@"
