// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-raw-samples: the raw kernel:sample and kernel:offcpu records of
 * <fxt/ksample.h> in an archive, against stack-workload's functions.
 * Until the manager turns them into stack records (include/fxt/stacks.h),
 * the kernel side's records reach the archive as they are.
 *
 * check-raw-samples FILE PID WORKER BLOCKER SEVENTY,SIZE THIRTY,SIZE
 *     on-CPU samples of thread WORKER of PID: their leaf user PC in
 *     burn_seventy ([SEVENTY, SEVENTY + SIZE)) or burn_thirty, the
 *     first between 55% and 85% of both; every record well-formed
 *     (fxt_ksample_parse()), none of the idle task. Off-CPU records of
 *     thread BLOCKER: at least 5 with blocked_ns > 0, kernel frames and
 *     user frames. Addresses are hexadecimal (0x...), sizes too.
 *
 * Prints the counts; exits 1 on a mismatch or a reader diagnostic, 2 on
 * a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/ksample.h>

#include "archive_check.h"
#include "fxt_reader.h"

struct range {
	uint64_t start, end;
};

struct check {
	uint64_t pid, worker, blocker;
	struct range seventy, thirty;
	uint64_t diags, bad, idle;
	uint64_t samples, in_seventy, in_thirty, worker_samples;
	uint64_t offcpu, blocked, blocked_kernel, blocked_user;
};

static bool in_range(const struct range *r, uint64_t pc)
{
	return pc >= r->start && pc < r->end;
}

static void see_sample(struct check *c, const struct fxt_ksample *s)
{
	uint64_t leaf;

	c->samples++;
	if (s->tid != c->worker || s->pid != c->pid || !s->nu)
		return;
	c->worker_samples++;
	leaf = s->pcs[s->nk];
	c->in_seventy += in_range(&c->seventy, leaf);
	c->in_thirty += in_range(&c->thirty, leaf);
}

static void see_offcpu(struct check *c, const struct fxt_ksample *s)
{
	c->offcpu++;
	if (s->tid != c->blocker || s->pid != c->pid)
		return;
	c->blocked++;
	if (s->weight_ns > 0 && s->nk > 0 && s->nu > 0)
		c->blocked_kernel++;
	c->blocked_user += s->nu > 0;
}

static void see(struct check *c, const struct fxt_record *r)
{
	struct fxt_ksample s;

	if (r->type != FXT_RECORD_LARGE ||
	    !fxt_ksample_is(r->words[0], r->size_words > 1 ? r->words[1] : 0))
		return;
	if (!fxt_ksample_parse((const __u64 *)r->words, r->size_words, &s)) {
		c->bad++;
		return;
	}
	if (!s.tid) {
		c->idle++;
		return;
	}
	if (s.kind == FXT_KSAMPLE_ONCPU)
		see_sample(c, &s);
	else
		see_offcpu(c, &s);
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

static int parse_range(const char *arg, struct range *r)
{
	char *end;
	uint64_t size;

	r->start = strtoull(arg, &end, 16);
	if (*end != ',')
		return -1;
	size = strtoull(end + 1, &end, 16);
	if (*end || !r->start || !size)
		return -1;
	r->end = r->start + size;
	return 0;
}

static bool verdict(const struct check *c)
{
	uint64_t burnt = c->in_seventy + c->in_thirty;
	bool ok = true;

	printf("on-cpu: %" PRIu64 " samples, %" PRIu64 " of the worker, %"
	       PRIu64 " in burn_seventy, %" PRIu64 " in burn_thirty\n",
	       c->samples, c->worker_samples, c->in_seventy, c->in_thirty);
	printf("off-cpu: %" PRIu64 " records, %" PRIu64 " of the blocker, %"
	       PRIu64 " blocked with kernel and user frames\n",
	       c->offcpu, c->blocked, c->blocked_kernel);
	if (c->bad || c->idle) {
		printf("%" PRIu64 " malformed, %" PRIu64 " of the idle task\n",
		       c->bad, c->idle);
		ok = false;
	}
	if (burnt < 20 || burnt * 10 < c->worker_samples * 8) {
		printf("too few samples in the burn functions\n");
		ok = false;
	} else if (c->in_seventy * 100 < burnt * 55 ||
		   c->in_seventy * 100 > burnt * 85) {
		printf("burn_seventy has %.0f%% of the burn samples, not ~70%%\n",
		       100.0 * c->in_seventy / burnt);
		ok = false;
	}
	if (c->blocked_kernel < 5) {
		printf("too few off-CPU records of the blocker\n");
		ok = false;
	}
	return ok;
}

int main(int argc, char **argv)
{
	struct check c = { 0 };

	if (argc != 7 || parse_range(argv[5], &c.seventy) ||
	    parse_range(argv[6], &c.thirty)) {
		fprintf(stderr,
			"usage: check-raw-samples FILE PID WORKER BLOCKER SEVENTY,SIZE THIRTY,SIZE\n");
		return 2;
	}
	c.pid = strtoull(argv[2], NULL, 10);
	c.worker = strtoull(argv[3], NULL, 10);
	c.blocker = strtoull(argv[4], NULL, 10);
	if (read_archive(&c, argv[1]))
		return 1;
	return verdict(&c) ? 0 : 1;
}
