/* SPDX-License-Identifier: GPL-2.0-only */
/* kernel:mem records made in a test, as the reader hands them over. */
#ifndef FXT_KMEM_TEST_RECORDS_H
#define FXT_KMEM_TEST_RECORDS_H

#include <stdint.h>
#include <string.h>

#include "fxt_reader.h"

#define MIB (1ull << 20)

static const struct fxt_provider kernel = { .ticks_per_second = 1000000000 };

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ s, (uint32_t)strlen(s) };
}

static struct fxt_record event(enum fxt_event_type type, const char *name,
			       uint64_t ts, uint64_t pid, uint64_t tid)
{
	struct fxt_record r = { .type = FXT_RECORD_EVENT, .provider = &kernel };

	r.event.type = type;
	r.event.category = str("kernel:mem");
	r.event.name = str(name);
	r.event.ts = ts;
	r.event.thread.pid = pid;
	r.event.thread.tid = tid;
	return r;
}

static void add_u64(struct fxt_record *r, const char *name, uint64_t v)
{
	struct fxt_arg *a = &r->args[r->nargs++];

	a->type = FXT_ARG_UINT64;
	a->name = str(name);
	a->value.u64 = v;
}

#endif /* FXT_KMEM_TEST_RECORDS_H */
