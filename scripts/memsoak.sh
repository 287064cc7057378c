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
# Beside the resident memory it prints the Go heap in use (from /metrics)
# and saves heap profiles at the end of the warm-up and at the end
# (PROFILES, default ./memsoak-profiles) for "go tool pprof -diff_base",
# with the run's output (train.log; GODEBUG=gctrace=1 adds the GC's lines).
#
# Environment: INTERVAL (30), CONFIG (a run config to use instead), PROFILES.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-sho} duration=${2:-30m} warmup=${3:-300} interval=${INTERVAL:-30}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/chuzero" ./cmd/chuzero
cfg=${CONFIG:-$tmp/soak.yaml}
[[ -n ${CONFIG:-} ]] || printf 'train: {checkpoint_every: 20}\neval: {interval: 0s}\n' >"$cfg"
profiles=${PROFILES:-memsoak-profiles}
mkdir -p "$profiles"
"$tmp/chuzero" train -variant "$variant" -run "$tmp/run" -duration "$duration" -config "$cfg" -metrics-addr 127.0.0.1:0 -pprof-addr 127.0.0.1:0 -quiet >"$tmp/out" 2>&1 &
pid=$!
url="" purl=""
metric() { curl -fsS "$url/metrics" 2>/dev/null | awk -v m="$1" '$1 == m {print int($2 / 1048576)}'; }
heap() { curl -fsS -o "$profiles/$1.pb.gz" "$purl/heap?gc=1" 2>/dev/null || true; }
start=$(date +%s) base=0 peak=0 low=0 switched=-1 after=()
while kill -0 "$pid" 2>/dev/null; do
	sleep "$interval"
	rss=$(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null) || break
	[[ -n $rss ]] || break
	t=$(($(date +%s) - start))
	[[ -n $url ]] || url=$(sed -n 's|.*metrics: \(http://[^ ]*\)/metrics.*|\1|p' "$tmp/out" | head -1)
	[[ -n $purl ]] || purl=$(sed -n 's|^pprof: \(http://[^ ]*\)/$|\1|p' "$tmp/out" | head -1)
	inuse=$(metric go_memstats_heap_inuse_bytes)
	ckpts=$(find "$tmp/run/checkpoints" -name '*.ckpt' 2>/dev/null | wc -l)
	echo "memsoak: ${t}s rss ${rss} MB, heap in use ${inuse:-?} MB, ${ckpts} checkpoints kept"
	((switched >= 0 || ckpts < 2)) || switched=$t
	if ((switched >= 0 && t >= switched + warmup)); then
		((base > 0)) || { base=$rss low=$rss; heap base; }
		heap last
		((rss > peak)) && peak=$rss
		((rss < low)) && low=$rss
		after+=("$rss")
	fi
done
wait "$pid" || { tail -20 "$tmp/out"; true; }
cp "$tmp/out" "$profiles/train.log"
if ((base == 0)); then
	echo "memsoak: the run ended before the warm-up did"
	exit 1
fi
steps=$(ls "$tmp/run/checkpoints" | sed -n 's/step-0*\([0-9]*\)\.ckpt/\1/p' | sort -n | tail -1)
growth=$(awk -v a="$base" -v b="$peak" 'BEGIN {printf "%.1f", 100 * (b - a) / a}')
echo "memsoak: ${warmup}s after the first switch (at ${switched}s) ${base} MB; then between ${low} and ${peak} MB (+${growth}%); last step ${steps:-0} (a network switch every 20 steps)"
# The trend: the mean of the last third of the samples after the warm-up
# against the mean of the first third (the GC's cycle moves single samples).
echo "${after[@]}" | awk '{k = int(NF / 3); if (k < 1) exit; for (i = 1; i <= k; i++) {a += $i; b += $(NF - k + i)}
	printf "memsoak: trend: first third of the samples %.0f MB, last third %.0f MB (%+.1f%%)\n", a / k, b / k, 100 * (b - a) / a}'
awk -v g="$growth" 'BEGIN {exit !(g <= 10)}' || { echo "memsoak: FAIL, grew more than 10%"; exit 1; }
