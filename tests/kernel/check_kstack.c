// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-kstack: the layout of the raw kernel:sample and kernel:offcpu
 * records (include/fxt/ksample.h) of an fxtraced archive, for comparing
 * two kernel backends that traced the same threads at the same time (in
 * the qemu guest: the module and BPF):
 *
 * check-kstack layout FILE WORKER BLOCKER
 *     one line per distinct layout of the on-CPU samples of thread
 *     WORKER and the off-CPU records of thread BLOCKER: the header with
 *     its size left out, the format word, pid and tid, the argument
 *     headers with their values left out (cpu, kernel_frames), the
 *     user stack words' argument (how many were read at the user stack
 *     pointer), the weight's header, for samples the period; for
 *     BLOCKER's off-CPU records also its first user PCs (both backends
 *     take them at the same switch-out). Lines are sorted, each once: two backends that
 *     write the same records print the same lines.
 *
 * Every record must be well-formed (fxt_ksample_parse()). Exits 1 on a
 * malformed record, none of those threads or a reader diagnostic, 2 on a
 * usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/ksample.h>

#include "archive_check.h"
#include "fxt_reader.h"

#define USER_PREFIX 3u
#define MAX_LINES 4096
#define LINE_MAX_BYTES 256

struct check {
	uint64_t worker, blocker;
	uint64_t diags, bad;
	char *lines[MAX_LINES];
	size_t nlines;
};

static void add_line(struct check *c, const char *line)
{
	size_t i;

	for (i = 0; i < c->nlines; i++)
		if (!strcmp(c->lines[i], line))
			return;
	if (c->nlines < MAX_LINES)
		c->lines[c->nlines++] = strdup(line);
}

static uint64_t without_value(uint64_t arg)
{
	return arg & ~(uint64_t)FXT_SET(~0u, FXT_ARG_VALUE32);
}

static void see(struct check *c, const struct fxt_record *r)
{
	const uint64_t *w = r->words;
	char line[LINE_MAX_BYTES];
	struct fxt_ksample s;
	int len;
	uint32_t i;

	if (r->type != FXT_RECORD_LARGE ||
	    !fxt_ksample_is(w[0], r->size_words > 1 ? w[1] : 0))
		return;
	if (!fxt_ksample_parse((const __u64 *)w, r->size_words, &s)) {
		c->bad++;
		return;
	}
	if (s.kind == FXT_KSAMPLE_ONCPU ? s.tid != c->worker :
					  s.tid != c->blocker)
		return;
	len = snprintf(line, sizeof(line),
		       "%s %016" PRIx64 " %016" PRIx64 " %" PRIu64 " %" PRIu64
		       " %016" PRIx64 " %016" PRIx64 " %016" PRIx64
		       " %016" PRIx64,
		       s.kind == FXT_KSAMPLE_ONCPU ? "worker" : "blocker",
		       w[0] & ~(uint64_t)FXT_SET(~0ull, FXT_LARGE_SIZE), w[1],
		       w[3], w[4], without_value(w[5]), without_value(w[6]),
		       w[7], w[8]);
	if (s.kind == FXT_KSAMPLE_ONCPU)
		len += snprintf(line + len, sizeof(line) - len,
				" period %" PRIu64, (uint64_t)s.weight_ns);
	for (i = 0; s.kind == FXT_KSAMPLE_OFFCPU && i < USER_PREFIX &&
		    i < s.nu && len < (int)sizeof(line); i++)
		len += snprintf(line + len, sizeof(line) - len, " %" PRIx64,
				(uint64_t)s.pcs[s.nk + i]);
	add_line(c, line);
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

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	size_t i;

	if (argc != 5 || strcmp(argv[1], "layout")) {
		fprintf(stderr, "usage: check-kstack layout FILE WORKER BLOCKER\n");
		return 2;
	}
	c.worker = strtoull(argv[3], NULL, 10);
	c.blocker = strtoull(argv[4], NULL, 10);
	if (read_archive(&c, argv[2]))
		return 1;
	qsort(c.lines, c.nlines, sizeof(*c.lines), cmp_lines);
	for (i = 0; i < c.nlines; i++)
		printf("%s\n", c.lines[i]);
	if (c.bad)
		fprintf(stderr, "%" PRIu64 " malformed raw stack records\n",
			c.bad);
	return c.bad || !c.nlines;
}
