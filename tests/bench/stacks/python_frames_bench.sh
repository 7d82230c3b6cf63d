#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What Python frames in the samples cost an unmodified CPython program:
# py_bench.py (Debian's /usr/bin/python3, pure Python 20 calls deep,
# pinned to the last CPU) measures the work it does per second of its
# own CPU time, RUNS times, each run taking in turn (the order rotating):
#   none     untraced
#   fxtrace  tracectl record --mode streaming --kernel=bpf
#            --categories kernel:sample at the default rate (499 Hz):
#            native frames by tables, Python frames read by the walker
#   native   the same by a manager that gives no process Python frames
#            (FXTRACED_NO_PYTHON_FRAMES): what sampling cost before
#   bpf_floor bpftrace -e 'profile:hz:499 { }': an empty BPF program on
#            the same per-CPU cpu-clock perf events, the floor every BPF
#            sampler pays (the timer's interrupt, perf_event and the BPF
#            dispatch; in a VM, most of the cost)
# The overhead of a capture is 1 - its work/s over the same run's
# untraced work/s. Prints, medians of the runs:
#   PYFRAMES_BENCH name work_per_s overhead_percent   (each capture)
#   PYFRAMES_BENCH python_over_native PERCENT_POINTS
#   PYFRAMES_BENCH above_bpf_floor PYTHON_POINTS NATIVE_POINTS
# then the sampling program's own run time per run with Python frames
# and without (kernel.bpf_stats_enabled for one more capture each):
#   PYFRAMES_BENCH prog NS
#   PYFRAMES_BENCH prog_native NS
# and how many Python frames the walker read per sample (stop's
# journal line).
#
# usage: python_frames_bench.sh BUILDDIR [RUNS [SECONDS]]  (root;
# defaults 7 runs of 3 s)
set -eu -o pipefail

build=$(cd "$1" && pwd)
runs=${2:-7}
secs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
fxtraced=$build/daemon/fxtraced/fxtraced
tracectl=$build/daemon/tracectl/tracectl
cpu=$(($(nproc) - 1))
work=$(mktemp -d /var/tmp/pyframes_bench.XXXXXX)
mgr=""
mgr_native=""
cleanup() {
	[ -z "${floor_pid:-}" ] || kill -TERM "$floor_pid" 2>/dev/null || true
	[ -z "$mgr" ] || kill "$mgr" 2>/dev/null || true
	[ -z "$mgr_native" ] || kill "$mgr_native" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "python_frames_bench: $*" >&2
	exit 1
}

. "$here/sampler_lib.sh"
start_fxtraced "$work/py.sock" "$work/fxtraced.log"
mgr=$started
start_fxtraced "$work/native.sock" "$work/fxtraced-native.log" \
	FXTRACED_NO_PYTHON_FRAMES=1
mgr_native=$started

bench=(taskset -c "$cpu" /usr/bin/python3 "$here/py_bench.py" "$secs")

# capture NAME: the workload under NAME, its output in $work/NAME.out.
capture() {
	local sock=$work/py.sock
	case $1 in
	none)
		"${bench[@]}" >"$work/none.out"
		return
		;;
	bpf_floor)
		bpf_floor 499 "$work/bpf_floor.out" "${bench[@]}"
		return
		;;
	native) sock=$work/native.sock ;;
	esac
	FXTRACE_SOCKET=$sock "$tracectl" record -o "$work/t.fxt" \
		--mode streaming --kernel=bpf --categories kernel:sample \
		-- "${bench[@]}" >"$work/$1.out" 2>&1 ||
		{ cat "$work/$1.out" >&2; fail "tracectl record ($1)"; }
	rm -f "$work/t.fxt"
}

captures=(none fxtrace native bpf_floor)
n=${#captures[@]}
: >"$work/rows"
for run in $(seq "$runs"); do
	for i in $(seq 0 $((n - 1))); do
		capture "${captures[$(((i + run) % n))]}"
	done
	row=""
	for c in none fxtrace native bpf_floor; do
		row="$row $(value iterations_per_sec "$work/$c.out")"
	done
	echo "run $run: work/s none fxtrace native bpf_floor:$row"
	echo "$row" >>"$work/rows"
done

awk '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	n++
	none[n] = $1; py[n] = $2; nat[n] = $3; fl[n] = $4
	opy[n] = 100 * (1 - $2 / $1)
	onat[n] = 100 * (1 - $3 / $1)
	ofl[n] = 100 * (1 - $4 / $1)
	over[n] = opy[n] - onat[n]
	apy[n] = opy[n] - ofl[n]
	anat[n] = onat[n] - ofl[n]
}
END {
	printf "PYFRAMES_BENCH none %.0f 0\n", median(none, n)
	printf "PYFRAMES_BENCH fxtrace %.0f %.2f\n", median(py, n), median(opy, n)
	printf "PYFRAMES_BENCH native %.0f %.2f\n", median(nat, n), median(onat, n)
	printf "PYFRAMES_BENCH bpf_floor %.0f %.2f\n", median(fl, n), median(ofl, n)
	printf "PYFRAMES_BENCH python_over_native %.2f\n", median(over, n)
	printf "PYFRAMES_BENCH above_bpf_floor %.2f %.2f\n", median(apy, n), median(anat, n)
}' "$work/rows"

# The program's own time per run, with Python frames and without.
stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
prog_ns PYFRAMES_BENCH prog "$work/py.sock" "" "${bench[@]}"
prog_ns PYFRAMES_BENCH prog_native "$work/native.sock" "" "${bench[@]}"
echo "$stats" >/proc/sys/kernel/bpf_stats_enabled
grep 'Python frames:' "$work/fxtraced.log" | tail -n 1 || true
