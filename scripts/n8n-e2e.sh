#!/usr/bin/env bash
# End-to-end tests of the n8n package in a real n8n of one line (installed once into a cache outside the clone by
# scripts/n8n-install.sh). Which n8n: a version argument ($1), or N8N_LINE=1 (1.123.81) / N8N_LINE=2 (2.41.1,
# the default): build the node files, `npm pack`, then
# install it into a throwaway n8n user folder and run every template and per-resource workflow against the emulator.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/ensure-node.sh

case "${N8N_LINE:-2}" in
  1) default_version=1.123.81 ;;
  2) default_version=2.41.1 ;;
  *) echo "n8n-e2e: N8N_LINE must be 1 or 2, got '${N8N_LINE}'" >&2; exit 2 ;;
esac
n8n_version="${1:-$default_version}"
echo "n8n-e2e: against n8n $n8n_version" >&2
export N8N_E2E_VERSION="$n8n_version"
n8n_home="$(bash scripts/n8n-install.sh "$n8n_version")"
node scripts/n8n-build.mjs

pack_dir="$(mktemp -d)"
trap 'rm -rf "$pack_dir"' EXIT
tarball="$pack_dir/$(npm pack --silent --pack-destination "$pack_dir" | tail -n 1)"

node --import tsx scripts/n8n-e2e.ts "$n8n_home" "$tarball" "${@:2}"
