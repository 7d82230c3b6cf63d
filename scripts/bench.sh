#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The benchmark command: installs its peers from Debian 12's apt (LTTng-UST,
# linux-perf, qemu and the guest kernel: scripts/install-deps.sh), builds,
# runs every benchmark and prints one table of medians and same-run
# ratios, and writes it as JSON.
#
#   scripts/bench.sh [--json FILE] [--build DIR] [--keep-logs]
#
# Rows (each peer measured in the same run, on the same machine):
#   provider   ns per event for every provider_bench row (1 and 2 threads,
#              disabled; a fresh buffer and one whose pages were written
#              once before), instructions per event (perf stat, the
#              difference of two event counts), x LTTng-UST; the clock
#              events read, and the first write per page of a new
#              mapping (and a second) on this machine; the Rust
#              crate and its tracing layer, x the C macros (rust_bench.sh)
#   python     ns per call of the fxtrace Python module (disabled, enabled),
#              a bare call, logging through LTTng-UST's Python agent;
#              python3 -m fxtrace on fib(25) against cProfile
#              (tests/bench/python/python_bench.sh)
#   kernel     overhead per sched event on a pinned pipe ping-pong: the
#              BPF backend, ftrace, perf record (bpf_overhead); then per
#              kernel category, the BPF backend's overhead per event over
#              ftrace's on the same tracepoints (the median of each run's
#              ratio), and the floor: that of a BPF program that only
#              reads the clock and the thread's ids
#   guest      the module, the BPF backend and ftrace in one qemu boot of
#              Debian's cloud kernel (TCG: slow, noisy; ratios matter)
#   stacks     kernel:sample's cost per stack sample against perf record
#              -g -e cpu-clock at the same rate, on a CPU-bound loop:
#              work per CPU second untraced, with ours, with perf -g,
#              with perf without stacks, and with an empty bpftrace
#              profile: program (the floor every BPF sampler pays),
#              medians of 7 runs; ours and perf's above that floor; the
#              tracers' own CPU time per sample; the same-run ratio of
#              the overheads, whole and above the floor, without and
#              with the tracers' CPU; the BPF program's own ns per sample;
#              the walk with unwinding tables over frame pointers alone,
#              and against perf record --call-graph dwarf
#              (tests/bench/stacks/stacks_bench.sh)
#   pyframes   an unmodified CPython program (/usr/bin/python3, pure
#              Python 20 calls deep) sampled at the default 499 Hz: % of
#              its work lost with Python frames in the samples, and
#              without (native frames only), medians of 7 runs; the BPF
#              program's ns per sample with and without
#              (tests/bench/stacks/python_frames_bench.sh)
#   saturation perf bench sched pipe on every CPU for 30 s, streaming, with
#              default buffer sizes: events lost per million, ours, ftrace
#              (read by splice, as trace-cmd does) and perf record
#   stop       tracectl stop of a 1 GiB oneshot trace of 4 providers
#              against cp (+ sync) of a file of that size, from the same
#              settled memory, and a streaming trace of the same events
#              from start to stop (tests/bench/stop/stop_bench.sh)
#   convert    tracectl convert of a 1 GiB archive to /dev/null: MB/s and
#              peak RSS, against cat
#   merge      tracectl merge of three hosts' archives (1 GiB in all):
#              MB/s of input to /dev/null and to a file, peak RSS, against
#              cat of them into one file (tests/bench/merge/merge_bench.sh)
#   export     tracectl export of 5 M events into a local clickhouse-server
#              (started and stopped by tests/bench/export/export_bench.sh):
#              events/s, peak RSS and CPU time of tracectl
# Run as root on Debian 12, alone on the machine (about 20 minutes on
# 2 CPUs). Logs go to a temporary directory, printed when a step fails.
# Exit status: 0, 1 when a step failed (it says which), 2 on usage errors.
#
# examples:
#   sudo scripts/bench.sh
#   sudo scripts/bench.sh --json /tmp/bench.json
set -eu -o pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

usage() {
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
}

