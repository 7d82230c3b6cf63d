// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor under any kernel category's program, for bpf_overhead: what a
 * BPF program costs on a tracepoint before it records anything. raw_tp
 * programs run through the same bpf_trace_run*() as the backend's tp_btf
 * ones, and attach to any tracepoint by name. Each adds one thing:
 * nothing; the event's time (the backend's clock, CLOCK_BOOTTIME); the
 * time and the current thread's ids (what every record of a thread
 * needs). The helpers' results are dropped: the calls stay, the verifier
 * does not remove a helper call. One program serves every tracepoint of a
 * category: a run nested in another on the same CPU (a hardirq in a
 * softirq's program) is skipped by bpf_trace_run*()'s recursion check,
 * which the backend's separate programs do not meet; it is rare.
 */
#include <linux/types.h>
#include <linux/bpf.h>

#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC("raw_tp")
int floor_empty(void *ctx)
{
	return 0;
}

SEC("raw_tp")
int floor_clock(void *ctx)
{
	bpf_ktime_get_boot_ns();
	return 0;
}

SEC("raw_tp")
int floor_clock_ids(void *ctx)
{
	bpf_ktime_get_boot_ns();
	bpf_get_current_pid_tgid();
	return 0;
}
