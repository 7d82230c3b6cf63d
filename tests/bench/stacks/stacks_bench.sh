#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The on-CPU sampler's cost per sample against perf's: stack-workload
# --bench (a CPU-bound loop in frame-pointer code, pinned to the last
# CPU) measures the work it does per second of its own CPU time
# (interrupts while it runs included), RUNS times, each run
# interleaving:
#   none     untraced
#   fxtrace  tracectl record --mode streaming --kernel=bpf
#            --categories kernel:sample --sample-rate HZ (every CPU)
#   perf     perf record -g -e cpu-clock -F HZ of the workload
#   floor    perf record -e cpu-clock -F HZ, no stacks: the timer's
#            interrupt and a bare sample (in a VM, most of the cost)
# The overhead of a capture is 1 - its work/s over the same run's
# untraced work/s; per sample, that fraction of a second over HZ
# samples. Prints per capture the median work/s and overhead per sample,
# the median of each run's ratio fxtrace/perf of the overheads, and of
# their ratio beyond the floor, as "STACKS_BENCH name median_work_per_s
# overhead_ns_per_sample" and "STACKS_BENCH ratio R BEYOND_FLOOR" lines;
# then the sampling program's own run time per run (kernel.bpf_stats_
# enabled for one more capture, then set back): "STACKS_BENCH prog NS".
#
# usage: stacks_bench.sh BUILDDIR [RUNS [SECONDS [HZ]]]  (root; defaults
# 7 runs of 3 s at 4999 Hz: at perf's default rate the overhead is in
# the noise of a shared machine)
set -eu -o pipefail

build=$(cd "$1" && pwd)
runs=${2:-7}
secs=${3:-3}
hz=${4:-4999}
fxtraced=$build/daemon/fxtraced/fxtraced
tracectl=$build/daemon/tracectl/tracectl
workload=$build/tests/stacks/stack-workload
cpu=$(($(nproc) - 1))
work=$(mktemp -d /var/tmp/stacks_bench.XXXXXX)
mgr=""
cleanup() {
	[ -z "$mgr" ] || kill "$mgr" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "stacks_bench: $*" >&2
	exit 1
}

command -v perf >/dev/null || fail "perf not found (apt-get install linux-perf)"
export FXTRACE_SOCKET=$work/manager.sock
"$fxtraced" --socket "$FXTRACE_SOCKET" >"$work/fxtraced.log" 2>&1 &
mgr=$!
for _ in $(seq 100); do
	"$tracectl" status >/dev/null 2>&1 && break
	sleep 0.1
done
"$tracectl" status >/dev/null 2>&1 || fail "fxtraced did not start"

# ips OUT: the work per second the workload printed in OUT.
ips() {
	v=$(sed -n 's/^iterations_per_sec=//p' "$1")
	[ -n "$v" ] || { cat "$1" >&2; fail "no figure in $1"; }
	echo "$v"
}

bench=(taskset -c "$cpu" "$workload" --bench "$secs")
: >"$work/rows"
for run in $(seq "$runs"); do
	"${bench[@]}" >"$work/none.out"
	"$tracectl" record -o "$work/t.fxt" --mode streaming --kernel=bpf \
		--categories kernel:sample --sample-rate "$hz" -- \
		"${bench[@]}" >"$work/fxtrace.out" 2>&1 ||
		{ cat "$work/fxtrace.out" >&2; fail "tracectl record"; }
	for p in perf floor; do
		g=-g
		[ $p = perf ] || g=""
		perf record -q $g -e cpu-clock -F "$hz" -o "$work/perf.data" -- \
			"${bench[@]}" >"$work/$p.out" 2>&1 ||
			{ cat "$work/$p.out" >&2; fail "perf record $g"; }
	done
	row="$(ips "$work/none.out") $(ips "$work/fxtrace.out") $(ips "$work/perf.out") $(ips "$work/floor.out")"
	echo "run $run: work/s none fxtrace perf floor: $row"
	echo "$row" >>"$work/rows"
	rm -f "$work/t.fxt" "$work/perf.data"
done

awk -v hz="$hz" '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	n++
	none[n] = $1; ours[n] = $2; perf[n] = $3; bare[n] = $4
	o = 1 - $2 / $1; p = 1 - $3 / $1; f = 1 - $4 / $1
	po[n] = o * 1e9 / hz; pp[n] = p * 1e9 / hz; pf[n] = f * 1e9 / hz
	ratio[n] = p > 0 ? o / p : 0
	beyond[n] = p - f > 0 ? (o - f) / (p - f) : 0
}
END {
	printf "STACKS_BENCH none %.0f 0\n", median(none, n)
	printf "STACKS_BENCH fxtrace %.0f %.0f\n", median(ours, n), median(po, n)
	printf "STACKS_BENCH perf %.0f %.0f\n", median(perf, n), median(pp, n)
	printf "STACKS_BENCH floor %.0f %.0f\n", median(bare, n), median(pf, n)
	printf "STACKS_BENCH ratio %.2f %.2f\n", median(ratio, n), median(beyond, n)
}' "$work/rows"

# The program's own time per run, from the kernel's BPF statistics.
stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
"$tracectl" start -o "$work/t.fxt" --mode streaming --kernel=bpf \
	--categories kernel:sample --sample-rate "$hz" >/dev/null
"${bench[@]}" >/dev/null
bpftool prog show name fxt_sample >"$work/prog" 2>&1 || true
"$tracectl" stop >/dev/null
echo "$stats" >/proc/sys/kernel/bpf_stats_enabled
awk '{ for (i = 1; i < NF; i++) { if ($i == "run_time_ns") t = $(i + 1)
	if ($i == "run_cnt") c = $(i + 1) } }
	END { if (c) printf "STACKS_BENCH prog %.0f\n", t / c }' "$work/prog"