json=$top/bench.json
build=build
keep=0
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--json) [ $# -ge 2 ] || { echo "bench.sh: --json needs a FILE" >&2; exit 2; }
		json=$2; shift ;;
	--build) [ $# -ge 2 ] || { echo "bench.sh: --build needs a DIR" >&2; exit 2; }
		build=$2; shift ;;
	--keep-logs) keep=1 ;;
	*) echo "bench.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
	esac
	shift
done

if [ "$(id -u)" -ne 0 ]; then
	echo "bench.sh: run as root (sudo $0): it installs packages, loads BPF programs, boots qemu" >&2
	exit 1
fi
. /etc/os-release
if [ "${ID:-}" != debian ] || [ "${VERSION_ID:-}" != 12 ]; then
	echo "bench.sh: Debian 12 only (this is ${PRETTY_NAME:-unknown}): the peers come from its apt" >&2
	exit 1
fi

logs=$(mktemp -d /tmp/fxtrace-bench.XXXXXX)
res=$logs/results		# "section<TAB>name<TAB>value<TAB>unit<TAB>note"
: >"$res"
cleanup() {
	[ "$keep" -eq 1 ] || rm -rf "$logs"
}
trap cleanup EXIT
began=$(date +%s)

# step NAME COMMAND...: runs it with its output in $logs/NAME.log; on
# failure prints the log's end and stops the benchmark.
step() {
	name=$1
	shift
	t0=$(date +%s)
	echo "==> $name: $*" >&2
	if ! "$@" >"$logs/$name.log" 2>&1; then
		tail -n 40 "$logs/$name.log" >&2
		echo "bench.sh: step '$name' failed: $*" >&2
		keep=1
		echo "bench.sh: logs kept in $logs" >&2
		exit 1
	fi
	echo "    $name took $(($(date +%s) - t0)) s" >&2
}

put() {
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5:-}" >>"$res"
}

# need NAME VALUE: a figure parsed from a log must be there.
need() {
	[ -n "$2" ] || {
		echo "bench.sh: no $1 in the output (log: $logs)" >&2
		keep=1
		exit 1
	}
}

step deps scripts/install-deps.sh
[ -d "$build" ] || step setup meson setup "$build" --werror
step build ninja -C "$build"

