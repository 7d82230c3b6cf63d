// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-kcat FILE TID [MIN]: reads an fxtraced archive with the FXT reader
 * and checks the kernel:irq and kernel:syscall slices of its "kernel"
 * section: at least MIN (default 10000) whole "read" and "write" system
 * call slices on thread TID, at least one whole interrupt slice, every
 * track's slices properly nested (an end closes the innermost begin of
 * its thread, by category and name; an end with no begin is the tail of
 * a slice begun before the trace), nothing on the shared idle koid 0
 * (each CPU's idle task has its own thread, named "swapper/N"), and no
 * reader diagnostics. Runs on the host (BPF) and in the qemu guest (kmod).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/kirq.h>

#include "archive_check.h"
#include "fxt_reader.h"

#define MAX_THREADS 8192
#define MAX_DEPTH 16

struct open_slice {
	struct fxt_str category, name;
};

struct track {
	uint64_t tid;
	unsigned int depth;
	char names[MAX_DEPTH][40];
	char cats[MAX_DEPTH][16];
};

struct check {
	uint64_t tid, min;
	struct track *tracks;
	size_t ntracks;
	uint64_t reads, writes, irqs, hardirqs, syscalls, orphans;
	uint64_t improper, too_deep, on_koid0, idle_named, diags;
	bool kernel_seen;
};

static bool str_starts(struct fxt_str s, const char *prefix)
{
	return s.len >= strlen(prefix) &&
	       !memcmp(s.data, prefix, strlen(prefix));
}

static struct track *track_of(struct check *c, uint64_t tid)
{
	size_t i;

	for (i = 0; i < c->ntracks; i++)
		if (c->tracks[i].tid == tid)
			return &c->tracks[i];
	if (c->ntracks == MAX_THREADS)
		return NULL;
	c->tracks[c->ntracks].tid = tid;
	return &c->tracks[c->ntracks++];
}

static void copy_str(char *dst, size_t cap, struct fxt_str s)
{
	size_t n = s.len < cap - 1 ? s.len : cap - 1;

	memcpy(dst, s.data, n);
	dst[n] = '\0';
}

static void closed(struct check *c, const struct fxt_record *r)
{
	const struct fxt_str *cat = &r->event.category, *name = &r->event.name;

	if (fxt_str_is(*cat, "kernel:irq")) {
		c->irqs++;
		c->hardirqs += str_starts(*name, "irq/");
	} else if (fxt_str_is(*cat, "kernel:syscall")) {
		c->syscalls++;
		if (r->event.thread.tid == c->tid) {
			c->reads += fxt_str_is(*name, "read");
			c->writes += fxt_str_is(*name, "write");
		}
	}
}

static void see_event(struct check *c, const struct fxt_record *r)
{
	uint64_t tid = r->event.thread.tid;
	struct track *t;
	char cat[16], name[40];

	if (r->event.type != FXT_EVENT_DURATION_BEGIN &&
	    r->event.type != FXT_EVENT_DURATION_END)
		return;
	if (!tid) {
		c->on_koid0++;
		return;
	}
	t = track_of(c, tid);
	if (!t)
		return;
	copy_str(cat, sizeof(cat), r->event.category);
	copy_str(name, sizeof(name), r->event.name);
	if (r->event.type == FXT_EVENT_DURATION_BEGIN) {
		if (t->depth == MAX_DEPTH) {
			c->too_deep++;
			return;
		}
		strcpy(t->cats[t->depth], cat);
		strcpy(t->names[t->depth++], name);
		return;
	}
	if (!t->depth) {
		c->orphans++;
		return;
	}
	t->depth--;
	if (strcmp(t->cats[t->depth], cat) || strcmp(t->names[t->depth], name)) {
		if (c->improper++ < 5)
			fprintf(stderr,
				"ts %" PRIu64 " thread %" PRIu64
				": end of %s \"%s\" closes %s \"%s\"\n",
				r->event.ts, tid, cat, name, t->cats[t->depth],
				t->names[t->depth]);
		return;
	}
	closed(c, r);
}

static void see_sched(struct check *c, const struct fxt_record *r)
{
	if (r->sched.type == FXT_SCHED_CONTEXT_SWITCH &&
	    (!r->sched.out_thread.tid || !r->sched.in_thread.tid))
		c->on_koid0++;
}

static void see_object(struct check *c, const struct fxt_record *r)
{
	char want[32];
	uint64_t cpu;

	if (r->kernel_object.obj_type != FXT_ZX_OBJ_THREAD ||
	    r->kernel_object.koid < FXT_KIRQ_IDLE_KOID_BASE)
		return;
	cpu = r->kernel_object.koid - FXT_KIRQ_IDLE_KOID_BASE;
	snprintf(want, sizeof(want), "swapper/%" PRIu64, cpu);
	c->idle_named += fxt_str_is(r->kernel_object.name, want);
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	struct fxt_reader_options opt = { .expect_magic = true,
					  .diag = archive_check_diag,
					  .diag_ctx = &c.diags };
	struct fxt_reader *rd;
	struct fxt_record r;
	FILE *f;
	bool ok;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s FILE TID [MIN]\n", argv[0]);
		return 2;
	}
	c.tid = strtoull(argv[2], NULL, 10);
	c.min = argc == 4 ? strtoull(argv[3], NULL, 10) : 10000;
	c.tracks = calloc(MAX_THREADS, sizeof(*c.tracks));
	f = fopen(argv[1], "rb");
	if (!f || !c.tracks) {
		perror(argv[1]);
		return 1;
	}
	rd = fxt_reader_open_file(f, &opt);
	while (fxt_reader_next(rd, &r) == 1) {
		if (!r.provider || !fxt_str_is(r.provider->name, "kernel"))
			continue;
		c.kernel_seen = true;
		if (r.type == FXT_RECORD_EVENT)
			see_event(&c, &r);
		else if (r.type == FXT_RECORD_SCHEDULING)
			see_sched(&c, &r);
		else if (r.type == FXT_RECORD_KERNEL_OBJECT)
			see_object(&c, &r);
	}
	fxt_reader_close(rd);
	fclose(f);
	printf("kcat: thread %" PRIu64 ": %" PRIu64 " read, %" PRIu64
	       " write slices; %" PRIu64 " syscall, %" PRIu64
	       " interrupt slices (%" PRIu64 " hardirq); %" PRIu64
	       " ends before their begin; %" PRIu64 " improperly nested; %"
	       PRIu64 " deeper than %d; %" PRIu64 " on koid 0; %" PRIu64
	       " idle threads named; %" PRIu64 " diagnostics\n",
	       c.tid, c.reads, c.writes, c.syscalls, c.irqs, c.hardirqs,
	       c.orphans, c.improper, c.too_deep, MAX_DEPTH, c.on_koid0,
	       c.idle_named, c.diags);
	ok = c.kernel_seen && !c.diags && c.reads >= c.min &&
	     c.writes >= c.min && c.irqs && !c.improper && !c.too_deep &&
	     !c.on_koid0 && c.idle_named;
	free(c.tracks);
	return ok ? 0 : 1;
}
