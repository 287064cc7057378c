#!/usr/bin/env bash
# Does the value head see material? Asks a checkpoint (one network
# evaluation each, through `chuzero play -protocol usi`) for its value of
# the start position and of the start position without one piece, the
# opponent's and then its own, Sente to move, and prints the values as USI
# centipawns (400·atanh(v)) with the mean gap: a network that has learnt
# material values the opponent's loss well above its own.
#
#   scripts/valueprobe.sh RUN_DIR [CHECKPOINT]
#
#   RUN_DIR     a run directory (its config.json gives the variant)
#   CHECKPOINT  latest (default), a name, a step or a file
#
# Environment: PIECES, the SFEN letters of the pieces to take away
# (default: sho "r b g", chu "n q r", heian "b d t"), CHUZERO a built binary
# (default: built from this checkout).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib.sh

[[ $# -ge 1 && $# -le 2 ]] || usage 16
run=$1 ck=${2:-latest}
variant=$(run_variant "$run")
chuzero_bin
case $variant in
sho) usi=shoshogi pieces=${PIECES:-r b g} ;;
chu) usi=chushogi pieces=${PIECES:-n q r} ;;
heian) usi=heiandaishogi pieces=${PIECES:-b d t} ;;
*)
	echo "valueprobe.sh: variant '$variant' in $run/config.json not known" >&2
	exit 2
	;;
esac
start=$("$bin" rules -variant "$variant" | sed -n 's/^  start: //p')

# without SFEN LETTER: the SFEN with the first piece LETTER taken off the board.
without() {
	awk -v sfen="$1" -v letter="$2" 'BEGIN {
		split(sfen, f, " "); b = f[1]; out = ""; run = 0; done = 0
		for (i = 1; i <= length(b); i++) {
			c = substr(b, i, 1)
			if (c ~ /[0-9]/) { n = c; while (substr(b, i + 1, 1) ~ /[0-9]/) { i++; n = n substr(b, i, 1) }; run += n; continue }
			tok = c; if (c == "+") { i++; tok = c substr(b, i, 1) }
			if (tok == letter && !done) { run++; done = 1; continue }
			if (run) { out = out run; run = 0 }
			out = out tok
		}
		if (run) out = out run
		if (!done) exit 1
		f[1] = out; s = f[1]; for (k = 2; k in f; k++) s = s " " f[k]; print s
	}'
}

names=(start) sfens=("$start")
for p in $pieces; do
	up=$(tr '[:lower:]' '[:upper:]' <<<"$p")
	if ! a=$(without "$start" "$p") || ! b=$(without "$start" "$up"); then
		echo "valueprobe.sh: no piece '$p' on both sides of the $variant start position" >&2
		exit 2
	fi
	names+=("opponent without $p" "self without $up")
	sfens+=("$a" "$b")
done
# one position at a time: a USI engine takes the next command once it has
# answered bestmove
coproc engine { "$bin" play -protocol usi -run "$run" -checkpoint "$ck" -sims 1 -threads 1 2>/dev/null; }
ask() { # ask COMMAND REPLY_PREFIX: send, then read to the reply, echoing the last score
	local line v=
	echo "$1" >&"${engine[1]}"
	while IFS= read -r -t 60 line <&"${engine[0]}"; do
		if [[ $line =~ score\ cp\ (-?[0-9]+) ]]; then v=${BASH_REMATCH[1]}; fi
		if [[ $line == "$2"* ]]; then
			echo "$v"
			return 0
		fi
	done
	echo "valueprobe.sh: no '$2' from the engine after '$1'" >&2
	return 1
}
ask usi usiok >/dev/null
echo "setoption name USI_Variant value $usi" >&"${engine[1]}"
ask isready readyok >/dev/null
scores=()
for s in "${sfens[@]}"; do
	echo "position sfen $s" >&"${engine[1]}"
	scores+=("$(ask "go nodes 1" bestmove)")
done
echo quit >&"${engine[1]}"
wait "${engine_PID:?}" || true
if [[ ${#scores[@]} -ne ${#sfens[@]} ]]; then
	echo "valueprobe.sh: the engine answered ${#scores[@]} of ${#sfens[@]} positions" >&2
	exit 1
fi
echo "value head of $run ($ck), Sente to move, USI centipawns:"
gap=0
for i in "${!names[@]}"; do
	printf '  %-22s %6s\n' "${names[$i]}" "${scores[$i]}"
	if ((i > 0 && i % 2 == 0)); then
		gap=$((gap + scores[i - 1] - scores[i]))
	fi
done
printf '  mean gap (opponent down - self down): %d cp\n' $((gap / (${#names[@]} / 2)))
