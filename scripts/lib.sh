# shellcheck shell=bash
# Helpers shared by the scripts (source it: . scripts/lib.sh).

# usage prints the calling script's header comment, lines 2 to $1, as its
# help, and exits 2.
usage() {
	sed -n "2,${1}p" "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# run_variant prints the variant of run directory $1 (from its
# config.json), or exits 2 saying it is not a run directory.
run_variant() {
	if [[ ! -f $1/config.json ]]; then
		echo "$(basename "$0"): $1/config.json not found: not a run directory" >&2
		exit 2
	fi
	sed -n 's/^ *"variant": *"\([a-z]*\)".*/\1/p' "$1/config.json" | head -1
}

# chuzero_bin sets bin to $CHUZERO, or to a chuzero built from this
# checkout into a temporary folder removed when the script exits.
chuzero_bin() {
	bin=${CHUZERO:-}
	if [[ -z $bin ]]; then
		bin=$(mktemp -d)/chuzero
		trap 'rm -rf "$(dirname "$bin")"' EXIT
		go build -o "$bin" ./cmd/chuzero
	fi
}

# mean_move_seconds prints the first player's mean time per move from an
# arena results.json ($1; its move_times list the players in order), or
# nothing when the file has none.
mean_move_seconds() {
	awk '/"move_times"/ { f = 1 } f && /"mean_seconds"/ { gsub(/[ ,]/, ""); split($0, a, ":"); print a[2]; exit }' "$1"
}

# pair_row prints the row of opponent $2 (default: the first row) of the
# pair table in arena output file $1 ("player opponent games wins draws
# losses score Elo [low, high]").
pair_row() {
	awk -v o="${2:-}" '$1 == "player" && $2 == "opponent" { f = 1; next } f && (o == "" || $2 == o) { print; exit }' "$1"
}

# knowledge prints what run directory $1 knew beyond the rules, from its
# config.json: piece values (games stopped at the ply cap labelled by the
# material there, resolved by the capture search or as it stands), the
# quiescence blend, a warm start; "nothing" for none.
knowledge() {
	awk '
		function num(line) { sub(/.*: */, "", line); sub(/,.*/, "", line); return line + 0 }
		/"capped_material_weight":/ { cm = num($0) }
		/"capped_quiescence":/ { cq = ($0 ~ /true/) }
		/"quiescence":/ { q = num($0) }
		/"quiescence_final":/ { qf = num($0) }
		/"quiescence_steps":/ { qs = num($0) }
		/"warm_start_games":/ { ws = num($0) }
		/"warm_start_depth":/ { wd = num($0) }
		END {
			out = ""
			if (cm > 0) out = cq ? "piece values (capped games labelled by resolved material)" : "piece values (capped games labelled by static material)"
			if (q > 0 || (qs > 0 && qf > 0)) {
				l = (qs > 0) ? sprintf("quiescence (λ %g to %g over %d steps)", q, qf, qs) : sprintf("quiescence (λ %g)", q)
				out = out (out == "" ? "" : ", ") l
			}
			if (ws > 0) out = out (out == "" ? "" : ", ") sprintf("warm start (%d games of ab-d%d)", ws, wd)
			print (out == "" ? "nothing" : out)
		}' "$1/config.json"
}