# ---- provider: every row of provider_bench, and instructions per event.
pb=$build/tests/bench/provider/provider_bench
step provider "$pb" --runs 7
"$pb" --keys >"$logs/keys"
lines=$(wc -l <"$logs/keys")
i=0
while [ "$i" -lt "$lines" ]; do
	i=$((i + 1))
	key=$(sed -n "${i}p" "$logs/keys" | cut -f1)
	per=$(sed -n "${i}p" "$logs/keys" | cut -f2)
	what=$(sed -n "${i}p" "$logs/keys" | cut -f3)
	ns=$(awk -v w="$what" 'index($0, "  " w " ") == 1 {
		rest = substr($0, length(w) + 3); split(rest, f, " "); print f[1] }' \
		"$logs/provider.log")
	[ -n "$ns" ] || continue	# a row not measured (LTTng without root)
	ratio=$(awk -v w="$what" 'index($0, "  " w " ") == 1 &&
		match($0, /x[0-9.]+ LTTng-UST( disabled)?/) {
		print substr($0, RSTART + 1, RLENGTH - 1) }' "$logs/provider.log")
	# Instructions per event: two event counts, so set-up cancels out.
	for n in 1000000 3000000; do
		perf stat -x, -e instructions -o "$logs/stat.$n" \
			"$pb" --only "$key" --runs 1 --events "$n" \
			>"$logs/stat.$n.out" 2>&1 || {
			cat "$logs/stat.$n.out" >&2
			echo "bench.sh: perf stat of provider_bench --only $key failed" >&2
			exit 1
		}
	done
	# "<not supported>" where the VM has no PMU.
	insns=$(awk -F, -v per="$per" '
		$3 ~ /^instructions/ && $1 ~ /^[0-9]+$/ { v[++n] = $1 }
		END { if (n == 2) printf "%.1f", (v[2] - v[1]) / (2000000 * per) }' \
		"$logs/stat.1000000" "$logs/stat.3000000")
	put provider "$key" "$ns" "ns/event" "${insns:-no PMU:} insns/event; $what${ratio:+; x$ratio}"
done
clock=$(sed -n 's/^trace clock: //p' "$logs/provider.log")
need "trace clock" "$clock"
page=$(sed -n 's/^  first write per 4 KiB page, new mapping, ns  *\([0-9.]*\)  (written again: \([0-9.]*\) ns)$/\1 \2/p' \
	"$logs/provider.log")
need "page write cost" "$page"
put provider "first write per page" "${page% *}" "ns/page" "4 KiB, new MAP_POPULATE memfd mapping; written again: ${page#* } ns; events read the clock: $clock"

# ---- rust: the crate and its tracing layer against the C macros, same run.
step rust tests/bench/rust/rust_bench.sh "$build"
grep '^RUST_BENCH ' "$logs/rust.log" >"$logs/rust.rows" || need "rust rows" ""
while read -r _ key ns ratio peer _ what; do
	[ "$peer" = - ] || what="$what; $ratio $peer"
	put provider "$key" "$ns" "ns/event" "$what"
done <"$logs/rust.rows"

# ---- python: the fxtrace module against a bare call, LTTng-UST's Python
# agent (logging) and cProfile, in one process.
step python tests/bench/python/python_bench.sh "$build" 7
sed -n 's/^  \(.*[^ ]\)  *\([0-9.][0-9.]*\) \(ns\/call\|ms\)\(  x[0-9.]*\)\{0,1\}  (runs.*/\1|\2|\3|\4/p' \
	"$logs/python.log" >"$logs/python.rows"
need "python rows" "$(grep 'with duration, 1 int arg' "$logs/python.rows" || true)"
while IFS='|' read -r name v unit ratio; do
	put python "$name" "$v" "$unit" "${ratio:+x${ratio#*x} of untraced}"
done <"$logs/python.rows"

# ---- kernel capture per sched event on the host.
step kernel "$build/tests/bench/bpf/bpf_overhead" 20000 7
for w in ftrace bpf; do
	v=$(sed -n "s/^overhead per event: .*$w \([0-9.-]*\) ns.*/\1/p" "$logs/kernel.log" | head -n 1)
	need "kernel $w overhead" "$v"
	put kernel "$w" "$v" "ns/event" "pinned pipe ping-pong, overhead beyond no tracing"
done
v=$(sed -n 's/^overhead per event: perf record \([0-9.-]*\) ns.*/\1/p' "$logs/kernel.log")
need "kernel perf record overhead" "$v"
put kernel "perf record" "$v" "ns/event" "same tracepoints, perf record -a"
for c in sched proc syscall irq fault block power mem; do
	log=$logs/kernel-$c.log
	if [ "$c" = sched ]; then
		log=$logs/kernel.log
	else
		step "kernel-$c" "$build/tests/bench/bpf/bpf_overhead" 20000 7 "$c"
	fi
	r=$(sed -n 's/^same-run ratio, median of the runs: bpf\/ftrace \([0-9.-]*\)$/\1/p' "$log")
	need "kernel:$c ratio" "$r"
	o=$(sed -n 's/^overhead per event: ftrace \([0-9.-]*\) ns, bpf \([0-9.-]*\) ns,.*/ftrace \1, bpf \2 ns/p' "$log")
	f=$(sed -n 's/^floor per event: clock+ids .* (same-run \([0-9.-]*\)).*/\1/p' "$log")
	need "kernel:$c floor" "$f"
	put kernel "kernel:$c bpf/ftrace" "$r" "x ftrace" "$o; floor x$f"
done

# ---- the module vs BPF vs ftrace in one guest boot.
step guest env FXT_KMOD_TESTS=bench FXT_BUILD_DIR="$build" scripts/qemu-kmod-test.sh
tr -d '\r' <"$logs/guest.log" >"$logs/guest.txt"
for w in fxt ftrace; do
	v=$(sed -n "s/^kmod-bench: $w .* \([+-][0-9.]*\) ns\/event overhead.*/\1/p" "$logs/guest.txt" |
		head -n 1)	# the first run is kernel:sched
	need "guest $w overhead" "$v"
	[ "$w" = fxt ] && w=module
	put guest "$w (kmod_bench)" "$v" "ns/event" "qemu TCG, Debian cloud kernel"
done
for w in ftrace bpf; do
	v=$(sed -n "s/^bpf-bench: overhead per event: .*$w \([0-9.-]*\) ns.*/\1/p" "$logs/guest.txt" | head -n 1)
	need "guest bpf_overhead $w" "$v"
	put guest "$w (bpf_overhead)" "$v" "ns/event" "same boot"
done

# ---- stacks: the on-CPU sampler against perf record -g, same runs.
step stacks tests/bench/stacks/stacks_bench.sh "$build" 7 3 4999
for w in fxtrace perf perf_nostack bpf_floor; do
	line=$(grep "^STACKS_BENCH $w " "$logs/stacks.log" || true)
	need "stacks $w" "$line"
	set -- $line
	case $w in
	fxtrace) what="kernel:sample, BPF" ;;
	perf) what="perf record -g -e cpu-clock" ;;
	perf_nostack) what="perf record -e cpu-clock, no stacks" ;;
	bpf_floor) what="bpftrace profile:hz, empty (BPF floor)" ;;
	esac
	put stacks "$what" "$4" "ns/sample" "4999 Hz; $3 work/s"
