#!/usr/bin/env bash
# Crash test: SIGKILL a training run at random moments, restart it, and
# check the run directory after every kill with "chuzero verify": every
# checkpoint loads, no sample file is damaged, no game is recorded twice,
# the games and the step never go back.
#
#   scripts/killtest.sh [KILLS] [MODE] [DIR]
#
#   KILLS  number of kills (default 20)
#   MODE   train (one "chuzero train"), pair ("chuzero selfplay" and
#          "chuzero trainer" on one directory, both killed each round) or
#          nats (a "chuzero trainer" serving NATS JetStream itself, with
#          authentication on, and a "chuzero selfplay -nats" worker on its
#          own directory: KILLS kills of each, taken in turns while the
#          other runs on; then the worker plays a last 4 games, and every
#          game it recorded must be in the trainer's directory once, with
#          the same bytes, its outbox empty)
#   DIR    the run directory (default a fresh temporary one; in nats mode
#          the trainer's, the worker's is DIR.worker)
#
# Environment: MIN_S, MAX_S: the random run time before each kill (default
# 2 and 8 seconds); CONFIG: a run config (default a tiny Sho run); DRAIN_S:
# in nats mode, how long the trainer may take to receive the worker's last
# batches (default 300 seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20} mode=${2:-train}
dir=${3:-$(mktemp -d)/run}
min_s=${MIN_S:-2} max_s=${MAX_S:-8}
case $mode in train | pair | nats) ;; *) echo "killtest: MODE is train, pair or nats" >&2; exit 2 ;; esac

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

# pause sleeps a random time between MIN_S and MAX_S.
pause() {
	sleep "$(awk -v a="$min_s" -v b="$max_s" -v s="$RANDOM" 'BEGIN {srand(s); printf "%.2f", a + rand() * (b - a)}')"
}

# field prints the number of JSON field $1 in verify's report $2.
field() { grep "\"$1\"" <<<"$2" | tr -dc '0-9-'; }

# check_dir verifies the trainer's directory after kill $1 and fails when
# it is damaged or its step or games went back.
last_step=-1 last_games=0
check_dir() {
	local out step games unpaired
	out=$("$bin" verify -run "$dir" -json) || { echo "round $1: verify failed:"; echo "$out"; exit 1; }
	step=$(field last_step "$out") games=$(field games "$out") unpaired=$(field unpaired "$out")
	echo "round $1: step $step, $games games, $unpaired unpaired files"
	if ((step < last_step || games < last_games)); then
		echo "round $1: went back (step $last_step -> $step, games $last_games -> $games)"
		exit 1
	fi
	last_step=$step last_games=$games
}

# alive says whether process $1 (a pid, maybe empty) still runs.
alive() { [[ -n $1 ]] && kill -0 "$1" 2>/dev/null; }

# nats_killtest kills the NATS worker and the trainer in turns (odd rounds
# the worker, even rounds the trainer; the other runs on), then lets the
# worker play its last games and compares the two directories.
nats_killtest() {
	local wdir=$dir.worker port url tpid="" wpid="" i
	port=$((20000 + RANDOM % 20000)) url=nats://127.0.0.1:$port
	start_trainer() {
		"$bin" trainer "${common[@]}" -embedded-nats "127.0.0.1:$port" -embedded-nats-auth on -nats-run kill \
			2>>"$tmp/trainer.log" &
		tpid=$!
	}
	start_worker() {
		local n=0
		while [[ ! -f $dir/nats-keys/worker.nk ]] && ((n++ < 600)); do sleep 0.1; done
		"$bin" selfplay -run "$wdir" -variant sho -metrics-addr off -quiet -nats "$url" \
			-nats-nkey "$dir/nats-keys/worker.nk" -nats-run kill -worker-id w1 "$@" 2>>"$tmp/worker.log" &
		wpid=$!
	}
	for ((i = 1; i <= 2 * kills; i++)); do
		alive "$tpid" || start_trainer
		alive "$wpid" || start_worker
		pause
		if ((i % 2 == 1)); then
			kill -9 "$wpid"
			wait "$wpid" 2>/dev/null || true
			echo "round $i: worker killed, $(find "$wdir/outbox" -type f 2>/dev/null | wc -l) files in its outbox"
		else
			kill -9 "$tpid"
			wait "$tpid" 2>/dev/null || true
			check_dir "$i"
		fi
	done
	# the last games: the trainer up, the worker stopped cleanly and run
	# to the end of 4 more games, republishing what the kills left
	alive "$tpid" || start_trainer
	kill -TERM "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	start_worker -max-games 4
	wait "$wpid" || { echo "killtest: the worker's last run failed:"; tail -20 "$tmp/worker.log"; exit 1; }
	local left missing=0 differ=0 n name
	# batches, not the temporary files of writes a kill cut off (each
	# process removes those older than a minute as it starts)
	left=$(find "$wdir/outbox" -type f ! -name '.*' 2>/dev/null | wc -l)
	for ((n = 0; n < ${DRAIN_S:-300} * 10; n++)); do
		missing=0
		for name in "$wdir"/games/*.jsonl; do
			[[ -f $dir/games/$(basename "$name") ]] || missing=$((missing + 1))
		done
		((missing == 0)) && break
		sleep 0.1
	done
	kill -TERM "$tpid"
	wait "$tpid" || { echo "killtest: the trainer's clean stop failed:"; tail -20 "$tmp/trainer.log"; exit 1; }
	for name in "$wdir"/games/*.jsonl; do
		cmp -s "$name" "$dir/games/$(basename "$name")" || differ=$((differ + 1))
	done
	check_dir end
	local w t
	w=$("$bin" verify -run "$wdir" -json) t=$("$bin" verify -run "$dir" -json)
	echo "worker: $(field games "$w") games in $(field record_files "$w") record files, $left files left in its outbox"
	echo "trainer: $(field games "$t") games in $(field record_files "$t") record files, $(field duplicate_ids "$t") duplicate ids, $(field unpaired "$t") unpaired files, step $(field last_step "$t")"
	echo "records missing at the trainer: $missing; differing: $differ"
	if ((left > 0 || missing > 0 || differ > 0)) || [[ $(field games "$w") != "$(field games "$t")" || $(field duplicate_ids "$t") != 0 || $(field unpaired "$t") != 0 ]]; then
		echo "killtest: games lost or doubled"
		exit 1
	fi
	echo "killtest: $kills kills of the NATS worker and $kills of the trainer: every game the worker recorded is in the trainer's directory once; step $last_step, $last_games games in $dir"
}

if [[ $mode == nats ]]; then
	nats_killtest
	exit
fi
for ((i = 1; i <= kills; i++)); do
	if [[ $mode == train ]]; then
		"$bin" train "${common[@]}" 2>>"$tmp/log" &
	else
		"$bin" selfplay "${common[@]}" -seed "$i" 2>>"$tmp/log" &
		"$bin" trainer "${common[@]}" 2>>"$tmp/log" &
	fi
	pause
	# shellcheck disable=SC2046 # one pid a word
	kill -9 $(jobs -p)
	wait 2>/dev/null || true
	check_dir "$i"
done
echo "killtest: $kills kills of $mode, every restart sound: step $last_step, $last_games games in $dir"
