#!/usr/bin/env bash
# The learning probe of a run: is it learning, and what part of it? For a
# few of its checkpoints (the first, evenly spaced ones, the latest) it
# prints `chuzero probe` (the policy's sharpness and its agreement with the
# search targets and the capture search, the value's calibration, the share
# of decisive self-play games) and then one table of colour-swapped matches
# that each isolate one part of what the network learned:
#
#   raw policy      the policy alone (1 playout, no capture value) against greedy
#   raw vs first    the same against the first checkpoint's raw policy
#   net vs first    the network alone (qs=0) against the first one alone
#   prior vs none   the learned prior with the capture value (qs=1) against
#                   uniform priors with the same value (material,qs=1)
#   blend vs first  the match blend against the first checkpoint at SIMS and,
#                   for the latest, at DEEP_SIMS playouts
#   wide vs first   the latest at the match blend with every root move visited
#                   (wide: the prior orders the root but cannot narrow it)
#                   against the first checkpoint as it plays
#   equal time      the latest against material,qs=1 at MOVETIME a move each:
#                   does the network earn its cost?
#
#   scripts/learning.sh RUN_DIR
#
# Environment: POINTS checkpoints (3) or STEPS (a list, e.g. "0 800 1600":
# these checkpoints, the first as the reference), GAMES a pair (12), SIMS playouts (64),
# DEEP_SIMS (256) and DEEP_GAMES (8) for the deeper match, MOVETIME (50ms),
# CONCURRENCY (2),
# CHUZERO a built binary (default: built from this checkout). Written to
# RUN_DIR/learning.txt; the games to RUN_DIR/learning/. A 60-minute Sho run
# takes about 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib.sh

[[ $# -eq 1 ]] || usage 30
run=$1
points=${POINTS:-3} games=${GAMES:-12} sims=${SIMS:-64} conc=${CONCURRENCY:-2}
deep=${DEEP_SIMS:-256} deep_games=${DEEP_GAMES:-8} movetime=${MOVETIME:-50ms}
variant=$(run_variant "$run")
for v in points games sims deep deep_games conc; do
	if ! [[ ${!v} =~ ^[1-9][0-9]*$ ]]; then
		echo "learning.sh: $v must be a positive number, not ${!v}" >&2
		exit 2
	fi
done
chuzero_bin
out=$run/learning.txt
dir=$run/learning
mkdir -p "$dir"
start=$(date +%s)

read -r -a refs <<<"${STEPS:-}"
if ! "$bin" probe -run "$run" -points "$points" -out "$dir/probe.txt" "${refs[@]}" >/dev/null 2>"$dir/probe.log"; then
	echo "learning.sh: chuzero probe failed:" >&2
	cat "$dir/probe.log" >&2
	exit 1
fi
mapfile -t steps < <(awk '$1 == "network" { for (i = 2; i <= NF; i++) { s = $i; sub(/^step-0*/, "", s); print (s == "" ? 0 : s) } }' "$dir/probe.txt")
first=${steps[0]} latest=${steps[-1]}

# match LABEL STEP BUDGET GAMES PLAYER OPPONENT: one colour-swapped match, one
# row; BUDGET is the playouts (or a time, which the players' time= give).
match() {
	local label=$1 step=$2 n=$3 g=$4 p=$5 o=$6 res row ms flag=$3
	[[ $n =~ ^[0-9]+$ ]] || flag=$sims
	res=$dir/$(tr -c 'a-z0-9\n' '-' <<<"$label-$step-$n" | tr -d '\n')
	row=$("$bin" arena -run "$run" -variant "$variant" -gauntlet -games "$g" -sims "$flag" -concurrency "$conc" \
		-quiet -metrics-addr off -out "$res" "$p,name=a" "$o,name=b" 2>>"$dir/arena.log" | pair_row /dev/stdin)
	if [[ -z $row ]]; then
		echo "learning.sh: no result for $label at step $step (see $dir/arena.log)" >&2
		exit 1
	fi
	read -r _ _ gm w d l score elo interval <<<"$row"
	ms=$(awk -v s="$(mean_move_seconds "$res/results.json")" 'BEGIN { printf "%.1f", s * 1000 }')
	printf '%-15s %-7s %-5s %-5s %-9s %-7s %-6s %-14s %s\n' "$label" "$step" "$n" "$gm" "$w-$d-$l" "$score" "$elo" "$interval" "$ms" | tee -a "$out"
}

{
	cat "$dir/probe.txt"
	echo
	echo "matches of $run ($variant): $games games a pair, colour-swapped; the checkpoint first (a), its opponent second"
	printf '%-15s %-7s %-5s %-5s %-9s %-7s %-6s %-14s %s\n' match step sims games W-D-L score Elo "95% interval" "ms/move(a)"
} >"$out"
cat "$out"
for s in "${steps[@]}"; do
	match "raw policy" "$s" 1 "$games" "$s,sims=1,qs=0" greedy
	match "prior vs none" "$s" "$sims" "$games" "$s,qs=1" "material,qs=1"
	[[ $s == "$first" ]] && continue
	match "raw vs first" "$s" 1 "$games" "$s,sims=1,qs=0" "$first,sims=1,qs=0"
	match "net vs first" "$s" "$sims" "$games" "$s,qs=0" "$first,qs=0"
	match "blend vs first" "$s" "$sims" "$games" "$s" "$first"
done
if [[ $latest != "$first" ]]; then
	match "wide vs first" "$latest" "$sims" "$games" "$latest,wide" "$first"
	match "blend vs first" "$latest" "$deep" "$deep_games" "$latest" "$first"
fi
match "equal time" "$latest" "$movetime" "$games" "$latest,time=$movetime" "material,qs=1,time=$movetime"
echo "($(($(date +%s) - start)) s; table: $out)" | tee -a "$out"
