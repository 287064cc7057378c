#!/usr/bin/env bash
# A paired ablation: every arm (a config of scripts/ablations/) trains at
# the same time on this machine from the same step-0 network (the
# network's seed is the run config's, the same in every arm), each arm
# then plays the strength benchmark's gauntlet (scripts/strength.sh), and
# each arm after the first meets the first head to head. One table of it
# all is printed and written to OUT_DIR/ablation.txt.
#
#   scripts/ablate.sh VARIANT DURATION OUT_DIR ARM ARM...
#
#   VARIANT   chu, sho or heian
#   DURATION  training time of every arm, all at once (each arm gets about
#             1/N of the cores); 0 evaluates OUT_DIR's arms as they are
#   OUT_DIR   holds one run directory per arm, OUT_DIR/ARM; they must not
#             exist unless DURATION is 0
#   ARM       an ablation config: NAME for scripts/ablations/NAME.yaml, or
#             a path to a YAML file; the first arm is the baseline. Player
#             options after a comma (minimax,mm=0.5) are that arm's own,
#             after PLAYER's, in its gauntlet and its side of the head to
#             head: an arm whose self-play searched otherwise plays so
#
# Environment: GAMES per pair (40), SIMS playouts per move (64),
# CONCURRENCY games at once in each arena (2), ANCHORS the gauntlet's
# anchors ("greedy ab,depth=2"; "default" for strength.sh's full list),
# PLAYER the arms' player spec (latest; options after it, such as
# latest,qs=0.5, apply to the head-to-heads too), EQUAL_TIME (0; 1 adds
# strength.sh's equal-time gauntlet, whose time budget is then measured
# while the other arms' gauntlets run). With DURATION 0 an arm's gauntlet
# that exists (OUT_DIR/ARM/strength/table.txt) is kept: delete it to play
# it again; so is a finished head-to-head (OUT_DIR/h2h-ARM.txt). Head-to-
# head games go to OUT_DIR/h2h-ARM.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/games

. scripts/lib.sh

