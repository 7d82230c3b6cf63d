// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-kmem: the kernel:mem records of an fxtraced archive, read with the
 * FXT reader, against the workload that made them (in the qemu guest,
 * which has no Python; tests/bpf/check_mem_dump.py checks the same on the
 * host from a dump):
 *
 * check-kmem rss FILE PID TOTAL_MB STEP_MB
 *     the anon mem.rss counter of process PID rises, never falling, in at
 *     least TOTAL_MB/STEP_MB steps, to within 5% of TOTAL_MB MiB.
 * check-kmem stalls FILE PID NAME
 *     at least one NAME slice (memcg_reclaim, direct_reclaim) on a thread
 *     of PID, each begin with an order and followed on its thread by its
 *     end with the pages reclaimed.
 * check-kmem oom FILE PID COMM
 *     an oom_kill instant on process PID with pid=PID, name=COMM, rss > 0.
 * check-kmem words FILE PID...
 *     prints every kernel:mem record of those processes, word by word in
 *     hex, the timestamp word as "ts": two backends that saw the same
 *     events print the same lines.
 *
 * Exits 1 on a mismatch or a reader diagnostic, 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive_check.h"
#include "fxt_reader.h"

#define MIB (1ull << 20)
#define MAX_VALUES 65536
#define MAX_OPEN 64

struct check {
	const char *mode;
	uint64_t pid;
	uint64_t diags;
	/* rss */
	uint64_t *values;
	size_t nvalues;
	/* stalls */
	const char *name;
	uint64_t open_tid[MAX_OPEN], open_ts[MAX_OPEN];
	size_t nopen;
	uint64_t slices, stall_ns, bad;
	/* oom */
	const char *comm;
	uint64_t ooms;
	/* words */
	char **pids;
	int npids;
};

static const struct fxt_arg *arg_of(const struct fxt_record *r,
				    const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nargs; i++)
		if (fxt_str_is(r->args[i].name, name))
			return &r->args[i];
	return NULL;
}

static void see_rss(struct check *c, const struct fxt_record *r)
{
	const struct fxt_arg *anon = arg_of(r, "anon");

	if (r->event.type != FXT_EVENT_COUNTER ||
	    !fxt_str_is(r->event.name, "mem.rss") || !anon ||
	    c->nvalues == MAX_VALUES)
		return;
	c->values[c->nvalues++] = anon->value.u64;
}

static int find_open(const struct check *c, uint64_t tid)
{
	size_t i;

	for (i = 0; i < c->nopen; i++)
		if (c->open_tid[i] == tid)
			return (int)i;
	return -1;
}

static void see_stall(struct check *c, const struct fxt_record *r)
{
	uint64_t tid = r->event.thread.tid;
	int at = find_open(c, tid);

	if (!fxt_str_is(r->event.name, c->name))
		return;
	if (r->event.type == FXT_EVENT_DURATION_BEGIN) {
		if (at >= 0 || !arg_of(r, "order") || c->nopen == MAX_OPEN) {
			c->bad++;
			return;
		}
		c->open_tid[c->nopen] = tid;
		c->open_ts[c->nopen++] = r->event.ts;
	} else if (r->event.type == FXT_EVENT_DURATION_END) {
		if (at < 0 || !arg_of(r, "reclaimed")) {
			c->bad++;
			return;
		}
		c->stall_ns += r->event.ts - c->open_ts[at];
		c->slices++;
		c->open_tid[at] = c->open_tid[--c->nopen];
		c->open_ts[at] = c->open_ts[c->nopen];
	}
}

static void see_oom(struct check *c, const struct fxt_record *r)
{
	const struct fxt_arg *pid = arg_of(r, "pid"), *name = arg_of(r, "name");
	const struct fxt_arg *rss = arg_of(r, "rss");

	if (r->event.type != FXT_EVENT_INSTANT ||
	    !fxt_str_is(r->event.name, "oom_kill"))
		return;
	printf("oom_kill: pid=%" PRIu64 " name=%.*s rss=%" PRIu64 "\n",
	       pid ? (uint64_t)pid->value.u32 : 0,
	       name ? (int)name->value.str.len : 0,
	       name ? name->value.str.data : "", rss ? rss->value.u64 : 0);
	c->ooms += pid && pid->value.u32 == c->pid && name &&
		   fxt_str_is(name->value.str, c->comm) && rss &&
		   rss->value.u64 > 0;
}