done
line=$(grep "^STACKS_BENCH above_bpf_floor " "$logs/stacks.log" || true)
need "stacks above_bpf_floor" "$line"
set -- $line
put stacks "kernel:sample above the BPF floor" "$3" "ns/sample" "perf -g: $4 ns"
line=$(grep "^STACKS_BENCH tracer " "$logs/stacks.log" || true)
need "stacks tracer" "$line"
set -- $line
ms=$(sed -n 's/^STACKS_BENCH tracer_run_ms //p' "$logs/stacks.log")
need "stacks tracer_run_ms" "$ms"
put stacks "fxtraced + tracectl CPU" "$3" "ns/sample" "perf record -g's: $4 ns, without -g: $5 ns; per 3 s run, start and stop included: $ms ms"
line=$(grep "^STACKS_BENCH ratio " "$logs/stacks.log" || true)
need "stacks ratio" "$line"
set -- $line
put stacks "fxtrace/perf -g overhead" "$3" "x perf" "above the BPF floor: x$4"
line=$(grep "^STACKS_BENCH ratio_with_tracers " "$logs/stacks.log" || true)
need "stacks ratio with tracers" "$line"
set -- $line
put stacks "fxtrace/perf -g, tracers' CPU too" "$3" "x perf" "above the BPF floor: x$4"
prog=$(sed -n 's/^STACKS_BENCH prog //p' "$logs/stacks.log")
put stacks "BPF program per sample" "${prog:-?}" "ns" "kernel.bpf_stats_enabled, every CPU's samples"
# The walk with unwinding tables against frame pointers alone and perf's
# copied stacks (--call-graph dwarf), same runs.
for w in fxtrace_fp perf_dwarf; do
	line=$(grep "^STACKS_BENCH $w " "$logs/stacks.log" || true)
	need "stacks $w" "$line"
	set -- $line
	case $w in
	fxtrace_fp) what="kernel:sample, BPF, frame pointers alone" ;;
	perf_dwarf) what="perf record --call-graph dwarf -e cpu-clock" ;;
	esac
	put stacks "$what" "$4" "ns/sample" "4999 Hz; $3 work/s"