[[ $# -ge 5 ]] || usage 27
variant=$1 duration=$2 out=$3
shift 3
games=${GAMES:-40} sims=${SIMS:-64} conc=${CONCURRENCY:-2} player=${PLAYER:-latest}
anchors=${ANCHORS:-greedy ab,depth=2}
[[ $anchors == default ]] && anchors=
[[ $player == latest* ]] || { echo "ablate.sh: PLAYER must start with latest, not $player" >&2; exit 2; }
popts=${player#latest}

names=() configs=() aopts=()
for arg in "$@"; do
	a=${arg%%,*} o=
	[[ $arg == *,* ]] && o=,${arg#*,}
	if [[ $a == */* || $a == *.yaml ]]; then cfg=$a; else cfg=scripts/ablations/$a.yaml; fi
	[[ -f $cfg ]] || { echo "ablate.sh: arm $a: $cfg not found" >&2; exit 2; }
	n=$(basename "$cfg" .yaml)
	for m in "${names[@]}"; do
		[[ $m != "$n" ]] || { echo "ablate.sh: arm $n given twice" >&2; exit 2; }
	done
	names+=("$n") configs+=("$cfg") aopts+=("$o")
	if [[ $duration != 0 && -e $out/$n ]]; then
		echo "ablate.sh: $out/$n exists; the arms train from scratch (use DURATION 0 to evaluate them)" >&2
		exit 2
	fi
done
mkdir -p "$out"
chuzero_bin

# The arms, all at once: each strength.sh trains its arm, then plays its
# gauntlet (fixed playouts: the others' load changes no result).
pids=()
for i in "${!names[@]}"; do
	n=${names[$i]} dir=$out/${names[$i]}
	if [[ $duration == 0 && -f $dir/strength/table.txt ]]; then
		echo "== $n: keeping $dir/strength/table.txt"
		continue
	fi
	echo "== $n: scripts/strength.sh $variant $duration $dir (config ${configs[$i]}), log $out/$n.out"
	CONFIG=${configs[$i]} ANCHORS=$anchors PLAYER=$player${aopts[$i]} EQUAL_TIME=${EQUAL_TIME:-0} \
		GAMES=$games SIMS=$sims CONCURRENCY=$conc scripts/strength.sh "$variant" "$duration" "$dir" >"$out/$n.out" 2>&1 &
	pids+=("$!:$n")
done
failed=0
for p in "${pids[@]}"; do
	if ! wait "${p%%:*}"; then
		echo "ablate.sh: arm ${p#*:} failed; see $out/${p#*:}.out" >&2
		failed=1
	fi
done
((failed == 0)) || exit 1

# latest prints the file name of run directory $1's last checkpoint.
latest() {
	local f last=
	for f in "$1"/checkpoints/step-*.ckpt; do [[ -f $f ]] && last=$(basename "$f"); done
	echo "$last"
}
# cell formats an arena row as "score (won, drawn, lost; Elo [interval])".
cell() {
	local _p _o _g w d l score elo lo hi
	read -r _p _o _g w d l score elo lo hi <<<"$1"
	echo "$score ($w, $d, $l; $elo $lo $hi)"
}

base=${names[0]} basedir=$out/${names[0]}
for i in "${!names[@]}"; do
	((i > 0)) || continue
	n=${names[$i]}
	if [[ $duration == 0 && -n $(pair_row "$out/h2h-$n.txt" "$base" 2>/dev/null) ]]; then
		echo "== $n: keeping $out/h2h-$n.txt"
		continue
	fi
	echo "== head to head: $n against $base, $games games at $sims playouts"
	"$bin" arena -variant "$variant" -gauntlet -games "$games" -sims "$sims" -concurrency "$conc" -quiet \
		-metrics-addr off -out "$out/h2h-$n" "$out/$n/checkpoints/$(latest "$out/$n")$popts${aopts[$i]},name=$n" \
		"$basedir/checkpoints/$(latest "$basedir")$popts${aopts[0]},name=$base" | tee "$out/h2h-$n.txt"
done

# The table: one row per arm.
read -r -a cols <<<"$(awk '$1 == "player" && $2 == "opponent" { f = 1; next } f && $7 ~ /%$/ { printf "%s ", $2; next } f { exit }' "$basedir/strength/table.txt")"
{
	echo "paired ablation ($variant): $*, trained at once from one step-0 network; $games games a pair at $sims playouts ($player)"
	head="| arm | beyond the rules | games | steps | training CPU |"
	for c in "${cols[@]}"; do head+=" vs $c |"; done
	echo "$head vs $base |"
	echo "|$(printf ' --- |%.0s' $(seq $((6 + ${#cols[@]}))))"
	for n in "${names[@]}"; do
		dir=$out/$n
		gs=$(sed -n 's/^stopped at step [0-9]*; \([0-9]*\) games.*/\1/p' "$dir/strength-train.log" 2>/dev/null | tail -1)
		step=$(latest "$dir" | sed 's/^step-0*\([0-9]\)/\1/; s/\.ckpt$//')
		cpu=$(sed -n 's/.*: \([0-9.]*\) of \([0-9]*\) cores.*/\1 of \2 cores/p' "$dir/strength-train.cpu" 2>/dev/null)
		row="| $n | $(knowledge "$dir") | ${gs:--} | $step | ${cpu:--} |"
		for c in "${cols[@]}"; do
			r=$(pair_row "$dir/strength/table.txt" "$c")
			row+=" ${r:+$(cell "$r")} |"
		done
		if [[ $n == "$base" ]]; then row+=" — |"; else row+=" $(cell "$(pair_row "$out/h2h-$n.txt" "$base")") |"; fi
		echo "$row"
	done
} | tee "$out/ablation.txt"
echo "table: $out/ablation.txt"
