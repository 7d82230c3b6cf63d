#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Kernel capture at saturation: `perf bench sched pipe` pinned to every
# CPU for SECONDS while each capture streams the scheduling events to a
# file with its default buffer sizes; what it lost per million events:
#   fxtrace  tracectl start --mode streaming --kernel=bpf (kernel:sched);
#            the kernel row of tracectl stop (RECORDS, DROPS)
#   ftrace   sched_switch, sched_wakeup, sched_wakeup_new into an instance
#            read by splice of trace_pipe_raw per CPU; events (read and
#            left) and overruns from per_cpu/cpuN/stats
#   perf     perf record -a of the same tracepoints; samples and lost
#            samples from perf report --stats
# Prints one line per capture and "SATURATION name events lost" lines.
#
# usage: saturation.sh BUILDDIR [SECONDS] [DIR]   (root; DIR: /var/tmp)
set -eu -o pipefail

build=$(cd "$1" && pwd)
secs=${2:-30}
dir=${3:-/var/tmp}
fxtraced=$build/daemon/fxtraced/fxtraced
tracectl=$build/daemon/tracectl/tracectl
tracefs=/sys/kernel/tracing
instance=$tracefs/instances/fxt_saturation
tracepoints="sched_switch sched_wakeup sched_wakeup_new"
work=$(mktemp -d "$dir/saturation.XXXXXX")
mgr=""
bg=""
pids=""
cleanup() {
	[ -z "$pids" ] || pkill -9 -P "$(echo $pids | tr ' ' ,)" 2>/dev/null || true
	for p in $pids $bg; do kill -9 "$p" 2>/dev/null || true; done
	[ -z "$mgr" ] || kill "$mgr" 2>/dev/null || true
	wait 2>/dev/null || true
	[ ! -d "$instance" ] || rmdir "$instance" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "saturation: $*" >&2
	exit 1
}

command -v perf >/dev/null || fail "perf not found (apt-get install linux-perf)"
[ -d "$tracefs/instances" ] || mount -t tracefs nodev "$tracefs" ||
	fail "cannot mount tracefs"

# load: perf bench sched pipe pinned to each CPU, for $secs seconds.
load() {
	pids=""
	cpu=0
	while [ $cpu -lt "$(nproc)" ]; do
		taskset -c $cpu perf bench sched pipe -l 2000000000 >/dev/null 2>&1 &
		pids="$pids $!"
		cpu=$((cpu + 1))
	done
	sleep "$secs"
	# perf bench forks its workers: kill them while their parents still
	# name them (once a parent is gone they belong to init and run on).
	pkill -9 -P "$(echo $pids | tr ' ' ,)" 2>/dev/null || true
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=""
}

result() {
	awk -v n="$1" -v e="$2" -v l="$3" 'BEGIN {
		printf "%-8s %12.0f events %10.0f lost %10.1f per million\n",
			n, e, l, (e + l) ? l * 1e6 / (e + l) : 0
		printf "SATURATION %s %.0f %.0f\n", n, e, l }'
}

# fxtrace: a private manager, the BPF backend, default sizes.
. "$(dirname "$0")/../manager.sh"
"$tracectl" start -o "$work/fxt.fxt" --mode streaming --kernel=bpf \
	--categories kernel:sched >"$work/start.out" 2>&1 ||
	fail "tracectl start: $(cat "$work/start.out")"
load
"$tracectl" stop >"$work/stop.out" 2>&1 || fail "tracectl stop: $(cat "$work/stop.out")"
kill "$mgr"
wait "$mgr" || true
mgr=""
rec=$(awk '$1 == "kernel" { print $3 }' "$work/stop.out")
drop=$(awk '$1 == "kernel" { print $5 }' "$work/stop.out")
[ -n "$rec" ] || fail "no kernel row in tracectl stop: $(cat "$work/stop.out")"
rm -f "$work/fxt.fxt"
result fxtrace "$rec" "$drop"

# ftrace: an instance, default buffer size, one reader per CPU.
mkdir "$instance" || fail "cannot create $instance"
for tp in $tracepoints; do
	echo 1 >"$instance/events/sched/$tp/enable"
done
# The consumer trace-cmd is (it does not run here): splice of whole pages
# per CPU; a read() of trace_pipe_raw returns a page each time, however
# empty, and loses most events at this rate.
cat >"$work/splice.py" <<'EOF2'
import os, sys
src = os.open(sys.argv[1], os.O_RDONLY)
dst = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
r, w = os.pipe()
while True:
    n = os.splice(src, w, 1 << 20)
    if n == 0:
        break
    while n:
        n -= os.splice(r, dst, n)
EOF2
readers=""
for c in "$instance"/per_cpu/cpu*; do
	[ -d "$c" ] || continue
	python3 "$work/splice.py" "$c/trace_pipe_raw" "$work/ftrace.$(basename "$c")" &
	readers="$readers $!"
done
sleep 0.5
bg=$readers
echo 1 >"$instance/tracing_on"
load
echo 0 >"$instance/tracing_on"
sleep 1
ev=0
lost=0
for c in "$instance"/per_cpu/cpu*; do
	[ -d "$c" ] || continue
	read_ev=$(sed -n 's/^read events: //p' "$c/stats")
	entries=$(sed -n 's/^entries: //p' "$c/stats")
	over=$(sed -n 's/^overrun: //p' "$c/stats")
	ev=$((ev + read_ev + entries))
	lost=$((lost + over))
done
for p in $readers; do kill "$p" 2>/dev/null || true; done
for p in $readers; do wait "$p" 2>/dev/null || true; done
bg=""
for tp in $tracepoints; do
	echo 0 >"$instance/events/sched/$tp/enable"
done
rmdir "$instance"
rm -f "$work"/ftrace.*
result ftrace "$ev" "$lost"

# perf record -a, default buffers.
events=""
for tp in $tracepoints; do
	events="${events:+$events,}sched:$tp"
done
perf record -q -a -e "$events" -o "$work/perf.data" >"$work/perf.log" 2>&1 &
prec=$!
bg=$prec
sleep 1
load
kill -INT "$prec"
wait "$prec" || true
bg=""
perf report -i "$work/perf.data" --stats >"$work/stats.out" 2>&1 ||
	fail "perf report --stats: $(tail -n 5 "$work/stats.out")"
samples=$(awk '/SAMPLE events:/ { print $3; exit }' "$work/stats.out")
# Per event: "LOST_SAMPLES events: N" counts the samples lost.
lost=$(awk '/ stats:$/ { per = 1 } per && /LOST_SAMPLES events:/ { s += $3 }
	END { print s + 0 }' "$work/stats.out")
[ -n "$samples" ] || fail "no SAMPLE count in perf report --stats"
result perf "$samples" "$lost"
