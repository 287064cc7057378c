#!/usr/bin/env bash
# Crash test: SIGKILL a training run at random moments, restart it, and
# check the run directory after every kill with "chuzero verify": every
# checkpoint loads, no sample file is damaged, no game is recorded twice,
# the games and the step never go back.
#
#   scripts/killtest.sh [KILLS] [MODE] [DIR]
#
#   KILLS  number of kills (default 20)
#   MODE   train (one "chuzero train") or pair ("chuzero selfplay" and
#          "chuzero trainer" on one directory, both killed each round)
#   DIR    the run directory (default a fresh temporary one)
#
# Environment: MIN_S, MAX_S: the random run time before each kill (default
# 2 and 8 seconds); CONFIG: a run config (default a tiny Sho run).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20} mode=${2:-train}
dir=${3:-$(mktemp -d)/run}
min_s=${MIN_S:-2} max_s=${MAX_S:-8}
case $mode in train | pair) ;; *) echo "killtest: MODE is train or pair" >&2; exit 2 ;; esac

tmp=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
bin=$tmp/chuzero
go build -o "$bin" ./cmd/chuzero
cfg=${CONFIG:-$tmp/tiny.yaml}
if [[ -z ${CONFIG:-} ]]; then
	cat >"$cfg" <<'YAML'
variant: sho
model: {preset: tiny}
selfplay: {games: 4, full_simulations: 8, cheap_simulations: 2, games_per_file: 1, batch: 8, cache: 0}
train: {batch: 32, min_samples: 64, min_games: 2, early_reuse: 8, checkpoint_every: 5, max_reuse: 8, window_min: 500, poll: 200ms, warmup_steps: 5}
eval: {interval: 0s}
YAML
fi
common=(-run "$dir" -config "$cfg" -metrics-addr off -quiet)

last_step=-1 last_games=0
for ((i = 1; i <= kills; i++)); do
	if [[ $mode == train ]]; then
		"$bin" train "${common[@]}" 2>>"$tmp/log" &
	else
		"$bin" selfplay "${common[@]}" -seed "$i" 2>>"$tmp/log" &
		"$bin" trainer "${common[@]}" 2>>"$tmp/log" &
	fi
	sleep "$(awk -v a="$min_s" -v b="$max_s" -v s="$RANDOM" 'BEGIN {srand(s); printf "%.2f", a + rand() * (b - a)}')"
	kill -9 $(jobs -p)
	wait 2>/dev/null || true
	out=$("$bin" verify -run "$dir" -json) || { echo "round $i: verify failed:"; echo "$out"; exit 1; }
	step=$(grep '"last_step"' <<<"$out" | tr -dc '0-9-')
	games=$(grep '"games"' <<<"$out" | tr -dc '0-9')
	unpaired=$(grep '"unpaired"' <<<"$out" | tr -dc '0-9')
	echo "round $i: step $step, $games games, $unpaired unpaired files"
	if ((step < last_step || games < last_games)); then
		echo "round $i: went back (step $last_step -> $step, games $last_games -> $games)"
		exit 1
	fi
	last_step=$step last_games=$games
done
echo "killtest: $kills kills of $mode, every restart sound: step $last_step, $last_games games in $dir"