done
line=$(grep "^STACKS_BENCH tables_over_fp " "$logs/stacks.log" || true)
need "stacks tables_over_fp" "$line"
set -- $line
put stacks "unwinding tables over frame pointers" "$3" "ns/sample" "with the manager's CPU: $4 ns; medians of the per-run differences"
line=$(grep "^STACKS_BENCH tables_vs_dwarf " "$logs/stacks.log" || true)
need "stacks tables_vs_dwarf" "$line"
set -- $line
put stacks "kernel:sample (tables)/perf --call-graph dwarf" "$3" "x perf" "overhead per sample; with the tracers' CPU: x$4"
line=$(grep "^STACKS_BENCH above_bpf_floor_fp_dwarf " "$logs/stacks.log" || true)
need "stacks above_bpf_floor_fp_dwarf" "$line"
set -- $line
put stacks "kernel:sample (tables)/perf --call-graph dwarf above the BPF floor" "$5" "x perf" "frame pointers alone: $3 ns, perf dwarf: $4 ns above the floor"
prog=$(sed -n 's/^STACKS_BENCH prog_fp //p' "$logs/stacks.log")
put stacks "BPF program per sample, frame pointers alone" "${prog:-?}" "ns" "kernel.bpf_stats_enabled"

# ---- Python frames: an unmodified CPython sampled at the default rate.
step pyframes tests/bench/stacks/python_frames_bench.sh "$build" 7 3
for w in fxtrace native; do
	line=$(grep "^PYFRAMES_BENCH $w " "$logs/pyframes.log" || true)
	need "pyframes $w" "$line"
	set -- $line
	case $w in
	fxtrace) what="Python program sampled, Python frames (499 Hz)" ;;
	native) what="Python program sampled, native frames only (499 Hz)" ;;
	esac
	put pyframes "$what" "$4" "% slower" "$3 work/s; untraced $(sed -n 's/^PYFRAMES_BENCH none \([0-9]*\).*/\1/p' "$logs/pyframes.log")"
done
for w in prog prog_native; do
	v=$(sed -n "s/^PYFRAMES_BENCH $w //p" "$logs/pyframes.log")
	case $w in
	prog) what="BPF program per sample, Python frames" ;;
	prog_native) what="BPF program per sample, native frames only" ;;
	esac
	put pyframes "$what" "${v:-?}" "ns" "kernel.bpf_stats_enabled; 20 Python calls deep"
done

# ---- saturation.
step saturation tests/bench/saturation/saturation.sh "$build" 30
for w in fxtrace ftrace perf; do
	line=$(grep "^SATURATION $w " "$logs/saturation.log" || true)
	need "saturation $w" "$line"
	set -- $line
	put saturation "$w" "$(awk -v e="$3" -v l="$4" 'BEGIN {
		printf "%.1f", (e + l) ? l * 1e6 / (e + l) : 0 }')" "lost/M" "$3 events, $4 lost"
done

# ---- stop vs cp.
step stop tests/bench/stop/stop_bench.sh "$build" 1024 3 4
line=$(grep "^STOP_BENCH " "$logs/stop.log")
need "stop figures" "$line"
stop_ms=; cp_sync_ms=; cp_ms=; bytes=; stream_bytes=; stream_ms=
eval "$(echo "$line" | cut -d' ' -f2-)"
put stop "tracectl stop" "$stop_ms" "ms" "$bytes bytes, 4 oneshot providers"
put stop "cp + sync" "$cp_sync_ms" "ms" "stop/(cp+sync) $(awk -v s="$stop_ms" -v c="$cp_sync_ms" 'BEGIN { printf "%.2f", s / c }')"
put stop "cp" "$cp_ms" "ms" "stop/cp $(awk -v s="$stop_ms" -v c="$cp_ms" 'BEGIN { printf "%.2f", s / c }')"
put stop "streaming start to stop" "$stream_ms" "ms" "$stream_bytes bytes, default buffers; /(cp+sync) $(awk -v s="$stream_ms" -v c="$cp_sync_ms" 'BEGIN { printf "%.2f", s / c }')"

