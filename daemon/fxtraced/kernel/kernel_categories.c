// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel_categories.h"
#include "kernel_session.h"

/*
 * Every kernel category: the events it selects, those whose records it
 * counts (names count under kernel:sched), whether the default has it,
 * and its tracepoints, for the message when this kernel lacks them.
 * Append new categories: the order is the order of tracectl stop's rows.
 */
const struct kernel_category kernel_categories[] = {
	{ "kernel:sched",
	  FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP | FXT_SCHED_EV_NAMES, true,
	  "sched_switch, sched_wakeup, sched_wakeup_new" },
	{ "kernel:proc", FXT_SCHED_EV_PROC | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_PROC, true,
	  "sched_process_fork, sched_process_exec, sched_process_exit" },
	{ "kernel:irq", FXT_SCHED_EV_IRQ, FXT_SCHED_EV_IRQ, false,
	  "irq_handler_entry, irq_handler_exit, softirq_entry, softirq_exit" },
	{ "kernel:syscall", FXT_SCHED_EV_SYSCALL, FXT_SCHED_EV_SYSCALL, false,
	  "raw_syscalls:sys_enter, raw_syscalls:sys_exit" },
	/* Power counters and block requests are on no thread: no names. */
	{ "kernel:power", FXT_SCHED_EV_POWER, FXT_SCHED_EV_POWER, false,
	  "power:cpu_idle, power:cpu_frequency" },
	{ "kernel:block", FXT_SCHED_EV_BLOCK, FXT_SCHED_EV_BLOCK, false,
	  "block:block_rq_issue, block:block_rq_complete" },
	{ "kernel:fault", FXT_SCHED_EV_FAULT | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_FAULT, false, "exceptions:page_fault_user" },
	{ "kernel:mem", FXT_SCHED_EV_MEM | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_MEM, false,
	  "kmem:rss_stat, vmscan:mm_vmscan_direct_reclaim_begin/end" },
	/* Stacks (include/fxt/ksample.h), on threads: names. */
	{ "kernel:sample", FXT_SCHED_EV_SAMPLE | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_SAMPLE, false, "perf cpu-clock" },
	{ "kernel:offcpu", FXT_SCHED_EV_OFFCPU | FXT_SCHED_EV_NAMES,
	  FXT_SCHED_EV_OFFCPU, false, "sched:sched_switch" },
};

const size_t kernel_ncategories =
	sizeof(kernel_categories) / sizeof(*kernel_categories);
#define KERNEL_PREFIX "kernel:"

/*
 * The events of the entry name (len bytes): one category, or with a
 * trailing '*' every category it begins (as a provider matches its
 * categories: "kernel:*" all of them); 0 when none is.
 */
static uint32_t kernel_category_events(const char *name, size_t len)
{
	bool prefix = len && name[len - 1] == '*';
	uint32_t ev = 0;
	size_t i, n;

	if (prefix)
		len--;
	for (i = 0; i < kernel_ncategories; i++) {
		n = strlen(kernel_categories[i].name);
		if ((prefix ? n >= len : n == len) &&
		    !memcmp(kernel_categories[i].name, name, len))
			ev |= kernel_categories[i].events;
	}
	return ev;
}

uint32_t kernel_categories_default(void)
{
	uint32_t ev = 0;
	size_t i;

	for (i = 0; i < kernel_ncategories; i++)
		if (kernel_categories[i].by_default)
			ev |= kernel_categories[i].events;
	return ev;
}

static void kernel_categories_known(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < kernel_ncategories && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 kernel_categories[i].name);
}

int kernel_categories_parse(const char *list, uint32_t *events, char *why,
			    size_t why_len)
{
	const char *p = list ? list : "";
	uint32_t ev = 0, one;
	char known[256];
	size_t len;

	while (*p) {
		len = strcspn(p, ",");
		if (len >= strlen(KERNEL_PREFIX) &&
		    !strncmp(p, KERNEL_PREFIX, strlen(KERNEL_PREFIX))) {
			one = kernel_category_events(p, len);
			if (!one) {
				kernel_categories_known(known, sizeof(known));
				snprintf(why, why_len,
					 "unknown kernel category '%.*s' (known: %s)",
					 (int)len, p, known);
				return -EINVAL;
			}
			ev |= one;
		}
		p += len;
		p += *p == ',';
	}
	*events = ev ? ev : kernel_categories_default();
	return 0;
}

