#!/usr/bin/env bash
# Memory soak: a fresh "chuzero train" for DURATION, its resident memory
# (VmRSS) sampled every INTERVAL seconds; prints the samples and whether
# the memory after the warm-up (WARMUP_S seconds from the first network
# switch, when self-play leaves the step-0 network) stays within 10% of its
# level at the end of the warm-up. Every checkpoint switches self-play to a new network (a new
# evaluation cache), so checkpoints come often here (every 20 steps).
#
#   scripts/memsoak.sh [VARIANT] [DURATION] [WARMUP_S]   (default sho 30m 300)
#
# Environment: INTERVAL (30), CONFIG (a run config to use instead).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-sho} duration=${2:-30m} warmup=${3:-300} interval=${INTERVAL:-30}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/chuzero" ./cmd/chuzero
cfg=${CONFIG:-$tmp/soak.yaml}
[[ -n ${CONFIG:-} ]] || printf 'train: {checkpoint_every: 20}\neval: {interval: 0s}\n' >"$cfg"
"$tmp/chuzero" train -variant "$variant" -run "$tmp/run" -duration "$duration" -config "$cfg" -metrics-addr off -quiet &
pid=$!
start=$(date +%s) base=0 peak=0 low=0 switched=-1
while kill -0 "$pid" 2>/dev/null; do
	sleep "$interval"
	rss=$(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null) || break
	[[ -n $rss ]] || break
	t=$(($(date +%s) - start))
	ckpts=$(ls "$tmp/run/checkpoints" 2>/dev/null | grep -c '\.ckpt$' || true)
	echo "memsoak: ${t}s rss ${rss} MB, ${ckpts} checkpoints kept"
	((switched >= 0 || ckpts < 2)) || switched=$t
	if ((switched >= 0 && t >= switched + warmup)); then
		((base > 0)) || { base=$rss low=$rss; }
		((rss > peak)) && peak=$rss
		((rss < low)) && low=$rss
	fi
done
wait "$pid" || true
if ((base == 0)); then
	echo "memsoak: the run ended before the warm-up did"
	exit 1
fi
steps=$(ls "$tmp/run/checkpoints" | sed -n 's/step-0*\([0-9]*\)\.ckpt/\1/p' | sort -n | tail -1)
growth=$(awk -v a="$base" -v b="$peak" 'BEGIN {printf "%.1f", 100 * (b - a) / a}')
echo "memsoak: ${warmup}s after the first switch (at ${switched}s) ${base} MB; then between ${low} and ${peak} MB (+${growth}%); last step ${steps:-0} (a network switch every 20 steps)"
awk -v g="$growth" 'BEGIN {exit !(g <= 10)}' || { echo "memsoak: FAIL, grew more than 10%"; exit 1; }
