// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user stack unwound by the manager from the copy the module takes
 * (daemon/fxtraced/stacks/profile_unwind.c): unwind-target (built -O2
 * -fomit-frame-pointer, through Debian's libc: no frame pointers) is
 * stopped (ptrace) in read() under main -> level_a -> level_b ->
 * level_c. Its stack is copied from sp up as kmod/fxt_sample.c copies
 * it (page by page, at most FXT_KSAMPLE_STACK_MAX words, until a page
 * that faults), its user PCs walked by frame pointers as the module
 * walks them, and the two made a kernel:offcpu record. Through the
 * ingest filter, with a resolver over the target's /proc/PID/maps and
 * usyms (the files' rows from usyms_cfi_table()), the sample's stack
 * must name read, then level_c, level_b, level_a and main in that
 * order, more frames than the frame-pointer walk had, and the walk be
 * counted. The same record with the copy cut to a leaf's frame keeps
 * the record's own PCs. Needs ptrace of a child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "check.h"
#include "proc_maps_line.h"
#include "profile_ingest.h"
#include "unwind_target_ctl.h"
#include "usyms.h"

#define MAPS_MAX 64
#define SKIP 77
#define PAGE 4096u

struct mapping {
	uint64_t start, end, pgoff;
	char path[256];
	uint32_t file;	/* usyms id, 0: not added */
};

struct target {
	struct unwind_target ctl;
	struct mapping maps[MAPS_MAX];
	unsigned int nmaps;
	struct usyms *u;
};

/* What the filter wrote. */
struct out {
	uint64_t w[1 << 16];
	size_t len;
};

static int read_maps(struct target *t)
{
	char path[64], line[PROC_MAPS_LINE_MAX];
	struct proc_maps_line ml;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", t->ctl.pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && t->nmaps < MAPS_MAX) {
		struct mapping *m = &t->maps[t->nmaps];

		line[strcspn(line, "\n")] = '\0';
		if (proc_maps_line_parse(line, &ml) || !ml.exec ||
		    ml.path[0] != '/')
			continue;
		*m = (struct mapping){ .start = ml.start, .end = ml.end,
				       .pgoff = ml.pgoff };
		snprintf(m->path, sizeof(m->path), "%s", ml.path);
		if (!usyms_add_path(t->u, m->path, &m->file))
			t->nmaps++;
	}
	fclose(f);
	return 0;
}

static int no_kernel(void *ctx, uint64_t pc, const char **name,
		     uint64_t *offset)
{
	return -ENOENT;
}

static bool no_sched(void *ctx, uint64_t pc)
{
	return false;
}

static int user_find(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
		     struct profile_user_hit *hit)
{
	struct target *t = ctx;
	unsigned int i;

	for (i = 0; i < t->nmaps; i++) {
		struct mapping *m = &t->maps[i];

		if (pc < m->start || pc >= m->end)
			continue;
		*hit = (struct profile_user_hit){ .path = m->path,
						  .file = m->file };
		return usyms_file_offset_to_vaddr(t->u, m->file,
						  pc - m->start + m->pgoff,
						  &hit->vaddr);
	}
	return -ENOENT;
}

static int user_cfi(void *ctx, uint32_t file, const uint8_t *build_id,
		    size_t build_id_len, const struct cfi_table **tab)
{
	return usyms_cfi_table(((struct target *)ctx)->u, file, NULL, 0, tab);
}

static int user_symbol(void *ctx, uint32_t file, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **name)
{
	return usyms_lookup(((struct target *)ctx)->u, file, NULL, 0, vaddr,
			    name);
}

static int read_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ?
		       0 : -EFAULT;
}

