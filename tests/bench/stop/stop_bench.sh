#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl stop of a oneshot trace against cp of as many bytes on the same
# disk, medians of RUNS runs in one run. PROVIDERS proto-providers fill
# MEGABYTES of buffers in all (records of 32 bytes), then the stop
# assembles, writes and fsyncs the archive; the peer is cp of a file of
# that size followed by sync of the copy (the stop fsyncs too), and cp
# alone. Then the same events in a streaming trace with the default
# buffer size: from tracectl start to the end of tracectl stop, the
# providers write while the manager saves their halves as they fill.
#
# usage: stop_bench.sh BUILDDIR [MEGABYTES] [RUNS] [PROVIDERS] [DIR]
# Run as root. DIR (default /var/tmp) holds the archives; they are deleted.
# STOP_BENCH_PERF=FILE records the manager with perf record -g into FILE.
set -eu -o pipefail

build=$(cd "$1" && pwd)
mb=${2:-1024}
runs=${3:-3}
nprov=${4:-4}
dir=${5:-/var/tmp}
fxtraced=$build/daemon/fxtraced/fxtraced
tracectl=$build/daemon/tracectl/tracectl
proto=$build/tests/integration/proto-provider
work=$(mktemp -d "$dir/stop-bench.XXXXXX")
mgr=""
pids=""
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
	[ -z "$mgr" ] || kill "$mgr" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "stop_bench: $*" >&2
	exit 1
}

# Per provider: the buffer, and events that fill its rolling area (32
# bytes each; oneshot keeps 1/16 for strings and threads) without drops.
per_bytes=$((mb * 1048576 / nprov))
events=$(((per_bytes / 16 * 15 - 4096) / 32))
. "$(dirname "$0")/../manager.sh"
if [ -n "${STOP_BENCH_PERF:-}" ]; then
	perf record -g -o "$STOP_BENCH_PERF" -p "$mgr" >"$work/perf.log" 2>&1 &
	perf_pid=$!
	sleep 1
fi
p=0
while [ $p -lt "$nprov" ]; do
	"$proto" --name "fill$p" --events "$events" --stay >"$work/fill$p.out" 2>&1 &
	pids="$pids $!"
	p=$((p + 1))
done
until [ "$("$tracectl" status | grep -c '^  fill')" -eq "$nprov" ]; do
	sleep 0.05
done

ms() {
	echo $((($2 - $1) / 1000000))
}

# wait_written N: every provider printed its N-th "wrote" line.
wait_written() {
	p=0
	while [ $p -lt "$nprov" ]; do
		until [ "$(grep -c '^wrote' "$work/fill$p.out")" -ge "$1" ]; do
			sleep 0.05
		done
		p=$((p + 1))
	done
}

# The peer copies a file of the archive's size just before each stop,
# from the same memory state: this VM hands freed memory back to its host
# (free page reporting), so whatever first touches memory freed a while
# ago pays the host's faults, and a cp right after the stop would reuse
# the pages the stop just freed. Both wait for that settling first.
settle() {
	sync
	sleep 3
}
head -c $((nprov * events * 32)) /dev/zero >"$work/src"
run=1
while [ $run -le "$runs" ]; do
	"$tracectl" start -o "$work/t.fxt" --mode oneshot \
		--buffer-size "$per_bytes" --kernel=off >/dev/null ||
		fail "tracectl start failed"
	wait_written $((2 * run - 1))
	settle
	t0=$(date +%s%N)
	cp "$work/src" "$work/copy"
	t1=$(date +%s%N)
	sync "$work/copy"
	t2=$(date +%s%N)
	rm -f "$work/copy"
	settle
	t3=$(date +%s%N)
	"$tracectl" stop >"$work/stop.out" || { cat "$work/stop.out"; fail "tracectl stop failed"; }
	t4=$(date +%s%N)
	size=$(stat -c %s "$work/t.fxt")
	rm -f "$work/t.fxt" "$work/t.fxt.old"
	settle
	t5=$(date +%s%N)
	"$tracectl" start -o "$work/s.fxt" --mode streaming --kernel=off \
		>/dev/null || fail "tracectl start (streaming) failed"
	wait_written $((2 * run))
	"$tracectl" stop >"$work/stream.out" ||
		{ cat "$work/stream.out"; fail "tracectl stop (streaming) failed"; }
	t6=$(date +%s%N)
	ssize=$(stat -c %s "$work/s.fxt")
	rm -f "$work/s.fxt" "$work/s.fxt.old"
	echo "$(ms "$t3" "$t4") $(ms "$t0" "$t2") $(ms "$t0" "$t1") $(ms "$t5" "$t6")" >>"$work/times"
	run=$((run + 1))
done
if [ -n "${STOP_BENCH_PERF:-}" ]; then
	kill -INT "$perf_pid"
	wait "$perf_pid" || true
fi
cat "$work/stop.out"
cat "$work/stream.out"

median() {
	cut -d' ' -f"$1" "$work/times" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
stop=$(median 1)
cpsync=$(median 2)
cponly=$(median 3)
stream=$(median 4)
printf "archive: %s bytes from %s providers; %s runs, medians\n" "$size" "$nprov" "$runs"
printf "streaming archive: %s bytes\n" "$ssize"
printf "%-26s %8s\n" "" "wall ms"
printf "%-26s %8s\n" "tracectl stop" "$stop"
printf "%-26s %8s\n" "streaming start to stop" "$stream"
printf "%-26s %8s\n" "cp + sync of the copy" "$cpsync"
printf "%-26s %8s\n" "cp" "$cponly"
awk -v s="$stop" -v c="$cpsync" -v o="$cponly" 'BEGIN {
	printf "ratio: stop / (cp + sync) %.2f; stop / cp %.2f\n", s / c, s / (o ? o : 1) }'
awk -v s="$stream" -v c="$cpsync" 'BEGIN {
	printf "ratio: streaming / (cp + sync) %.2f\n", s / c }'
echo "STOP_BENCH bytes=$size stop_ms=$stop cp_sync_ms=$cpsync cp_ms=$cponly stream_bytes=$ssize stream_ms=$stream"
