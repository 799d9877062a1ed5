#!/usr/bin/env bash
# Issue 18, CI: lints the relay's OpenAPI 3.1 document with Redocly's CLI (a tool others wrote); exits non-zero on
# any lint error. Redocly is fetched at a pinned version by npx so it stays out of the workspace's lock.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ensure-node.sh
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
node scripts/openapi-dump.ts "$out/relay.json"
npx --yes @redocly/cli@2.77.0 lint --format=stylish "$out/relay.json"
