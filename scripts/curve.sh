#!/usr/bin/env bash
# The learning curve of a run: its kept checkpoints, each against one fixed
# opponent (greedy by default), GAMES games in colour-swapped pairs at SIMS
# playouts, printed with each checkpoint's training time so that the table
# reads as strength against compute. The benchmark's runs
# (scripts/strength.sh) keep every checkpoint for this.
#
#   scripts/curve.sh RUN_DIR [OPPONENT]
#
#   RUN_DIR   a run directory (its config.json gives the variant)
#   OPPONENT  an arena player spec (default greedy; ab,depth=1, hachu,depth=1, ...)
#
# Environment: POINTS, how many checkpoints, evenly spaced by step from the
# first to the last (6); GAMES (40), SIMS (64), CONCURRENCY (2); CHUZERO a
# built binary (default: built from this checkout). The time of a
# checkpoint is its file's age against step 0's, in minutes (a resumed run
# counts the pause too). The table is also written to RUN_DIR/curve.txt,
# the games to RUN_DIR/curve/step-N, the arena's log to RUN_DIR/curve/arena.log.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/games # Debian installs hachu there

. scripts/lib.sh

[[ $# -ge 1 && $# -le 2 ]] || usage 18
run=$1 opp=${2:-greedy}
points=${POINTS:-6} games=${GAMES:-40} sims=${SIMS:-64} conc=${CONCURRENCY:-2}
variant=$(run_variant "$run")
mapfile -t steps < <(ls "$run/checkpoints" | sed -n 's/^step-0*\([0-9][0-9]*\)\.ckpt$/\1/p' | sort -n)
if [[ ${#steps[@]} -eq 0 ]]; then
	echo "curve.sh: no checkpoints in $run/checkpoints" >&2
	exit 2
fi
if ! [[ $points =~ ^[1-9][0-9]*$ ]]; then
	echo "curve.sh: POINTS must be a positive number, not $points" >&2
	exit 2
fi
chuzero_bin

# chosen picks POINTS steps evenly spaced by step among the kept ones (the
# nearest kept one to each target), always the first and the last.
chosen() {
	local first=${steps[0]} last=${steps[-1]} k target best s
	for ((k = 0; k < points; k++)); do
		if ((points == 1)); then target=$last; else target=$((first + (last - first) * k / (points - 1))); fi
		best=${steps[0]}
		for s in "${steps[@]}"; do
			if (((s > target ? s - target : target - s) < (best > target ? best - target : target - best))); then best=$s; fi
		done
		echo "$best"
	done | uniq
}

file() { printf '%s/checkpoints/step-%09d.ckpt' "$run" "$1"; }
t0=$(stat -c %Y "$(file "${steps[0]}")")
out=$run/curve.txt
mkdir -p "$run/curve"
{
	echo "learning curve of $run ($variant) against $opp, $games games each at $sims playouts"
	printf '%-8s %-8s %-6s %-5s %-6s %-6s %-7s %-6s %s\n' step minutes games wins draws losses score Elo "95% interval"
} | tee "$out"
for s in $(chosen); do
	min=$((($(stat -c %Y "$(file "$s")") - t0) / 60))
	# the one pair row of a two-player gauntlet, from the checkpoint's side
	row=$("$bin" arena -run "$run" -variant "$variant" -gauntlet -games "$games" -sims "$sims" \
		-concurrency "$conc" -quiet -metrics-addr off -out "$run/curve/step-$s" "$s" "$opp" 2>>"$run/curve/arena.log" |
		pair_row /dev/stdin)
	if [[ -z $row ]]; then
		echo "curve.sh: no result for step $s" >&2
		exit 1
	fi
	read -r _ _ g w d l score elo interval <<<"$row"
	printf '%-8s %-8s %-6s %-5s %-6s %-6s %-7s %-6s %s\n' "$s" "$min" "$g" "$w" "$d" "$l" "$score" "$elo" "$interval" | tee -a "$out"
done
echo "table: $out"
