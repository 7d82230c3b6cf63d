#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The on-CPU sampler's cost per sample against perf's: stack-workload
# --bench (a CPU-bound loop in frame-pointer code, pinned to the last
# CPU) measures the work it does per second of its own CPU time
# (interrupts while it runs included), RUNS times, each run taking in
# turn (the order rotating from run to run):
#   none       untraced
#   fxtrace    tracectl record --mode streaming --kernel=bpf
#              --categories kernel:sample --sample-rate HZ (every CPU)
#   perf       perf record -g -e cpu-clock -F HZ of the workload (-B:
#              no build-ids, whose collection at the end aborts now and
#              then in Debian 12's perf 6.1, "assertion failed at
#              util/build-id.c:1010"; it only lowers perf's own CPU time)
#   perf_nostack  perf record -e cpu-clock -F HZ: perf's own floor
#   fxtrace_fp the same by a manager that gives the walkers no unwinding
#              tables (FXTRACED_NO_UNWIND_TABLES): user stacks by
#              frame pointers alone, as before tables
#   perf_dwarf perf record --call-graph dwarf -e cpu-clock -F HZ: 8 KiB
#              of user stack copied per sample, unwound afterwards (its
#              tracer CPU includes perf script's, which unwinds and names
#              them: ours does both in the trace)
#   bpf_floor  bpftrace -e 'profile:hz:HZ { }': an empty BPF program on
#              the same per-CPU cpu-clock perf events as ours, the floor
#              every BPF sampler pays (the timer's interrupt, perf_event
#              and the BPF dispatch; in a VM, most of the cost)
# The overhead of a capture is 1 - its work/s over the same run's
# untraced work/s; per sample, that fraction of a second over HZ
# samples. The tracers' own CPU time, per sample of the workload (HZ per
# second of its CPU time): perf record's process, and fxtraced's (utime
# + stime around the capture, stop included) with tracectl's.
# Prints, medians of the runs:
#   STACKS_BENCH name work_per_s overhead_ns_per_sample   (each capture)
#   STACKS_BENCH above_bpf_floor FXTRACE_NS PERF_NS   (minus bpf_floor)
#   STACKS_BENCH tracer FXTRACE_NS PERF_NS PERF_NOSTACK_NS
#   STACKS_BENCH tracer_run_ms FXTRACE_MS PERF_MS PERF_NOSTACK_MS
#   STACKS_BENCH ratio WHOLE ABOVE_BPF_FLOOR     (fxtrace over perf)
#   STACKS_BENCH ratio_with_tracers WHOLE ABOVE_BPF_FLOOR
#   STACKS_BENCH tracer_fp_dwarf FXTRACE_FP_NS PERF_DWARF_NS
#   STACKS_BENCH tables_over_fp NS NS_WITH_TRACERS  (fxtrace - fxtrace_fp)
#   STACKS_BENCH tables_vs_dwarf RATIO RATIO_WITH_TRACERS
#                                       (fxtrace over perf_dwarf)
#   STACKS_BENCH above_bpf_floor_fp_dwarf FXTRACE_FP_NS PERF_DWARF_NS
#                                       RATIO (fxtrace over perf_dwarf)
# (a ratio above the floor is "-" when perf's excess was not positive in
# any run); then the sampling program's own run time per run
# (kernel.bpf_stats_enabled for one more capture, then set back):
#   STACKS_BENCH prog NS
#   STACKS_BENCH prog_fp NS   (the same without tables)
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
mgr_fp=""
cleanup() {
	[ -z "${floor_pid:-}" ] || kill -TERM "$floor_pid" 2>/dev/null || true
	[ -z "$mgr" ] || kill "$mgr" 2>/dev/null || true
	[ -z "$mgr_fp" ] || kill "$mgr_fp" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

fail() {
	echo "stacks_bench: $*" >&2
	exit 1
}

command -v perf >/dev/null || fail "perf not found (apt-get install linux-perf)"
. "$(dirname "$0")/sampler_lib.sh"
export FXTRACE_SOCKET=$work/manager.sock
start_fxtraced "$FXTRACE_SOCKET" "$work/fxtraced.log"
mgr=$started
fp_socket=$work/manager-fp.sock
start_fxtraced "$fp_socket" "$work/fxtraced-fp.log" FXTRACED_NO_UNWIND_TABLES=1
mgr_fp=$started

# children_ns: sets children to the CPU time of this shell's finished
# children, in ns (from times, which must run in this shell, not in a
# command substitution's subshell: that one counts its own children).
children_ns() {
	times >"$work/times"
	children=$(awk 'NR == 2 { t = 0
		for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] }
		printf "%.0f\n", t * 1e9 }' "$work/times")
}

# manager_ns: fxtraced's CPU time so far (every thread's, gone ones
# included), in ns.
clk_tck=$(getconf CLK_TCK)
manager_ns() {
	sed 's/.*) //' "/proc/${1:-$mgr}/stat" |
		awk -v tck="$clk_tck" '{ printf "%.0f\n", ($12 + $13) * 1e9 / tck }'
}

