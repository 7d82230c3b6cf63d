// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-kernel-archive FILE PING PONG PID: reads an fxtraced archive with
 * the FXT reader and checks its "kernel" section holds the ping-pong:
 * threads PING and PONG named fxt-ping/fxt-pong in process PID, context
 * switches between them, wakeups of both, scheduling timestamps that
 * never go back on a CPU, and no reader diagnostics. Prints counts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_reader.h"

struct check {
	uint64_t tid[2], pid;
	uint64_t switches, pp_switches, wakeups[2], diags;
	uint64_t last_ts[256];
	bool named[2], backwards, kernel_seen;
};

static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct check *c = ctx;

	fprintf(stderr, "offset 0x%" PRIx64 ": %s\n", offset, reason);
	c->diags++;
}

static int slot(const struct check *c, uint64_t tid)
{
	return tid == c->tid[0] ? 0 : tid == c->tid[1] ? 1 : -1;
}

static void see_sched(struct check *c, const struct fxt_record *r)
{
	int out, in;

	if (r->sched.type == FXT_SCHED_THREAD_WAKEUP) {
		in = slot(c, r->sched.woken.tid);
		if (in >= 0)
			c->wakeups[in]++;
		return;
	}
	c->switches++;
	if (r->sched.cpu < 256) {
		c->backwards |= r->sched.ts < c->last_ts[r->sched.cpu];
		c->last_ts[r->sched.cpu] = r->sched.ts;
	}
	out = slot(c, r->sched.out_thread.tid);
	in = slot(c, r->sched.in_thread.tid);
	if (out >= 0 && in >= 0 && out != in)
		c->pp_switches++;
}

static void see_object(struct check *c, const struct fxt_record *r)
{
	static const char *const names[2] = { "fxt-ping", "fxt-pong" };
	int s = slot(c, r->kernel_object.koid);

	if (r->kernel_object.obj_type != FXT_ZX_OBJ_THREAD || s < 0)
		return;
	if (r->nargs == 1 && r->args[0].type == FXT_ARG_KOID &&
	    r->args[0].value.koid == c->pid &&
	    fxt_str_is(r->kernel_object.name, names[s]))
		c->named[s] = true;
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	struct fxt_reader_options opt = { .expect_magic = true,
					  .diag = on_diag, .diag_ctx = &c };
	struct fxt_reader *rd;
	struct fxt_record r;
	FILE *f;
	bool ok;

	if (argc != 5) {
		fprintf(stderr, "usage: %s FILE PING PONG PID\n", argv[0]);
		return 2;
	}
	c.tid[0] = strtoull(argv[2], NULL, 10);
	c.tid[1] = strtoull(argv[3], NULL, 10);
	c.pid = strtoull(argv[4], NULL, 10);
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	rd = fxt_reader_open_file(f, &opt);
	while (fxt_reader_next(rd, &r) == 1) {
		if (!r.provider || !fxt_str_is(r.provider->name, "kernel"))
			continue;
		c.kernel_seen = true;
		if (r.type == FXT_RECORD_SCHEDULING)
			see_sched(&c, &r);
		else if (r.type == FXT_RECORD_KERNEL_OBJECT)
			see_object(&c, &r);
	}
	fxt_reader_close(rd);
	fclose(f);
	printf("kernel switches=%" PRIu64 " ping_pong_switches=%" PRIu64
	       " wakeups=%" PRIu64 "/%" PRIu64 " named=%d/%d diagnostics=%"
	       PRIu64 "\n", c.switches, c.pp_switches, c.wakeups[0],
	       c.wakeups[1], c.named[0], c.named[1], c.diags);
	ok = c.kernel_seen && !c.diags && !c.backwards && c.pp_switches &&
	     c.wakeups[0] && c.wakeups[1] && c.named[0] && c.named[1];
	return ok ? 0 : 1;
}
