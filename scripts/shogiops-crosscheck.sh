#!/usr/bin/env bash
# Cross-check the Chu Shogi move generator against lishogi's shogiops
# (npm shogiops@0.18.0, GPL: a test oracle only, installed into a temporary
# folder and never shipped); then the USI round trip (shogiops-usi.mjs):
# chuzero as a USI engine against shogiops's random moves, every position
# in shogiops's notation and every engine move checked legal by shogiops.
# Usage: scripts/shogiops-crosscheck.sh [games] [seed] [max plies]
# (USI_GAMES, default 6: the round trip's games).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-20}
seed=${2:-1}
maxplies=${3:-400}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "shogiops cross-check: node/npm not found; skipping" >&2
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund shogiops@0.18.0 >/dev/null)
go build -o "$tmp/chuzero" ./cmd/chuzero
node scripts/shogiops-crosscheck.mjs "$tmp" "$tmp/chuzero" "$games" "$seed" "$maxplies"
node scripts/shogiops-usi.mjs "$tmp" "$tmp/chuzero" "${USI_GAMES:-6}" "$seed" 200
