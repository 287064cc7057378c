#!/usr/bin/env bash
# Restart memory: the peak resident memory of a "chuzero trainer" that
# restarts on a run directory holding ten times its replay window of
# samples, against the same trainer on a directory holding one window
# (the steady state), and against the same ten windows with the window
# raised to hold them all (what a loader that reads the whole directory
# holds). Each trainer takes STEPS training steps and stops.
#
#   scripts/restartmem.sh [VARIANT] [WINDOW]   (default sho 2000)
#
# The samples come from "chuzero selfplay" of the tiny network (fast; the
# trainer trains the same tiny network, so the samples are a large part
# of its memory). Environment: STEPS (20), GAMES (self-play games, enough
# for ten windows; default WINDOW/4).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-sho} window=${2:-2000} steps=${STEPS:-20}
games=${GAMES:-$((window / 4))}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/chuzero
go build -o "$bin" ./cmd/chuzero

# config W: a tiny run whose window is W samples, every file kept
config() {
	cat >"$tmp/w$1.yaml" <<YAML
variant: $variant
model: {preset: tiny}
selfplay: {full_simulations: 8, cheap_simulations: 2, games_per_file: 1}
train: {batch: 64, min_samples: 64, min_games: 1, window_min: $1, window_max: $1, keep_sample_files: true}
eval: {interval: 0s}
YAML
	echo "$tmp/w$1.yaml"
}
echo "== self-play: $games games of the tiny network"
"$bin" selfplay -run "$tmp/ten" -config "$(config "$window")" -max-games "$games" -metrics-addr off -quiet >/dev/null 2>&1
samples=$("$bin" verify -run "$tmp/ten" -json | grep '"samples"' | tr -dc '0-9')
# one window: the newest files holding about WINDOW samples
mkdir -p "$tmp/one"
cp "$tmp/ten/config.json" "$tmp/one/"
cp -r "$tmp/ten/checkpoints" "$tmp/one/" 2>/dev/null || true
mkdir -p "$tmp/one/samples" "$tmp/one/games"
keep=$(((games * window + samples - 1) / samples))
for f in $(find "$tmp/ten/samples" -maxdepth 1 -type f ! -name 'pruned*' -printf '%f\n' | sort | tail -n "$keep"); do
	cp "$tmp/ten/samples/$f" "$tmp/one/samples/"
	cp "$tmp/ten/games/${f%.samples}.jsonl" "$tmp/one/games/"
done
cp -r "$tmp/ten" "$tmp/all"

# peak RSS (MiB) of a trainer on directory $1 with config $2
peak() {
	/usr/bin/time -o "$tmp/time" -f '%M' "$bin" trainer -run "$1" -config "$2" -max-steps "$steps" -metrics-addr off -quiet >/dev/null 2>&1
	echo $(($(cat "$tmp/time") / 1024))
}
one=$(peak "$tmp/one" "$tmp/w$window.yaml")
ten=$(peak "$tmp/ten" "$tmp/w$window.yaml")
all=$(peak "$tmp/all" "$(config $((samples + window)))")
echo "$variant, tiny network, window $window samples; the directory holds $samples samples ($((samples / window)) windows)"
echo "peak RSS: one window $one MiB (steady state); ten windows $ten MiB (the window bounds the load); ten windows, all loaded $all MiB"
