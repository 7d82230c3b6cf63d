// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include <fxt/fxt.h>
#include <fxt/kblock.h>
#include <fxt/kfault.h>
#include <fxt/kirq.h>
#include <fxt/kmem.h>
#include <fxt/kpower.h>
#include <fxt/kproc.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#include "krec.h"

#define FAIL(...) do { snprintf(why, why_len, __VA_ARGS__); return 0; } while (0)

static int arg_ok(uint64_t a, unsigned int type, unsigned int words,
		  unsigned int name)
{
	return FXT_GET(a, FXT_ARG_TYPE) == type &&
	       FXT_GET(a, FXT_ARG_SIZE) == words &&
	       FXT_GET(a, FXT_ARG_NAME) == name;
}

static unsigned int decode_sched(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int type = FXT_GET(w[0], FXT_SCHED_TYPE);

	if (FXT_GET(w[0], FXT_SCHED_NARGS) != 2)
		FAIL("scheduling record with %u args",
		     (unsigned int)FXT_GET(w[0], FXT_SCHED_NARGS));
	r->cpu = FXT_GET(w[0], FXT_SCHED_CPU);
	r->ts = w[1];
	if (type == FXT_SCHED_CONTEXT_SWITCH) {
		if (size != FXT_SCHED_SWITCH_WORDS)
			FAIL("context switch of %u words", size);
		if (w[0] >> 40 & fxt_mask(20))
			FAIL("context switch reserved bits set");
		r->kind = KREC_SWITCH;
		r->out_state = FXT_GET(w[0], FXT_SCHED_OUT_STATE);
		if (r->out_state > FXT_THREAD_DEAD)
			FAIL("outgoing state %u", r->out_state);
		r->out_tid = w[2];
		r->in_tid = w[3];
		if (!arg_ok(w[4], FXT_ARG_INT32, 1, FXT_SCHED_STR_OUTGOING_WEIGHT) ||
		    !arg_ok(w[5], FXT_ARG_INT32, 1, FXT_SCHED_STR_INCOMING_WEIGHT))
			FAIL("context switch weights are not int32 args");
		r->out_weight = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		r->in_weight = (int32_t)FXT_GET(w[5], FXT_ARG_VALUE32);
		return size;
	}
	if (type == FXT_SCHED_THREAD_WAKEUP) {
		if (size != FXT_SCHED_WAKEUP_WORDS)
			FAIL("wakeup of %u words", size);
		if (w[0] >> 36 & fxt_mask(24))
			FAIL("wakeup reserved bits set");
		r->kind = KREC_WAKEUP;
		r->tid = w[2];
		if (!arg_ok(w[3], FXT_ARG_INT32, 1, FXT_SCHED_STR_WEIGHT))
			FAIL("wakeup weight is not an int32 arg");
		if (!arg_ok(w[4], FXT_ARG_KOID, 2, FXT_SCHED_STR_WAKER) ||
		    FXT_GET(w[4], FXT_ARG_VALUE32))
			FAIL("wakeup waker is not a koid arg");
		r->weight = (int32_t)FXT_GET(w[3], FXT_ARG_VALUE32);
		r->waker = w[5];
		return size;
	}
	FAIL("scheduling record type %u", type);
}

static unsigned int decode_kobj(const uint64_t *w, unsigned int size,
				struct krec *r, char *why, size_t why_len)
{
	unsigned int obj = FXT_GET(w[0], FXT_KOBJ_TYPE);
	unsigned int ref = FXT_GET(w[0], FXT_KOBJ_NAME);
	unsigned int nargs = FXT_GET(w[0], FXT_KOBJ_NARGS);
	unsigned int len = ref & FXT_STRING_INDEX_MAX;
	unsigned int name_words = fxt_words(len);
	const char *name = (const char *)&w[2];
	unsigned int i;

