#!/usr/bin/env bash
# Runs every fuzz target of the repository for a while each (Go's native
# fuzzing), one after another, and prints one line per target.
#
#   scripts/fuzz.sh [FUZZTIME]     (default 2m per target)
#
# A crash stops the script with its failing input under the package's
# testdata/fuzz/ (commit it: it becomes a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-2m}
n=0
while IFS=: read -r file _ decl; do
	pkg=./$(dirname "$file")
	name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' <<<"$decl")
	start=$(date +%s)
	if ! out=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" 2>&1); then
		echo "$out"
		echo "fuzz: $pkg $name FAILED"
		exit 1
	fi
	execs=$(grep -oE 'execs: [0-9]+' <<<"$out" | tail -1 | tr -dc '0-9')
	echo "fuzz: $pkg $name: ok, ${execs:-?} executions in $(($(date +%s) - start)) s"
	n=$((n + 1))
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' . | grep -v '^./runs/' | sed 's|^\./||' | sort)
echo "fuzz: $n targets, $fuzztime each, no crash"