# tracer_ns BEFORE AFTER OUT: what a tracer's processes spent of the
# children's CPU time BEFORE..AFTER, once the workload's own (in OUT)
# is taken out.
tracer_ns() {
	echo $(($2 - $1 - $(value cpu_ns "$3")))
}

bench=(taskset -c "$cpu" "$workload" --bench "$secs")

# capture NAME: runs the workload under NAME into $work/NAME.out and
# its tracer's CPU time into $work/NAME.tracer.
capture() {
	local c0 c1 m0 m1 g=""
	echo 0 >"$work/$1.tracer"
	case $1 in
	none)
		"${bench[@]}" >"$work/none.out"
		;;
	fxtrace)
		m0=$(manager_ns)
		children_ns
		c0=$children
		"$tracectl" record -o "$work/t.fxt" --mode streaming \
			--kernel=bpf --categories kernel:sample \
			--sample-rate "$hz" -- "${bench[@]}" \
			>"$work/fxtrace.out" 2>&1 ||
			{ cat "$work/fxtrace.out" >&2; fail "tracectl record"; }
		children_ns
		c1=$children
		m1=$(manager_ns)
		echo $(($(tracer_ns "$c0" "$c1" "$work/fxtrace.out") + m1 - m0)) \
			>"$work/fxtrace.tracer"
		rm -f "$work/t.fxt"
		;;
	fxtrace_fp)
		m0=$(manager_ns "$mgr_fp")
		children_ns
		c0=$children
		FXTRACE_SOCKET=$fp_socket "$tracectl" record -o "$work/t.fxt" \
			--mode streaming --kernel=bpf --categories kernel:sample \
			--sample-rate "$hz" -- "${bench[@]}" \
			>"$work/fxtrace_fp.out" 2>&1 ||
			{ cat "$work/fxtrace_fp.out" >&2; fail "tracectl record (fp)"; }
		children_ns
		c1=$children
		m1=$(manager_ns "$mgr_fp")
		echo $(($(tracer_ns "$c0" "$c1" "$work/fxtrace_fp.out") + m1 - m0)) \
			>"$work/fxtrace_fp.tracer"
		rm -f "$work/t.fxt"
		;;
	perf_dwarf)
		children_ns
		c0=$children
		perf record -q -B --call-graph dwarf -e cpu-clock -F "$hz" \
			-o "$work/perf.data" -- "${bench[@]}" \
			>"$work/perf_dwarf.out" 2>&1 ||
			{ cat "$work/perf_dwarf.out" >&2; fail "perf record --call-graph dwarf"; }
		# Its stacks unwound and named, as ours are at the stop.
		perf script -i "$work/perf.data" >/dev/null 2>&1 ||
			fail "perf script of --call-graph dwarf"
		children_ns
		c1=$children
		tracer_ns "$c0" "$c1" "$work/perf_dwarf.out" >"$work/perf_dwarf.tracer"
		rm -f "$work/perf.data"
		;;
	perf | perf_nostack)
		[ "$1" = perf_nostack ] || g=-g
		children_ns
		c0=$children
		perf record -q -B $g -e cpu-clock -F "$hz" -o "$work/perf.data" -- \
			"${bench[@]}" >"$work/$1.out" 2>&1 ||
			{ cat "$work/$1.out" >&2; fail "perf record $g"; }
		children_ns
		c1=$children
		tracer_ns "$c0" "$c1" "$work/$1.out" >"$work/$1.tracer"
		rm -f "$work/perf.data"
		;;
	bpf_floor)
		bpf_floor "$hz" "$work/bpf_floor.out" "${bench[@]}"
		;;
	esac
}