# ---- convert: 1 GiB archive, 3 runs, against cat of the same file.
convert_runs() {
	"$build/tests/bench/convert/convert_bench_gen" "$logs/big.fxt" 1024 &&
	for _ in 1 2 3; do
		/usr/bin/time -f "convert %e s %M KB" \
			"$build/daemon/tracectl/tracectl" convert "$logs/big.fxt" -o /dev/null &&
		/usr/bin/time -f "cat %e s %M KB" cat "$logs/big.fxt" >/dev/null || return 1
	done
	echo "bytes $(stat -c %s "$logs/big.fxt")"
	rm -f "$logs/big.fxt"
}
step convert convert_runs
bytes=$(sed -n 's/^bytes //p' "$logs/convert.log")
need "convert figures" "$bytes"
for w in convert cat; do
	sec=$(awk -v w="$w" '$1 == w { print $2 }' "$logs/convert.log" | sort -n | sed -n 2p)
	rss=$(awk -v w="$w" '$1 == w { print $4 }' "$logs/convert.log" | sort -n | sed -n 2p)
	need "$w time" "$sec"
	mbs=$(awk -v b="$bytes" -v s="$sec" 'BEGIN { printf "%.0f", b / 1048576 / s }')
	if [ "$w" = convert ]; then
		put convert "tracectl convert -o /dev/null" "$mbs" "MB/s" "peak RSS $rss KB, 1 GiB archive"
	else
		put convert "cat (peer)" "$mbs" "MB/s" "the same file from the page cache"
	fi
done

# ---- merge: three archives, 1 GiB in all, 5 runs.
step merge tests/bench/merge/merge_bench.sh "$build" 1024 5
line=$(grep "^MERGE_BENCH " "$logs/merge.log")
need "merge figures" "$line"
bytes=; null_ms=; null_cpu_ms=; file_ms=; rss_kb=; cat_ms=; read_ms=; cp_ms=
eval "$(echo "$line" | cut -d' ' -f2-)"
mbs() { awk -v b="$bytes" -v ms="$1" 'BEGIN { printf "%.0f", b / 1048576 / (ms / 1000) }'; }
put merge "tracectl merge -o /dev/null" "$(mbs "$null_ms")" "MB/s" "of input, 3 hosts' archives, $bytes bytes; peak RSS $rss_kb KB"
put merge "tracectl merge -o FILE" "$(mbs "$file_ms")" "MB/s" "of input; the output written to the page cache"
put merge "cat into one FILE (peer)" "$(mbs "$cp_ms")" "MB/s" "the same bytes written, no merge"

# ---- export: 5 M events into a local ClickHouse, 3 runs.
step export tests/bench/export/export_bench.sh "$build" 500000 3
line=$(grep "^EXPORT_BENCH " "$logs/export.log")
need "export figures" "$line"
events=; events_per_s=; rss_kb=; cpu_ms=; wall_ms=; bytes=
eval "$(echo "$line" | cut -d' ' -f2-)"
put export "tracectl export into ClickHouse" "$events_per_s" "events/s" "$events events ($bytes bytes); peak RSS $rss_kb KB, tracectl CPU $cpu_ms ms of $wall_ms ms; the server on the same CPUs"

took=$(($(date +%s) - began))
python3 - "$res" "$json" "$took" <<'EOF'
import json, os, platform, subprocess, sys
res, out, took = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [l.rstrip("\n").split("\t") for l in open(res) if l.strip()]
cpu = "?"
for l in open("/proc/cpuinfo"):
    if l.startswith("model name"):
        cpu = l.split(":", 1)[1].strip()
        break
machine = {"cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release(),
           "memory_gb": round(os.sysconf("SC_PAGE_SIZE") *
                              os.sysconf("SC_PHYS_PAGES") / 2**30)}
print("machine: %(cpu)s, %(cpus)s CPUs, %(memory_gb)s GB, kernel %(kernel)s" % machine)
print("| section | what | median | unit | notes |")
print("| --- | --- | ---: | --- | --- |")
for s, n, v, u, note in rows:
    print("| %s | %s | %s | %s | %s |" % (s, n, v, u, note))
print("bench.sh took %d s" % took)
json.dump({"machine": machine, "seconds": took,
           "rows": [{"section": s, "name": n, "value": float(v) if v.replace('.', '', 1).lstrip('-').isdigit() else v,
                     "unit": u, "note": note} for s, n, v, u, note in rows]},
          open(out, "w"), indent=1)
print("written: %s" % out)
EOF
