#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl export benchmark: events stored per second into a local
# clickhouse-server (scripts/clickhouse-test-server.sh, started here on a
# loopback port, stopped at the end), and tracectl's peak RSS and CPU
# time; the median of RUNS runs, each into a fresh database (so that
# nothing is "already stored"). The server shares the machine's CPUs.
#
# usage: export_bench.sh BUILDDIR [ROUNDS] [RUNS]
# ROUNDS of fleet_gen (10 events and 1.1 stack samples each; default
# 500000: 5.55 M rows, about 310 MiB of archive; the samples are held
# until the archive's end, as tracectl summary holds them). Prints one line per run and, last,
#   EXPORT_BENCH events=N events_per_s=N rss_kb=N cpu_ms=N wall_ms=N bytes=N
set -eu -o pipefail

build=$1
rounds=${2:-500000}
runs=${3:-3}
top=$(cd "$(dirname "$0")/../../.." && pwd)
tracectl=$build/daemon/tracectl/tracectl
work=$(mktemp -d /tmp/export-bench.XXXXXX)
trap '"$top/scripts/clickhouse-test-server.sh" stop "$work/ch" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

"$build/tests/export/fleet_gen" "$work/big.fxt" bench 0123456789abcdef0123456789abcdef 1 "$rounds"
bytes=$(stat -c %s "$work/big.fxt")
url=$("$top/scripts/clickhouse-test-server.sh" start "$work/ch")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for ((i = 1; i <= runs; i++)); do
	start=$(date +%s%N)
	/usr/bin/time -v "$tracectl" export -c "$url" -d "bench$i" "$work/big.fxt" \
		>"$work/out" 2>"$work/time.txt"
	end=$(date +%s%N)
	events=$(sed -n 's/.* stored: \([0-9]*\) events.*/\1/p' "$work/out")
	[ -n "$events" ] || { cat "$work/out" "$work/time.txt" >&2; exit 1; }
	ms=$(( (end - start) / 1000000 ))
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.0f", s * 1000 }' "$work/time.txt")
	eps=$(awk -v e="$events" -v ms="$ms" 'BEGIN { printf "%.0f", e / (ms / 1000) }')
	echo "run $i: $events events in $ms ms: $eps events/s, peak RSS $rss KB, CPU $cpu ms"
	echo "$eps" >>"$work/eps"; echo "$rss" >>"$work/rss"
	echo "$cpu" >>"$work/cpu"; echo "$ms" >>"$work/ms"
	# the run's rows are not needed any more: the next run's server work alone
	curl -sS "$url" --data-binary "DROP DATABASE bench$i" >/dev/null
done
echo "EXPORT_BENCH events=$events events_per_s=$(median <"$work/eps") rss_kb=$(median <"$work/rss") cpu_ms=$(median <"$work/cpu") wall_ms=$(median <"$work/ms") bytes=$bytes"