static void see_words(struct check *c, const struct fxt_record *r)
{
	uint64_t i;
	int p;

	for (p = 0; p < c->npids; p++)
		if (strtoull(c->pids[p], NULL, 10) == r->event.thread.pid)
			break;
	if (p == c->npids)
		return;
	printf("%016" PRIx64 " ts", r->words[0]);
	for (i = 2; i < r->size_words; i++)
		printf(" %016" PRIx64, r->words[i]);
	printf("\n");
}

static void see(struct check *c, const struct fxt_record *r)
{
	if (r->type != FXT_RECORD_EVENT ||
	    !fxt_str_is(r->event.category, "kernel:mem"))
		return;
	if (!strcmp(c->mode, "words")) {
		see_words(c, r);
		return;
	}
	if (r->event.thread.pid != c->pid)
		return;
	if (!strcmp(c->mode, "rss"))
		see_rss(c, r);
	else if (!strcmp(c->mode, "stalls"))
		see_stall(c, r);
	else
		see_oom(c, r);
}

static int read_archive(struct check *c, const char *path)
{
	struct fxt_reader_options opt = { .expect_magic = true,
					  .diag = archive_check_diag,
					  .diag_ctx = &c->diags };
	struct fxt_reader *rd;
	struct fxt_record r;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return -1;
	}
	rd = fxt_reader_open_file(f, &opt);
	while (fxt_reader_next(rd, &r) == 1)
		if (r.provider && fxt_str_is(r.provider->name, "kernel"))
			see(c, &r);
	fxt_reader_close(rd);
	fclose(f);
	return c->diags ? -1 : 0;
}

static bool rss_ok(const struct check *c, uint64_t total_mb, uint64_t step_mb)
{
	uint64_t peak = 0, want = total_mb * MIB, steps = 0;
	size_t i, at = 0;

	for (i = 0; i < c->nvalues; i++)
		if (c->values[i] > peak) {
			peak = c->values[i];
			at = i;
		}
	printf("rss: %zu anon values of %" PRIu64 ", peak %.1f MiB\n",
	       c->nvalues, c->pid, (double)peak / MIB);
	if ((peak > want ? peak - want : want - peak) > want / 20) {
		printf("peak is not within 5%% of %" PRIu64 " MiB\n", total_mb);
		return false;
	}
	for (i = 1; i <= at; i++) {
		if (c->values[i] < c->values[i - 1]) {
			printf("anon RSS fell while growing\n");
			return false;
		}
		steps += c->values[i] != c->values[i - 1];
	}
	if (steps + 1 < total_mb / step_mb) {
		printf("%" PRIu64 " steps, fewer than %" PRIu64 "\n", steps + 1,
		       total_mb / step_mb);
		return false;
	}
	return true;
}

static int usage(void)
{
	fprintf(stderr, "usage: check-kmem rss FILE PID TOTAL_MB STEP_MB\n"
			"       check-kmem stalls FILE PID NAME\n"
			"       check-kmem oom FILE PID COMM\n"
			"       check-kmem words FILE PID...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static uint64_t values[MAX_VALUES];
	struct check c = { .values = values };

	if (argc < 4)
		return usage();
	c.mode = argv[1];
	c.pid = strtoull(argv[3], NULL, 10);
	if (!strcmp(c.mode, "words")) {
		c.pids = argv + 3;
		c.npids = argc - 3;
		return read_archive(&c, argv[2]) ? 1 : 0;
	}
	if (!strcmp(c.mode, "rss") && argc == 6)
		return read_archive(&c, argv[2]) ||
		       !rss_ok(&c, strtoull(argv[4], NULL, 10),
			       strtoull(argv[5], NULL, 10));
	if (!strcmp(c.mode, "stalls") && argc == 5) {
		c.name = argv[4];
		if (read_archive(&c, argv[2]))
			return 1;
		printf("%s: %" PRIu64 " slices on %" PRIu64 ", %" PRIu64
		       " ns, %" PRIu64 " unpaired or without arguments\n",
		       c.name, c.slices, c.pid, c.stall_ns, c.bad);
		return !c.slices || c.bad;
	}
	if (!strcmp(c.mode, "oom") && argc == 5) {
		c.comm = argv[4];
		return read_archive(&c, argv[2]) || !c.ooms;
	}
	return usage();
}
