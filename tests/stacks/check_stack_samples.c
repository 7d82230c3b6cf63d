// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-stack-samples: kernel:sample and kernel:offcpu in an archive in
 * the form the manager writes (include/fxt/stacks.h), against
 * stack-workload's functions:
 * - no raw record of the kernel side (include/fxt/ksample.h), and no
 *   word of the file inside the kernel's text (KALLSYMS's ranges);
 * - every sample's stack, and every frame of those, defined;
 * - on-CPU samples of thread WORKER of PID: their leaf user frame in
 *   burn_seventy or burn_thirty, the first 65%..75% of both (a frame in
 *   a known file by its ELF address, one in none by its raw PC);
 * - off-CPU samples of thread BLOCKER: at least 5 with blocked_ns > 0,
 *   kernel frames (one of them named) and user frames;
 * - the end's Perfetto blobs and their one drop count.
 *
 * check-stack-samples FILE KALLSYMS PID WORKER BLOCKER SEVENTY THIRTY
 *     SEVENTY, THIRTY: RUNTIME,SIZE,VADDR (hexadecimal): where the
 *     function was at run time, its size, its address in the ELF file.
 * Prints the counts; exits 1 on a mismatch or a reader diagnostic, 2 on
 * a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "archive_check.h"
#include "fxt_reader.h"
#include "ksyms.h"

/*
 * Ids of one trace's frames and stacks count from 1 (a trace taken over
 * after a restart starts at its generation << 24: not checked here).
 * Small: the guest runs this beside two managers in 1 GiB.
 */
#define IDS_MAX (1u << 20)

struct range {
	uint64_t runtime, size, vaddr;
};

struct frame {
	bool defined, named_kernel;
	uint8_t kind;
	uint32_t mapping;
	uint64_t addr;
};

struct stack {
	bool defined;
	uint16_t nframes, nkernel;
	uint32_t leaf_user; /* frame id, 0 none */
};

struct sample {
	bool offcpu;
	uint64_t pid, tid, stack, weight;
};

struct check {
	uint64_t pid, worker, blocker;
	uint32_t frame_id_max;	/* the largest frame id defined */
	struct range seventy, thirty;
	struct frame *frames;
	struct stack *stacks;
	struct sample *samples;
	size_t nsamples, cap;
	uint64_t diags, raw, bad;
	uint64_t perfetto, perfetto_dropped; /* blobs of the stop */
};

static void table_frames(struct check *c, const uint64_t *w, size_t n)
{
	struct fxt_stacks_frame f;
	size_t used;

	for (; n; w += used, n -= used) {
		used = fxt_stacks_get_frame(w, n, &f);
		if (!used || !f.id || f.id >= IDS_MAX) {
			c->bad++;
			return;
		}
		if (f.id > c->frame_id_max)
			c->frame_id_max = f.id;
		c->frames[f.id] = (struct frame){
			.defined = true,
			.kind = f.kind,
			.mapping = f.mapping_id,
			.addr = f.addr,
			.named_kernel = f.kind == FXT_STACKS_FRAME_KERNEL &&
					!(f.name_len == 8 &&
					  !memcmp(f.name, "[kernel]", 8)),
		};
	}
}

/* Frames are defined before the stacks that name them. */
static void table_stacks(struct check *c, const uint64_t *w, size_t n)
{
	struct fxt_stacks_stack s;
	size_t used;
	uint16_t i;

	for (; n; w += used, n -= used) {
		used = fxt_stacks_get_stack(w, n, &s);
		if (!used || !s.id || s.id >= IDS_MAX) {
			c->bad++;
			return;
		}
		c->stacks[s.id] =
			(struct stack){ .defined = true, .nframes = s.nframes };
		for (i = 0; i < s.nframes; i++) {
			uint32_t f = fxt_stacks_stack_frame(&s, i);

			if (f >= IDS_MAX || !c->frames[f].defined) {
				c->bad++;
				continue;
			}
			if (c->frames[f].kind == FXT_STACKS_FRAME_KERNEL)
				c->stacks[s.id].nkernel++;
			else if (!c->stacks[s.id].leaf_user)
				c->stacks[s.id].leaf_user = f;
		}
	}
}