	if (!(ref & FXT_STRING_REF_INLINE) || len > FXT_SCHED_NAME_MAX)
		FAIL("kernel object name ref 0x%x", ref);
	if (w[0] >> 44)
		FAIL("kernel object reserved bits set");
	for (i = len; i < name_words * 8; i++)
		if (name[i])
			FAIL("name padding not zero");
	if (memchr(name, 0, len))
		FAIL("NUL inside a name");
	memcpy(r->name, name, len);
	r->name[len] = 0;
	r->tid = w[1];
	if (obj == FXT_ZX_OBJ_PROCESS) {
		if (nargs != 0 || size != 2 + name_words)
			FAIL("process object of %u words, %u args", size, nargs);
		r->kind = KREC_PROCESS;
		return size;
	}
	if (obj == FXT_ZX_OBJ_THREAD) {
		const uint64_t *arg = &w[2 + name_words];

		if (nargs != 1 || size != 4 + name_words)
			FAIL("thread object of %u words, %u args", size, nargs);
		if (!arg_ok(arg[0], FXT_ARG_KOID, 2, FXT_SCHED_STR_PROCESS) ||
		    FXT_GET(arg[0], FXT_ARG_VALUE32))
			FAIL("thread object without a koid 'process' arg");
		r->kind = KREC_THREAD;
		r->process = arg[1];
		return size;
	}
	FAIL("kernel object type %u", obj);
}

static unsigned int decode_exec(const uint64_t *w, unsigned int size,
				struct krec *r, char *why, size_t why_len)
{
	unsigned int ref = FXT_GET(w[4], FXT_ARG_STRING_VALUE);
	unsigned int len = ref & FXT_STRING_INDEX_MAX;
	const char *name = (const char *)&w[5];
	unsigned int i;

	if ((ref && !(ref & FXT_STRING_REF_INLINE)) ||
	    len > FXT_KPROC_FILENAME_MAX || size != fxt_kproc_exec_words(len))
		FAIL("exec of %u words, file name ref 0x%x", size, ref);
	if (!arg_ok(w[4], FXT_ARG_STRING, 1 + fxt_words(len),
		    FXT_SCHED_STR_FILENAME) || w[4] >> 48)
		FAIL("exec without a string 'filename' arg");
	for (i = len; i < fxt_words(len) * 8; i++)
		if (name[i])
			FAIL("file name padding not zero");
	memcpy(r->filename, name, len);
	r->filename[len] = 0;
	r->kind = KREC_EXEC;
	return size;
}

/*
 * kernel:irq and kernel:syscall: a begin or end on an inline thread with
 * one argument: a hardirq's inline name and "irq", a softirq's "vec", a
 * system call's "number" (begin) or int64 "ret" (end).
 */
static unsigned int decode_slice(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int type = FXT_GET(w[0], FXT_EVENT_TYPE);
	unsigned int ref = FXT_GET(w[0], FXT_EVENT_NAME);
	unsigned int name_words = fxt_string_ref_words((uint16_t)ref);
	unsigned int arg = FXT_KIRQ_EVENT_WORDS + name_words, len, i;
	const char *name = (const char *)&w[FXT_KIRQ_EVENT_WORDS];

	if ((type != FXT_EVENT_DURATION_BEGIN &&
	     type != FXT_EVENT_DURATION_END) ||
	    FXT_GET(w[0], FXT_EVENT_NARGS) != 1 ||
	    FXT_GET(w[0], FXT_EVENT_THREAD) != 0 || size <= arg)
		FAIL("slice header 0x%016llx", (unsigned long long)w[0]);
	r->kind = type == FXT_EVENT_DURATION_BEGIN ? KREC_BEGIN : KREC_END;
	r->category = FXT_GET(w[0], FXT_EVENT_CATEGORY);
	r->name_ref = ref;
	r->ts = w[1];
	r->process = w[2];
	r->tid = w[3];
	if (fxt_string_ref_is_inline((uint16_t)ref)) {
		len = ref & FXT_STRING_INDEX_MAX;
		if (len >= sizeof(r->slice_name))
			FAIL("slice name of %u bytes", len);
		for (i = len; i < name_words * 8; i++)
			if (name[i])
				FAIL("slice name padding not zero");
		memcpy(r->slice_name, name, len);
	}
	if (r->category == FXT_KIRQ_STR_CAT_SYSCALL &&
	    r->kind == KREC_END) {
		if (size != arg + 2 ||
		    !arg_ok(w[arg], FXT_ARG_INT64, 2, FXT_KIRQ_STR_RET))
			FAIL("syscall end without an int64 'ret' arg");
		r->value = (int64_t)w[arg + 1];
		return size;
	}
	if (size != arg + 1 ||
	    !(arg_ok(w[arg], FXT_ARG_INT32, 1, FXT_KIRQ_STR_IRQ) ||
	      arg_ok(w[arg], FXT_ARG_INT32, 1, FXT_KIRQ_STR_VEC) ||
	      arg_ok(w[arg], FXT_ARG_INT32, 1, FXT_KIRQ_STR_NUMBER)))
		FAIL("slice without an int32 'irq', 'vec' or 'number' arg");
	r->value = (int32_t)FXT_GET(w[arg], FXT_ARG_VALUE32);
	return size;
}