/* The module's frame-pointer walk (fxt_stack_user()) over its memory. */
static uint32_t fp_walk(pid_t pid, const struct user_regs_struct *r,
			uint64_t *pcs)
{
	uint64_t frame[2], fp = r->rbp;
	uint32_t n = 0;

	pcs[n++] = r->rip;
	while (n < FXT_KSAMPLE_USER_MAX && fp && !(fp & 7) &&
	       !read_mem(pid, fp, frame, sizeof(frame)) && frame[1]) {
		pcs[n++] = frame[1];
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	return n;
}

/* The module's copy (fxt_copy_user_stack()): page by page from sp. */
static uint32_t copy_stack(pid_t pid, uint64_t sp, uint64_t *words)
{
	uint64_t at = sp, end = sp + FXT_KSAMPLE_STACK_MAX * 8, chunk;

	while (at < end) {
		chunk = ((at & ~(uint64_t)(PAGE - 1)) + PAGE < end ?
				 (at & ~(uint64_t)(PAGE - 1)) + PAGE : end) - at;
		if (read_mem(pid, at, &words[(at - sp) / 8], chunk))
			break;
		at += chunk;
	}
	return (uint32_t)((at - sp) / 8);
}

static int collect(void *ctx, const uint64_t *rec, size_t words)
{
	struct out *o = ctx;

	if (o->len + words > sizeof(o->w) / sizeof(*o->w))
		return -ENOSPC;
	memcpy(o->w + o->len, rec, words * sizeof(*rec));
	o->len += words;
	return 0;
}

/*
 * The names of the last stack o holds, leaf first, from the symbols the
 * end wrote ("?" for a frame without one): how many.
 */
static size_t stack_names(const struct out *o, const char **names,
			  size_t max)
{
	static char sym[256][64];
	struct fxt_stacks_stack st = { 0 };
	struct fxt_stacks_symbol s;
	size_t at, i, n, words;

	memset(sym, 0, sizeof(sym));
	for (at = 0; at < o->len; at += words) {
		uint16_t name = (uint16_t)FXT_GET(o->w[at], FXT_BLOB_NAME);

		words = fxt_record_words(o->w[at]);
		if (FXT_GET(o->w[at], FXT_HDR_TYPE) != FXT_RECORD_BLOB)
			continue;
		for (i = 1; name == FXT_KDEV_STR_STACKS && i < words; i += n)
			if (!(n = fxt_stacks_get_stack(o->w + at + i,
						       words - i, &st)))
				break;
		for (i = 1; name == FXT_KDEV_STR_SYMBOLS && i < words; i += n) {
			n = fxt_stacks_get_symbol(o->w + at + i, words - i, &s);
			if (!n)
				break;
			if (s.frame_id < 256)
				snprintf(sym[s.frame_id], sizeof(sym[0]),
					 "%.*s", (int)s.name_len, s.name);
		}
	}
	for (i = 0; i < st.nframes && i < max; i++) {
		uint32_t id = fxt_stacks_stack_frame(&st, (uint16_t)i);

		names[i] = id < 256 && sym[id][0] ? sym[id] : "?";
	}
	return i;
}

/* The record's stack through the filter: its names, and the stats. */
static size_t ingest(struct target *t, const uint64_t *rec, size_t words,
		     const char **names, struct profile_ingest_stats *st)
{
	const struct profile_resolver r = {
		.kernel_lookup = no_kernel, .in_sched_text = no_sched,
		.user_find = user_find, .user_cfi = user_cfi,
		.user_symbol = user_symbol, .ctx = t,
	};
	static struct out o;
	struct profile_ingest *p;
	size_t n, i;

	o.len = 0;
	if (profile_ingest_new(&r, 0, 0, &p))
		return 0;
	CHECK(!profile_ingest_record(p, rec, words, collect, &o), "ingest");
	CHECK(!profile_ingest_finish(p, collect, &o), "finish");
	profile_ingest_stats(p, st);
	profile_ingest_free(p);
	n = stack_names(&o, names, FXT_KSAMPLE_USER_MAX);
	for (i = 0; i < n; i++)
		printf("  #%zu %s\n", i, names[i]);
	return n;
}

/* Whether want[] are names[] from at on, in that order, read's first. */
static bool chain(const char **names, size_t n)
{
	static const char *const want[] = { "level_c", "level_b", "level_a",
					    "main" };
	size_t at, i;

	/* libc's names of it: read, __read, __libc_read. */
	if (!n || !strstr(names[0], "read"))
		return false;
	for (at = 1; at < n && strcmp(names[at], want[0]); at++)
		;
	for (i = 0; i < 4; i++)
		if (at + i >= n || strcmp(names[at + i], want[i]))
			return false;
	return true;
}

static void test(struct target *t, const struct user_regs_struct *r)
{
	static uint64_t rec[FXT_KSAMPLE_MAX_WORDS];
	uint64_t *pcs = rec + FXT_KSAMPLE_HEAD_WORDS, *tail;
	const char *names[FXT_KSAMPLE_USER_MAX];
	struct profile_ingest_stats st;
	uint32_t nu, ns;
	size_t n;

	nu = fp_walk(t->ctl.pid, r, pcs);
	tail = pcs + nu;
	ns = copy_stack(t->ctl.pid, r->rsp, tail + 2);
	tail[0] = r->rsp;
	tail[1] = r->rbp;
	printf("frame pointers: %u user PCs; copy: %u words at sp\n", nu, ns);
	CHECK(ns > FXT_KSAMPLE_STACK_LEAF, "the copy is a leaf's frame only");
	fxt_ksample_write_head((__u64 *)rec, FXT_KSAMPLE_OFFCPU, 1, t->ctl.pid,
			       t->ctl.pid, 0, 0, nu, ns, 1000);
	printf("unwound from the copy:\n");
	n = ingest(t, rec, fxt_ksample_words(0, nu, ns), names, &st);
	CHECK(n > nu, "%zu frames, not more than the %u walked", n, nu);
	CHECK(chain(names, n),
	      "not read <- level_c <- level_b <- level_a <- main");
	CHECK(st.unwind_walks == 1, "%" PRIu64 " walks counted",
	      st.unwind_walks);
	printf("walks %" PRIu64 ", stopped: unsupported %" PRIu64
	       ", read fault %" PRIu64 ", bad frame %" PRIu64 "\n",
	       st.unwind_walks, st.unwind_unsupported, st.unwind_read_fault,
	       st.unwind_bad_frame);

	/* A leaf's frame only (BPF's words): the record's PCs stand. */
	fxt_ksample_write_head((__u64 *)rec, FXT_KSAMPLE_OFFCPU, 1, t->ctl.pid,
			       t->ctl.pid, 0, 0, nu, FXT_KSAMPLE_STACK_LEAF,
			       1000);
	printf("a leaf's frame only:\n");
	n = ingest(t, rec, fxt_ksample_words(0, nu, FXT_KSAMPLE_STACK_LEAF),
		   names, &st);
	CHECK(!st.unwind_walks && n <= nu + 1,
	      "%zu frames from a leaf's frame", n);
}

int main(int argc, char **argv)
{
	static struct target t;
	struct user_regs_struct r;

#ifndef __x86_64__
	printf("skip: the rows are x86-64's\n");
	return SKIP;
#endif
	if (argc != 2)
		return 2;
	CHECK(!usyms_new(&t.u), "usyms_new");
	CHECK(!unwind_target_start(argv[1], &t.ctl), "cannot start %s",
	      argv[1]);
	CHECK(t.ctl.fn[0] && t.ctl.fn[3], "the target printed no addresses");
	if (unwind_target_stop(&t.ctl, &r)) {
		printf("skip: cannot ptrace the child: %s\n", strerror(errno));
		kill(t.ctl.pid, SIGKILL);
		return SKIP;
	}
	CHECK(!read_maps(&t) && t.nmaps, "cannot read the target's maps");
	test(&t, &r);
	kill(t.ctl.pid, SIGKILL);
	waitpid(t.ctl.pid, NULL, 0);
	usyms_free(t.u);
	return check_failures ? 1 : 0;
}
