#!/usr/bin/env bash
# The strength benchmark: a fresh training run on the defaults for a fixed
# time, then a gauntlet of its last checkpoint against fixed anchors, with
# the table printed and written, with a plot, into the run's report.
#
#   scripts/strength.sh VARIANT DURATION [RUN_DIR]
#
#   VARIANT   chu, sho or heian
#   DURATION  training time (Go duration: 20m, 1h); 0 evaluates RUN_DIR as it is
#   RUN_DIR   default runs/strength-VARIANT-<UTC time>; must not exist unless DURATION is 0
#
# Environment: GAMES per anchor (40, colour-swapped pairs), SIMS playouts per
# move of the checkpoints (64), CONCURRENCY games at once (2), CONFIG a
# config file for the training run (an ablation; give it "eval: {interval:
# 0s}" too; default: the embedded defaults with evaluation off),
# ANCHORS to replace the default list (arena player specs), PLAYER the
# run's player spec (latest; e.g. latest,utility=1 for a run that searched
# with selfplay.material_utility 1). The anchors:
# the run's first checkpoint, greedy, alpha-beta at depths 1 and 2, and
# HaChu at depth 1 for Chu when Debian's hachu is installed. Training runs
# with periodic evaluation off, so the whole budget goes to learning, and
# keep every checkpoint (scripts/curve.sh RUN_DIR plays them for the
# learning curve). The table ends with scripts/valueprobe.sh's material
# probe of the checkpoint.
#
# Then, unless EQUAL_TIME=0, the gauntlet at equal time per move: the
# player at its own budget against alpha-beta given the player's mean time
# per move in the first gauntlet (ab,time=T), and in Chu against HaChu at
# HACHU_TIME per move (1s); every player's mean time per move is printed.
# The training's CPU share (CPU seconds over wall seconds, of the
# machine's cores) is written to RUN_DIR/strength-train.cpu and the table.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/games # Debian installs hachu there

. scripts/lib.sh

[[ $# -ge 2 && $# -le 3 ]] || usage 31
variant=$1 duration=$2
run=${3:-runs/strength-$variant-$(date -u +%Y%m%d-%H%M%S)}
games=${GAMES:-40} sims=${SIMS:-64} conc=${CONCURRENCY:-2} player=${PLAYER:-latest}

bin=$(mktemp -d)/chuzero
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/chuzero

if [[ $duration != 0 ]]; then
	if [[ -e $run ]]; then
		echo "strength.sh: $run exists; the benchmark trains from scratch (use DURATION 0 to evaluate it)" >&2
		exit 2
	fi
	mkdir -p "$run"
	cfg=${CONFIG:-$run/strength-train.yaml}
	if [[ -z ${CONFIG:-} ]]; then
		# every checkpoint kept, for scripts/curve.sh (pruning changes no training)
		printf 'eval:\n  interval: 0s\ntrain:\n  keep_last: 100000\n' >"$cfg"
	fi
	args=(train -variant "$variant" -run "$run" -duration "$duration" -metrics-addr off -config "$cfg")
	echo "== training $variant for $duration in $run"
	/usr/bin/time -o "$run/strength-train.time" -f '%e %U %S' "$bin" "${args[@]}" 2>&1 |
		tee "$run/strength-train.log" | grep -E 'training run|stopped|error' || true
	read -r wall user sys <"$run/strength-train.time"
	awk -v w="$wall" -v u="$user" -v s="$sys" -v n="$(nproc)" 'BEGIN {
		printf "training CPU: %.0f s in %.0f s of wall time: %.2f of %d cores (%.0f%%)\n", u+s, w, (u+s)/w, n, 100*(u+s)/w/n }' |
		tee "$run/strength-train.cpu"
fi

if [[ -n ${ANCHORS:-} ]]; then
	read -r -a anchors <<<"$ANCHORS"
else
	# shellcheck disable=SC2054 # commas inside a player spec, not between elements
	anchors=(0,name=first greedy ab,depth=1 ab,depth=2)
	if [[ $variant == chu ]] && command -v hachu >/dev/null; then
		anchors+=("hachu,depth=1")
	fi
fi
out=$run/strength
rm -rf "$out"
echo "== gauntlet: $player against ${anchors[*]}, $games games each at $sims playouts"
"$bin" arena -run "$run" -variant "$variant" -gauntlet -games "$games" -sims "$sims" -concurrency "$conc" \
	-quiet -out "$out" "$player" "${anchors[@]}" | tee "$out.txt"
mv "$out.txt" "$out/table.txt"
echo "beyond the rules: $(knowledge "$run")" | tee -a "$out/table.txt"
if [[ -f $run/strength-train.cpu ]]; then
	cat "$run/strength-train.cpu" >>"$out/table.txt"
fi
if [[ ${EQUAL_TIME:-1} == 1 ]]; then
	secs=$(mean_move_seconds "$out/results.json")
	if [[ -n $secs ]]; then
		per=$(awk -v s="$secs" 'BEGIN { printf "%dus", s*1e6 + 0.5 }')
		timed=("ab,time=$per,name=ab-$per")
		if [[ $variant == chu ]] && command -v hachu >/dev/null; then
			timed+=("hachu,time=${HACHU_TIME:-1s}")
		fi
		echo "== gauntlet at equal time: $player ($secs s a move) against ${timed[*]}"
		"$bin" arena -run "$run" -variant "$variant" -gauntlet -games "$games" -sims "$sims" -concurrency "$conc" \
			-quiet -out "$out/equal-time" "$player" "${timed[@]}" | tee "$out/equal-time.txt"
		{ echo; echo "at equal time per move:"; cat "$out/equal-time.txt"; } >>"$out/table.txt"
	fi
fi
CHUZERO=$bin scripts/valueprobe.sh "$run" | tee -a "$out/table.txt" || echo "strength.sh: the value probe failed" >&2
"$bin" report -run "$run" >/dev/null
echo "table: $out/table.txt; report: $run/report/index.html (strength.png)"