/* Header of an event of category cat and type on an inline thread. */
static int event_ok(uint64_t h, unsigned int type, unsigned int nargs,
		    unsigned int cat)
{
	return FXT_GET(h, FXT_EVENT_TYPE) == type &&
	       FXT_GET(h, FXT_EVENT_NARGS) == nargs &&
	       FXT_GET(h, FXT_EVENT_THREAD) == 0 &&
	       FXT_GET(h, FXT_EVENT_CATEGORY) == cat;
}

/* kernel:power: one-argument counters of the kernel process, id = CPU. */
static unsigned int decode_power(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int name = FXT_GET(w[0], FXT_EVENT_NAME);

	if (!event_ok(w[0], FXT_EVENT_COUNTER, 1, FXT_KDEV_STR_CAT_POWER) ||
	    size != FXT_KPOWER_COUNTER_WORDS || w[2] || w[3])
		FAIL("power counter 0x%016llx", (unsigned long long)w[0]);
	r->ts = w[1];
	r->cpu = (unsigned int)w[5];
	if (w[5] > 0xffff)
		FAIL("power counter id %llu is no CPU", (unsigned long long)w[5]);
	if (name == FXT_KDEV_STR_CPU_IDLE &&
	    arg_ok(w[4], FXT_ARG_INT32, 1, FXT_KDEV_STR_STATE)) {
		r->kind = KREC_IDLE;
		r->value = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		return size;
	}
	if (name == FXT_KDEV_STR_CPU_FREQUENCY &&
	    arg_ok(w[4], FXT_ARG_UINT32, 1, FXT_KDEV_STR_KHZ)) {
		r->kind = KREC_FREQUENCY;
		r->value = (uint32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		return size;
	}
	FAIL("power counter %u with arg 0x%016llx", name,
	     (unsigned long long)w[4]);
}

/* kernel:block: async begin/end on the kernel process, named by the op. */
static unsigned int decode_block(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int name = FXT_GET(w[0], FXT_EVENT_NAME);

	if (name < FXT_KDEV_STR_BLOCK_READ || name > FXT_KDEV_STR_BLOCK_OTHER ||
	    w[2] || w[3])
		FAIL("block event 0x%016llx", (unsigned long long)w[0]);
	r->op = (uint16_t)name;
	r->ts = w[1];
	if (event_ok(w[0], FXT_EVENT_ASYNC_BEGIN, 4, FXT_KDEV_STR_CAT_BLOCK)) {
		if (size != FXT_KBLOCK_BEGIN_WORDS ||
		    !arg_ok(w[4], FXT_ARG_UINT32, 1, FXT_KDEV_STR_MAJOR) ||
		    !arg_ok(w[5], FXT_ARG_UINT32, 1, FXT_KDEV_STR_MINOR) ||
		    !arg_ok(w[6], FXT_ARG_UINT64, 2, FXT_KDEV_STR_SECTOR) ||
		    w[6] >> 32 ||
		    !arg_ok(w[8], FXT_ARG_UINT32, 1, FXT_KDEV_STR_BYTES))
			FAIL("block begin of %u words, bad args", size);
		r->kind = KREC_BLOCK_BEGIN;
		r->major = (uint32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		r->minor = (uint32_t)FXT_GET(w[5], FXT_ARG_VALUE32);
		r->sector = w[7];
		r->bytes = (uint32_t)FXT_GET(w[8], FXT_ARG_VALUE32);
		r->async_id = w[9];
		return size;
	}
	if (event_ok(w[0], FXT_EVENT_ASYNC_END, 1, FXT_KDEV_STR_CAT_BLOCK)) {
		if (size != FXT_KBLOCK_END_WORDS ||
		    !arg_ok(w[4], FXT_ARG_UINT32, 1, FXT_KDEV_STR_STATUS))
			FAIL("block end of %u words, bad args", size);
		r->kind = KREC_BLOCK_END;
		r->status = (uint32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		r->async_id = w[5];
		return size;
	}
	FAIL("block event 0x%016llx", (unsigned long long)w[0]);
}

/* kernel:fault: instants on the faulting thread, never a kernel address. */
static unsigned int decode_fault(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	if (!event_ok(w[0], FXT_EVENT_INSTANT, 2, FXT_KDEV_STR_CAT_FAULT) ||
	    FXT_GET(w[0], FXT_EVENT_NAME) != FXT_KDEV_STR_PAGE_FAULT ||
	    size != FXT_KFAULT_WORDS ||
	    !arg_ok(w[4], FXT_ARG_POINTER, 2, FXT_KDEV_STR_ADDRESS) ||
	    w[4] >> 32 ||
	    !arg_ok(w[6], FXT_ARG_UINT32, 1, FXT_KDEV_STR_ERROR_CODE))
		FAIL("page fault 0x%016llx of %u words", (unsigned long long)w[0],
		     size);
	if (w[5] >> 63)
		FAIL("page fault at kernel address");
	r->kind = KREC_FAULT;
	r->ts = w[1];
	r->process = w[2];
	r->tid = w[3];
	r->address = w[5];
	r->error_code = (uint32_t)FXT_GET(w[6], FXT_ARG_VALUE32);
	return size;
}

/* kernel:mem's RSS counter: on a process, one uint64 named by its counter. */
static unsigned int decode_rss(const uint64_t *w, unsigned int size,
			       struct krec *r, char *why, size_t why_len)
{
	unsigned int name = FXT_GET(w[4], FXT_ARG_NAME);

	if (size != FXT_KMEM_RSS_WORDS || w[6] ||
	    FXT_GET(w[0], FXT_EVENT_NAME) != FXT_KDEV_STR_MEM_RSS ||
	    name < FXT_KDEV_STR_RSS_FILE || name > FXT_KDEV_STR_RSS_SHMEM ||
	    !arg_ok(w[4], FXT_ARG_UINT64, 2, name) || w[4] >> 32 || !w[2])
		FAIL("mem.rss 0x%016llx of %u words", (unsigned long long)w[0],
		     size);
	r->kind = KREC_RSS;
	r->mem_kind = name - FXT_KDEV_STR_RSS_FILE;
	r->mem_value = (int64_t)w[5];
	return size;
}

/* kernel:mem's stalls: begin with an order, end with what it did. */
static unsigned int decode_stall(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int stall = FXT_GET(w[0], FXT_EVENT_NAME) -
			     FXT_KDEV_STR_DIRECT_RECLAIM;

	if (stall >= FXT_KMEM_STALLS)
		FAIL("mem slice %u", (unsigned int)FXT_GET(w[0], FXT_EVENT_NAME));
	r->mem_kind = stall;
	if (FXT_GET(w[0], FXT_EVENT_TYPE) == FXT_EVENT_DURATION_BEGIN) {
		if (size != FXT_KMEM_STALL_BEGIN_WORDS ||
		    !arg_ok(w[4], FXT_ARG_INT32, 1, FXT_KDEV_STR_ORDER))
			FAIL("stall begin without an int32 'order'");
		r->kind = KREC_STALL_BEGIN;
		r->mem_value = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		return size;
	}
	r->kind = KREC_STALL_END;
	if (stall == FXT_KMEM_STALL_COMPACTION) {
		if (size != FXT_KMEM_COMPACTION_END_WORDS ||
		    !arg_ok(w[4], FXT_ARG_INT32, 1, FXT_KDEV_STR_STATUS))
			FAIL("compaction end without an int32 'status'");
		r->mem_value = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		return size;
	}
	if (size != FXT_KMEM_RECLAIM_END_WORDS ||
	    !arg_ok(w[4], FXT_ARG_UINT64, 2, FXT_KDEV_STR_RECLAIMED) ||
	    w[4] >> 32)
		FAIL("reclaim end without a uint64 'reclaimed'");
	r->mem_value = (int64_t)w[5];
	return size;
}

/* kernel:mem's oom_kill: pid, inline name, rss. */
static unsigned int decode_oom(const uint64_t *w, unsigned int size,
			       struct krec *r, char *why, size_t why_len)
{
	unsigned int ref = FXT_GET(w[5], FXT_ARG_VALUE32), len, i;
	const char *name = (const char *)&w[FXT_KMEM_OOM_NAME_WORD];

	len = ref & FXT_STRING_INDEX_MAX;
	if ((ref && !fxt_string_ref_is_inline((uint16_t)ref)) ||
	    len > FXT_SCHED_NAME_MAX || size != fxt_kmem_oom_words(len) ||
	    !arg_ok(w[4], FXT_ARG_UINT32, 1, FXT_KDEV_STR_PID) ||
	    FXT_GET(w[4], FXT_ARG_VALUE32) != w[2] ||
	    !arg_ok(w[5], FXT_ARG_STRING, 1 + fxt_words(len), FXT_KDEV_STR_NAME) ||
	    !arg_ok(w[size - 2], FXT_ARG_UINT64, 2, FXT_KDEV_STR_RSS))
		FAIL("oom_kill 0x%016llx of %u words", (unsigned long long)w[0],
		     size);
	for (i = len; i < fxt_words(len) * 8; i++)
		if (name[i])
			FAIL("oom_kill name padding not zero");
	r->kind = KREC_OOM;
	memcpy(r->name, name, len);
	r->mem_value = (int64_t)w[size - 1];
	return size;
}

/* kernel:mem: counters on processes, stalls and OOM kills on threads. */
static unsigned int decode_mem(const uint64_t *w, unsigned int size,
			       struct krec *r, char *why, size_t why_len)
{
	unsigned int type = FXT_GET(w[0], FXT_EVENT_TYPE);

	if (FXT_GET(w[0], FXT_EVENT_THREAD) || size < FXT_KMEM_EVENT_WORDS + 1)
		FAIL("mem event 0x%016llx", (unsigned long long)w[0]);
	r->ts = w[1];
	r->process = w[2];
	r->tid = w[3];
	if (event_ok(w[0], FXT_EVENT_COUNTER, 1, FXT_KDEV_STR_CAT_MEM))
		return decode_rss(w, size, r, why, why_len);
	if ((type == FXT_EVENT_DURATION_BEGIN ||
	     type == FXT_EVENT_DURATION_END) &&
	    event_ok(w[0], type, 1, FXT_KDEV_STR_CAT_MEM))
		return decode_stall(w, size, r, why, why_len);
	if (event_ok(w[0], FXT_EVENT_INSTANT, 3, FXT_KDEV_STR_CAT_MEM) &&
	    FXT_GET(w[0], FXT_EVENT_NAME) == FXT_KDEV_STR_OOM_KILL)
		return decode_oom(w, size, r, why, why_len);
	FAIL("mem event 0x%016llx", (unsigned long long)w[0]);
}

/*
 * kernel:sched: the wakeup-latency instant on the thread that waited,
 * at the time it got its CPU: wakeup_ts + latency_ns is that time.
 */
static unsigned int decode_latency(const uint64_t *w, unsigned int size,
				   struct krec *r, char *why, size_t why_len)
{
	if (!event_ok(w[0], FXT_EVENT_INSTANT, 2, FXT_SCHED_STR_CAT_SCHED) ||
	    FXT_GET(w[0], FXT_EVENT_NAME) != FXT_SCHED_STR_LATENCY ||
	    size != FXT_SCHED_LATENCY_WORDS ||
	    !arg_ok(w[4], FXT_ARG_UINT64, 2, FXT_SCHED_STR_LATENCY_NS) ||
	    w[4] >> 32 ||
	    !arg_ok(w[6], FXT_ARG_UINT64, 2, FXT_SCHED_STR_WAKEUP_TS) ||
	    w[6] >> 32)
		FAIL("sched_latency 0x%016llx of %u words",
		     (unsigned long long)w[0], size);
	if (!w[3] || w[7] + w[5] != w[1])
		FAIL("sched_latency: wakeup_ts + latency_ns != its time");
	r->kind = KREC_LATENCY;
	r->ts = w[1];
	r->process = w[2];
	r->tid = w[3];
	r->latency_ns = w[5];
	r->wakeup_ts = w[7];
	return size;
}

/* kernel:proc: instant events on an inline thread, one argument. */
static unsigned int decode_event(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int name = FXT_GET(w[0], FXT_EVENT_NAME);
	unsigned int cat = FXT_GET(w[0], FXT_EVENT_CATEGORY);

	if (cat == FXT_KIRQ_STR_CAT_IRQ || cat == FXT_KIRQ_STR_CAT_SYSCALL)
		return decode_slice(w, size, r, why, why_len);

	switch (cat) {
	case FXT_KDEV_STR_CAT_POWER:
		return decode_power(w, size, r, why, why_len);
	case FXT_KDEV_STR_CAT_BLOCK:
		return decode_block(w, size, r, why, why_len);
	case FXT_KDEV_STR_CAT_FAULT:
		return decode_fault(w, size, r, why, why_len);
	case FXT_KDEV_STR_CAT_MEM:
		return decode_mem(w, size, r, why, why_len);
	case FXT_SCHED_STR_CAT_SCHED:
		return decode_latency(w, size, r, why, why_len);
	}
	if (FXT_GET(w[0], FXT_EVENT_TYPE) != FXT_EVENT_INSTANT ||
	    FXT_GET(w[0], FXT_EVENT_NARGS) != 1 ||
	    FXT_GET(w[0], FXT_EVENT_THREAD) != 0 ||
	    FXT_GET(w[0], FXT_EVENT_CATEGORY) != FXT_SCHED_STR_CAT_PROC ||
	    size < FXT_KPROC_EVENT_WORDS + 1)
		FAIL("event header 0x%016llx", (unsigned long long)w[0]);
	r->ts = w[1];
	r->process = w[2];
	r->tid = w[3];
	switch (name) {
	case FXT_SCHED_STR_FORK:
		if (size != FXT_KPROC_FORK_WORDS ||
		    !arg_ok(w[4], FXT_ARG_KOID, 2, FXT_SCHED_STR_CHILD) ||
		    w[4] >> 32)
			FAIL("fork without a koid 'child' arg");
		r->kind = KREC_FORK;
		r->child = w[5];
		return size;
	case FXT_SCHED_STR_EXIT:
		if (size != FXT_KPROC_EXIT_WORDS)
			FAIL("exit of %u words", size);
		r->kind = KREC_EXIT;
		if (arg_ok(w[4], FXT_ARG_INT32, 1, FXT_SCHED_STR_CODE)) {
			r->code = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
			return size;
		}
		if (!arg_ok(w[4], FXT_ARG_INT32, 1, FXT_SCHED_STR_SIGNAL))
			FAIL("exit without an int32 'code' or 'signal' arg");
		r->code = -1;
		r->signal = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		return size;
	case FXT_SCHED_STR_EXEC:
		return decode_exec(w, size, r, why, why_len);
	default:
		FAIL("event name %u", name);
	}
}

unsigned int krec_decode(const uint64_t *w, size_t avail_words,
			 struct krec *r, char *why, size_t why_len)
{
	unsigned int size;

	memset(r, 0, sizeof(*r));
	if (!avail_words)
		FAIL("no words");
	size = fxt_record_words(w[0]);
	if (!size || size > avail_words)
		FAIL("record of %u words with %zu left", size, avail_words);
	if (size > FXT_SCHED_RECORD_MAX_WORDS)
		FAIL("record of %u words > max %u", size,
		     FXT_SCHED_RECORD_MAX_WORDS);
	r->words = size;
	switch (FXT_GET(w[0], FXT_HDR_TYPE)) {
	case FXT_RECORD_SCHEDULING:
		return decode_sched(w, size, r, why, why_len);
	case FXT_RECORD_KERNEL_OBJECT:
		return decode_kobj(w, size, r, why, why_len);
	case FXT_RECORD_EVENT:
		return decode_event(w, size, r, why, why_len);
	default:
		FAIL("record type %u", (unsigned int)FXT_GET(w[0], FXT_HDR_TYPE));
	}
}
