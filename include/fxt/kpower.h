/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:power records as the kernel side writes them, one definition
 * for the kernel module and the BPF program: a counter event per
 * power:cpu_idle and power:cpu_frequency, on the kernel process
 * (include/fxt/kdev.h), with the CPU number as the counter id. Perfetto
 * draws one track per name, argument and id: "cpu_idle:state:<cpu>",
 * "cpu_frequency:khz:<cpu>".
 */
#ifndef FXT_KPOWER_H
#define FXT_KPOWER_H

#include "fxt.h"
#include "kdev.h"

#define FXT_KPOWER_COUNTER_WORDS 6u

/* The idle state the kernel reports when a CPU leaves idle. */
#define FXT_KPOWER_IDLE_EXIT 0xffffffffu

static inline void fxt_kpower_write_counter(__u64 *w, __u16 name, __u64 ts,
					    __u64 cpu, __u64 arg)
{
	w[0] = fxt_event_header(FXT_KPOWER_COUNTER_WORDS, FXT_EVENT_COUNTER, 1,
				0, FXT_KDEV_STR_CAT_POWER, name);
	w[1] = ts;
	w[2] = FXT_KDEV_KERNEL_KOID;
	w[3] = FXT_KDEV_KERNEL_KOID;
	w[4] = arg;
	w[5] = cpu;
}

/*
 * "cpu_idle", int32 "state": the idle state the CPU enters (0 = the
 * shallowest), or -1 when it leaves idle and runs again.
 */
static inline void fxt_kpower_write_idle(__u64 *w, __u64 ts, __u32 cpu,
					 __u32 state)
{
	fxt_kpower_write_counter(w, FXT_KDEV_STR_CPU_IDLE, ts, cpu,
				 fxt_arg_header(FXT_ARG_INT32, 1,
						FXT_KDEV_STR_STATE, state));
}

/* "cpu_frequency", uint32 "khz": the CPU's new frequency in kHz. */
static inline void fxt_kpower_write_frequency(__u64 *w, __u64 ts, __u32 cpu,
					      __u32 khz)
{
	fxt_kpower_write_counter(w, FXT_KDEV_STR_CPU_FREQUENCY, ts, cpu,
				 fxt_kdev_uint32_arg(FXT_KDEV_STR_KHZ, khz));
}

#endif /* FXT_KPOWER_H */
