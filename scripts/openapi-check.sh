#!/usr/bin/env bash
# Issue 18, CI: lints the relay's and the emulator's OpenAPI documents (3.1, and the 3.0 rendering of each) with
# Redocly's CLI (a tool others wrote); exits non-zero on any lint error. Redocly is fetched at a pinned version by
# npx so it stays out of the workspace's lock.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ensure-node.sh
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
node scripts/openapi-dump.ts "$out"
npx --yes @redocly/cli@2.77.0 lint --format=stylish "$out"/relay-3.1.json "$out"/relay-3.0.json "$out"/service-3.1.json "$out"/service-3.0.json
# The TypeScript client's types (test/openapi/relay-api.d.ts) are generated from the relay's document by
# openapi-typescript; regenerate them and fail when the committed file is stale.
npx --yes openapi-typescript@7.13.0 "$out"/relay-3.1.json -o "$out"/relay-api.d.ts >/dev/null
if ! diff -q "$out"/relay-api.d.ts test/openapi/relay-api.d.ts >/dev/null; then
  echo "openapi-check: test/openapi/relay-api.d.ts is stale: run" >&2
  echo "  node scripts/openapi-dump.ts /tmp && npx openapi-typescript@7.13.0 /tmp/relay-3.1.json -o test/openapi/relay-api.d.ts" >&2
  exit 1
fi