captures=(none fxtrace perf perf_nostack bpf_floor fxtrace_fp perf_dwarf)
n=${#captures[@]}
: >"$work/rows"
for run in $(seq "$runs"); do
	for i in $(seq 0 $((n - 1))); do
		capture "${captures[$(((i + run) % n))]}"
	done
	row=""
	for c in none fxtrace perf perf_nostack bpf_floor; do
		row="$row $(value iterations_per_sec "$work/$c.out")"
	done
	for c in fxtrace perf perf_nostack; do
		row="$row $(cat "$work/$c.tracer") $(value cpu_ns "$work/$c.out")"
	done
	for c in fxtrace_fp perf_dwarf; do
		row="$row $(value iterations_per_sec "$work/$c.out")"
	done
	for c in fxtrace_fp perf_dwarf; do
		row="$row $(cat "$work/$c.tracer") $(value cpu_ns "$work/$c.out")"
	done
	echo "run $run: work/s ${captures[*]}; tracer ns, workload cpu ns of" \
		"fxtrace perf perf_nostack:$row"
	echo "$row" >>"$work/rows"
done

awk -v hz="$hz" '
function median(a, n,   i, j, t) {
	if (!n)
		return "-"
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(f, v) {
	return v == "-" ? v : sprintf(f, v)
}
# per_sample(WORK): the overhead per sample of a capture that did WORK.
function per_sample(w) {
	return (1 - w / $1) * 1e9 / hz
}
# tracer(NS, CPU_NS): a tracer CPU time per sample of the workload.
function tracer(t, c) {
	return c > 0 ? t / (c / 1e9 * hz) : 0
}
{
	n++
	for (i = 1; i <= 5; i++)
		work[i, n] = $i
	o = per_sample($2); p = per_sample($3); q = per_sample($4)
	b = per_sample($5)
	ov[2, n] = o; ov[3, n] = p; ov[4, n] = q; ov[5, n] = b
	ot = tracer($6, $7); pt = tracer($8, $9)
	tr[1, n] = ot; tr[2, n] = pt; tr[3, n] = tracer($10, $11)
	ms[1, n] = $6 / 1e6; ms[2, n] = $8 / 1e6; ms[3, n] = $10 / 1e6
	above_o[n] = o - b; above_p[n] = p - b
	whole[n] = p > 0 ? o / p : 0
	whole_t[n] = p + pt > 0 ? (o + ot) / (p + pt) : 0
	if (p - b > 0)
		beyond[++nb] = (o - b) / (p - b)
	if (p + pt - b > 0)
		beyond_t[++nbt] = (o + ot - b) / (p + pt - b)
	f = per_sample($12); d = per_sample($13)
	ov[6, n] = f; ov[7, n] = d
	work[6, n] = $12; work[7, n] = $13
	ft = tracer($14, $15); dt = tracer($16, $17)
	tr[4, n] = ft; tr[5, n] = dt
	over_fp[n] = o - f
	over_fp_t[n] = o + ot - f - ft
	above_f[n] = f - b; above_d[n] = d - b
	if (d - b > 0)
		beyond_d[++nbd] = (o - b) / (d - b)
	if (d > 0)
		vs_dwarf[++nd] = o / d
	if (d + dt > 0)
		vs_dwarf_t[++ndt] = (o + ot) / (d + dt)
}
END {
	split("none fxtrace perf perf_nostack bpf_floor fxtrace_fp perf_dwarf", name)
	for (i = 1; i <= 7; i++) {
		for (r = 1; r <= n; r++) {
			w[r] = work[i, r]; v[r] = i > 1 ? ov[i, r] : 0
		}
		printf "STACKS_BENCH %s %.0f %.0f\n", name[i], median(w, n), median(v, n)
	}
	printf "STACKS_BENCH above_bpf_floor %.0f %.0f\n", median(above_o, n), median(above_p, n)
	for (i = 1; i <= 3; i++) {
		for (r = 1; r <= n; r++)
			v[r] = tr[i, r]
		t[i] = median(v, n)
	}
	printf "STACKS_BENCH tracer %.0f %.0f %.0f\n", t[1], t[2], t[3]
	for (i = 1; i <= 3; i++) {
		for (r = 1; r <= n; r++)
			v[r] = ms[i, r]
		t[i] = median(v, n)
	}
	printf "STACKS_BENCH tracer_run_ms %.0f %.0f %.0f\n", t[1], t[2], t[3]
	printf "STACKS_BENCH ratio %.2f %s\n", median(whole, n), fmt("%.2f", median(beyond, nb))
	printf "STACKS_BENCH ratio_with_tracers %.2f %s\n", median(whole_t, n), fmt("%.2f", median(beyond_t, nbt))
	for (i = 4; i <= 5; i++) {
		for (r = 1; r <= n; r++)
			v[r] = tr[i, r]
		t[i] = median(v, n)
	}
	printf "STACKS_BENCH tracer_fp_dwarf %.0f %.0f\n", t[4], t[5]
	printf "STACKS_BENCH tables_over_fp %.0f %.0f\n", median(over_fp, n), median(over_fp_t, n)
	printf "STACKS_BENCH tables_vs_dwarf %s %s\n", fmt("%.2f", median(vs_dwarf, nd)), fmt("%.2f", median(vs_dwarf_t, ndt))
	printf "STACKS_BENCH above_bpf_floor_fp_dwarf %.0f %.0f %s\n", median(above_f, n), median(above_d, n), fmt("%.2f", median(beyond_d, nbd))
}' "$work/rows"

# The program's own time per run, from the kernel's BPF statistics: with
# tables, then by frame pointers alone.
stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
prog_ns STACKS_BENCH prog "$FXTRACE_SOCKET" "--sample-rate $hz" "${bench[@]}"
prog_ns STACKS_BENCH prog_fp "$fp_socket" "--sample-rate $hz" "${bench[@]}"
echo "$stats" >/proc/sys/kernel/bpf_stats_enabled