static void see_sample(struct check *c, const struct fxt_record *r)
{
	struct fxt_stacks_sample s;

	if (fxt_stacks_get_sample(r->words, r->size_words, &s)) {
		c->bad++;
		return;
	}
	if (c->nsamples == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->samples = realloc(c->samples, c->cap * sizeof(*c->samples));
		if (!c->samples)
			abort();
	}
	c->samples[c->nsamples++] = (struct sample){
		.offcpu = fxt_str_is(r->large_blob.category, "kernel:offcpu"),
		.pid = s.pid,
		.tid = s.tid,
		.stack = s.stack_id,
		.weight = s.weight_ns,
	};
}

/*
 * The archive's sample and the raw record share their category, name
 * and format word: the raw one is told by its arguments and PCs.
 */
static void see(struct check *c, const struct fxt_record *r)
{
	const uint64_t *payload = (const uint64_t *)r->blob.payload;
	struct fxt_ksample raw;

	if (r->type == FXT_RECORD_LARGE) {
		if (fxt_ksample_parse((const __u64 *)r->words, r->size_words,
				      &raw))
			c->raw++;
		else if (fxt_str_is(r->large_blob.category, "kernel:sample") ||
			 fxt_str_is(r->large_blob.category, "kernel:offcpu"))
			see_sample(c, r);
		return;
	}
	if (r->type == FXT_RECORD_BLOB &&
	    r->blob.blob_type == FXT_BLOB_PERFETTO)
		c->perfetto++;
	if (r->type != FXT_RECORD_BLOB || r->blob.blob_type != FXT_BLOB_DATA)
		return;
	if (fxt_str_is(r->blob.name, FXT_STACKS_NAME_PERFETTO_DROPPED))
		c->perfetto_dropped++;
	if (fxt_str_is(r->blob.name, FXT_STACKS_NAME_FRAMES))
		table_frames(c, payload, r->blob.payload_len / 8);
	else if (fxt_str_is(r->blob.name, FXT_STACKS_NAME_STACKS))
		table_stacks(c, payload, r->blob.payload_len / 8);
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

/* Every word of the file, against every text range of the kernel. */
static uint64_t kernel_words(const char *path, const char *kallsyms)
{
	const uint64_t(*ranges)[2];
	struct ksyms *k;
	uint64_t w, found = 0;
	size_t n, i;
	FILE *f;

	if (ksyms_load(kallsyms, &k)) {
		fprintf(stderr, "%s: cannot load\n", kallsyms);
		return 1;
	}
	n = ksyms_ranges(k, &ranges);
	f = fopen(path, "rb");
	while (f && fread(&w, sizeof(w), 1, f) == 1)
		for (i = 0; i < n; i++)
			if (w >= ranges[i][0] && w < ranges[i][1]) {
				if (!found++)
					printf("kernel address %#" PRIx64
					       " at offset %ld\n",
					       w, ftell(f) - 8);
				break;
			}
	if (f)
		fclose(f);
	ksyms_free(k);
	return f ? found : 1;
}

static bool in(const struct range *r, const struct frame *f)
{
	uint64_t start = f->mapping ? r->vaddr : r->runtime;

	return f->addr >= start && f->addr < start + r->size;
}

struct counts {
	uint64_t worker, seventy, thirty, blocked, blocked_full, named;
};

static void count(const struct check *c, struct counts *n)
{
	size_t i;

	for (i = 0; i < c->nsamples; i++) {
		const struct sample *s = &c->samples[i];
		const struct stack *st =
			s->stack < IDS_MAX ? &c->stacks[s->stack] : NULL;
		const struct frame *leaf;

		if (s->pid != c->pid || !st || !st->defined)
			continue;
		leaf = st->leaf_user ? &c->frames[st->leaf_user] : NULL;
		if (!s->offcpu && s->tid == c->worker && leaf) {
			n->worker++;
			n->seventy += in(&c->seventy, leaf);
			n->thirty += in(&c->thirty, leaf);
		}
		if (s->offcpu && s->tid == c->blocker) {
			n->blocked++;
			n->blocked_full += s->weight > 0 && st->nkernel && leaf;
		}
	}
	for (i = 0; i <= c->frame_id_max; i++)
		n->named += c->frames[i].named_kernel;
}

static bool undefined_stacks(const struct check *c)
{
	size_t i;

	for (i = 0; i < c->nsamples; i++)
		if (c->samples[i].stack >= IDS_MAX ||
		    !c->stacks[c->samples[i].stack].defined)
			return true;
	return false;
}

static bool verdict(const struct check *c)
{
	struct counts n = { 0 };
	uint64_t burnt;
	bool ok = !c->raw && !c->bad && !undefined_stacks(c);

	count(c, &n);
	burnt = n.seventy + n.thirty;
	printf("%zu samples, %" PRIu64 " raw, %" PRIu64
	       " malformed; kernel frames named: %" PRIu64 "\n",
	       c->nsamples, c->raw, c->bad, n.named);
	printf("on-cpu: %" PRIu64 " of the worker, %" PRIu64
	       " in burn_seventy, %" PRIu64 " in burn_thirty\n",
	       n.worker, n.seventy, n.thirty);
	printf("off-cpu: %" PRIu64 " of the blocker, %" PRIu64
	       " blocked with kernel and user frames\n",
	       n.blocked, n.blocked_full);
	if (burnt < 20 || burnt * 10 < n.worker * 8) {
		printf("too few samples in the burn functions\n");
		ok = false;
	} else if (n.seventy * 100 < burnt * 65 ||
		   n.seventy * 100 > burnt * 75) {
		printf("burn_seventy has %.0f%% of the burn samples\n",
		       100.0 * n.seventy / burnt);
		ok = false;
	}
	if (!c->perfetto || c->perfetto_dropped != 1) {
		printf("%" PRIu64 " Perfetto blobs, %" PRIu64
		       " Perfetto drop counts: not those of a stop\n",
		       c->perfetto, c->perfetto_dropped);
		ok = false;
	}
	if (n.blocked_full < 5 || !n.named) {
		printf("too few off-CPU samples of the blocker, or no kernel frame named\n");
		ok = false;
	}
	return ok;
}

static int parse_range(const char *arg, struct range *r)
{
	char *end;

	r->runtime = strtoull(arg, &end, 16);
	if (*end != ',')
		return -1;
	r->size = strtoull(end + 1, &end, 16);
	if (*end != ',')
		return -1;
	r->vaddr = strtoull(end + 1, &end, 16);
	return *end || !r->runtime || !r->size ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	uint64_t kwords;
	bool ok;

	if (argc != 8 || parse_range(argv[6], &c.seventy) ||
	    parse_range(argv[7], &c.thirty)) {
		fprintf(stderr,
			"usage: check-stack-samples FILE KALLSYMS PID WORKER BLOCKER SEVENTY THIRTY\n");
		return 2;
	}
	c.pid = strtoull(argv[3], NULL, 10);
	c.worker = strtoull(argv[4], NULL, 10);
	c.blocker = strtoull(argv[5], NULL, 10);
	c.frames = calloc(IDS_MAX, sizeof(*c.frames));
	c.stacks = calloc(IDS_MAX, sizeof(*c.stacks));
	if (!c.frames || !c.stacks) {
		perror("check-stack-samples: tables");
		return 1;
	}
	if (read_archive(&c, argv[1]))
		return 1;
	kwords = kernel_words(argv[1], argv[2]);
	printf("%" PRIu64 " words of the archive in the kernel's text\n",
	       kwords);
	ok = verdict(&c) && !kwords;
	free(c.frames);
	free(c.stacks);
	free(c.samples);
	return ok ? 0 : 1;
}
