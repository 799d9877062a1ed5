#!/usr/bin/env bash
# End-to-end tests of the n8n package in a real n8n 2.41.1 (installed once into a cache outside the clone by
# scripts/n8n-install.sh): build the node files, `npm pack`, then
# install it into a throwaway n8n user folder and run every template and per-resource workflow against the emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ensure-node.sh

n8n_home="$(bash scripts/n8n-install.sh)"
node scripts/n8n-build.mjs

pack_dir="$(mktemp -d)"
trap 'rm -rf "$pack_dir"' EXIT
tarball="$pack_dir/$(npm pack --silent --pack-destination "$pack_dir" | tail -n 1)"

node --import tsx scripts/n8n-e2e.ts "$n8n_home" "$tarball"
