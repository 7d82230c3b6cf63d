// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU merge of kernel_merge.c on synthetic CPU streams: timed
 * records in timestamp order, untimed ones ahead of the next timed record
 * of their CPU (after every older one of the others, or last when no timed
 * record follows), the horizon keeping later records for the next run, chunk
 * refills, the per-run budget, a record whose size cannot be right, and
 * the raw stack samples, timed at their word 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/ksample.h>
#include <fxt/sched.h>

#include "kernel_merge.h"
#include "check.h"

#define NCPU 3
#define MAX_WORDS 4096


/* A fake backend: each CPU's records, handed out whole, oldest first. */
struct fake {
	__u64 words[NCPU][MAX_WORDS];
	size_t len[NCPU], pos[NCPU];
	unsigned int reads[NCPU];
};

struct sink {
	__u64 words[NCPU * MAX_WORDS];
	size_t len;
	unsigned int records;
	int fail_after;		/* -1: never */
};

static void add_switch(struct fake *f, unsigned int cpu, __u64 ts)
{
	fxt_sched_write_switch(f->words[cpu] + f->len[cpu], ts, cpu,
			       FXT_THREAD_BLOCKED, 100 + cpu, 200 + cpu, 1024,
			       1024);
	f->len[cpu] += FXT_SCHED_SWITCH_WORDS;
}

/* A thread name record (untimed): tid encodes the CPU and a sequence. */
static void add_name(struct fake *f, unsigned int cpu, __u64 tid)
{
	__u64 *w = f->words[cpu] + f->len[cpu];

	memset(w, 0, 5 * sizeof(*w));
	fxt_sched_write_thread_object(w, tid, 1, 3);
	memcpy(w + 2, "abc", 3);
	f->len[cpu] += fxt_sched_thread_words(3);
}

static ssize_t fake_read(void *ctx, unsigned int cpu, void *buf, size_t cap)
{
	struct fake *f = ctx;
	size_t n = 0, words;

	f->reads[cpu]++;
	while (f->pos[cpu] + n < f->len[cpu]) {
		words = fxt_record_words(f->words[cpu][f->pos[cpu] + n]);
		if (!words)
			words = 1;	/* a deliberately broken record */
		if ((n + words) * 8 > cap)
			break;
		n += words;
	}
	memcpy(buf, f->words[cpu] + f->pos[cpu], n * 8);
	f->pos[cpu] += n;
	return (ssize_t)(n * 8);
}

static int sink_emit(void *ctx, const uint64_t *rec, size_t words)
{
	struct sink *s = ctx;

	if (s->fail_after >= 0 && s->records == (unsigned int)s->fail_after)
		return -EIO;
	memcpy(s->words + s->len, rec, words * 8);
	s->len += words;
	s->records++;
	return 0;
}

static bool is_timed(__u64 h)
{
	return FXT_GET(h, FXT_HDR_TYPE) == FXT_RECORD_SCHEDULING;
}

/* Walks the output: timestamps never go back; returns the record count. */
static unsigned int check_order(const struct sink *s, const char *what)
{
	__u64 last = 0;
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < s->len; i += fxt_record_words(s->words[i]), n++) {
		if (!is_timed(s->words[i]))
			continue;
		CHECK(s->words[i + 1] >= last, "%s: ts %" PRIu64 " after %" PRIu64,
		      what, (uint64_t)s->words[i + 1], (uint64_t)last);
		last = s->words[i + 1];
	}
	return n;
}

static void test_order_and_names(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	struct kernel_merge *m = kernel_merge_new(NCPU, 64 * 8);
	static unsigned int switch_at[300], name_at[300];
	unsigned int cpu, i, n;
	size_t k;

	/* Interleaved timestamps; every 5th record preceded by a name. */
	for (i = 0; i < 300; i++) {
		cpu = i % NCPU;
		if (i % 5 == 0)
			add_name(&f, cpu, 1000 + i);
		add_switch(&f, cpu, 10 * i + (cpu == 1 ? 3 : 0));
	}
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				UINT64_MAX), "run");
	CHECK(check_order(&s, "order") == 300 + 60, "%u records",
	      check_order(&s, "order"));
	/*
	 * Name 1000+i sits in its CPU's stream between the switches stamped
	 * 10*(i-NCPU) and 10*i: the merge must keep it there.
	 */
	for (k = 0, n = 0; k < s.len; k += fxt_record_words(s.words[k])) {
		if (is_timed(s.words[k]))
			switch_at[s.words[k + 1] / 10] = ++n;
		else
			name_at[s.words[k + 1] - 1000] = ++n;
	}
	for (i = 0; i < 300; i += 5) {
		CHECK(name_at[i] && name_at[i] < switch_at[i],
		      "name %u at %u, its switch at %u", i, name_at[i],
		      switch_at[i]);
		/* Older than switch i: switch i-1, of another CPU. */
		CHECK(!i || name_at[i] > switch_at[i - 1],
		      "name %u at %u before the older switch at %u", i,
		      name_at[i], switch_at[i - 1]);
	}
	for (cpu = 0; cpu < NCPU; cpu++)
		CHECK(f.reads[cpu] > 1, "cpu %u read %u times: no refill", cpu,
		      f.reads[cpu]);
	kernel_merge_free(m);
}

static void test_horizon(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	struct kernel_merge *m = kernel_merge_new(NCPU, 1024 * 8);
	unsigned int i, first;

	for (i = 0; i < 100; i++)
		add_switch(&f, i % NCPU, 100 * i);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				4950), "run 1");
	first = check_order(&s, "horizon 1");
	CHECK(first == 50, "%u records up to the horizon", first);
	CHECK(s.words[s.len - FXT_SCHED_SWITCH_WORDS + 1] <= 4950,
	      "a record past the horizon");
	/* The kept records come first in the next run, then new ones. */
	for (i = 100; i < 110; i++)
		add_switch(&f, i % NCPU, 100 * i);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				UINT64_MAX), "run 2");
	CHECK(check_order(&s, "horizon 2") == 110, "%u records in all",
	      check_order(&s, "horizon 2"));
	kernel_merge_free(m);
}

/* The position of untimed record tid in the sink's output, 0 if absent. */
static unsigned int name_position(const struct sink *s, __u64 tid)
{
	unsigned int n = 0;
	size_t k;

	for (k = 0; k < s->len; k += fxt_record_words(s->words[k])) {
		n++;
		if (!is_timed(s->words[k]) && s->words[k + 1] == tid)
			return n;
	}
	return 0;
}

/*
 * A name with no timed record after it on its CPU (a rename on an
 * otherwise quiet CPU) waits while capture runs: a fork on another CPU,
 * stamped before it but past this run's horizon, may still come. The
 * run with no horizon puts it last. Names filling half a chunk go out
 * without waiting, in their CPU's order.
 */
static void test_tails(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	struct kernel_merge *m = kernel_merge_new(2, 64 * 8);
	unsigned int i;

	add_switch(&f, 0, 10);
	add_name(&f, 0, 7);
	add_switch(&f, 1, 20);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				15), "run 1");
	CHECK(s.records == 1 && !name_position(&s, 7),
	      "%u records, the name at %u: it did not wait", s.records,
	      name_position(&s, 7));
	add_name(&f, 1, 8);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				UINT64_MAX), "run 2");
	CHECK(s.records == 4 && name_position(&s, 7) > 2 &&
	      name_position(&s, 8) > 2,
	      "%u records, names at %u and %u, not after the switch at 20",
	      s.records, name_position(&s, 7), name_position(&s, 8));
	kernel_merge_free(m);

	memset(&f, 0, sizeof(f));
	memset(&s, 0, sizeof(s));
	s.fail_after = -1;
	m = kernel_merge_new(1, 64 * 8);
	for (i = 0; i < 40; i++)
		add_name(&f, 0, 100 + i);
	add_switch(&f, 0, 5);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				1), "names past half a chunk");
	CHECK(s.records >= 7 && name_position(&s, 100) == 1,
	      "%u names out before their switch, past the horizon",
	      s.records);
	for (i = 1; i < s.records; i++)
		CHECK(name_position(&s, 100 + i) == i + 1, "name %u at %u", i,
		      name_position(&s, 100 + i));
	kernel_merge_free(m);
}

static void test_budget_and_errors(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	static struct sink failing = { .fail_after = 3 };
	struct kernel_merge *m = kernel_merge_new(1, 8 * 8);
	unsigned int i;

	for (i = 0; i < 20; i++)
		add_switch(&f, 0, i);
	/* 2 records per run: the budget stops a busy CPU, nothing is lost. */
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s,
				2 * FXT_SCHED_SWITCH_WORDS * 8, UINT64_MAX),
	      "budget run");
	CHECK(s.records <= 3, "%u records past a 2-record budget", s.records);
	while (s.records < 20 && !kernel_merge_run(m, fake_read, &f, sink_emit,
						   &s, 1 << 20, UINT64_MAX))
		;
	CHECK(s.records == 20 && check_order(&s, "budget") == 20,
	      "%u records after the budget", s.records);
	kernel_merge_free(m);

	memset(&f, 0, sizeof(f));
	m = kernel_merge_new(1, 64 * 8);
	for (i = 0; i < 10; i++)
		add_switch(&f, 0, i);
	CHECK(kernel_merge_run(m, fake_read, &f, sink_emit, &failing,
			       UINT64_MAX, UINT64_MAX) == -EIO,
	      "the writer's error is returned");
	kernel_merge_free(m);
}

/* A raw stack sample (include/fxt/ksample.h) of two kernel PCs at ts. */
static void add_sample(struct fake *f, unsigned int cpu, __u64 ts)
{
	__u64 *w = f->words[cpu] + f->len[cpu];

	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, ts, 7, 8, cpu, 2, 0, 0,
			       1000);
	w[FXT_KSAMPLE_HEAD_WORDS] = 0xffffffff81000000ull;
	w[FXT_KSAMPLE_HEAD_WORDS + 1] = 0xffffffff81000100ull;
	f->len[cpu] += fxt_ksample_words(2, 0, 0);
}

/*
 * Samples are ordered by their timestamp at word 2 (word 1 is the
 * format word, far larger than any timestamp here), and the horizon
 * holds them back like any timed record.
 */
static void test_samples(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	struct kernel_merge *m = kernel_merge_new(2, 64 * 8);
	__u64 order[4], at = 0;
	size_t k;
	unsigned int n = 0;

	add_sample(&f, 0, 10);
	add_switch(&f, 0, 30);
	add_switch(&f, 1, 20);
	add_sample(&f, 1, 40);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				35), "run 1");
	CHECK(s.records == 3, "%u records up to the horizon", s.records);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				UINT64_MAX), "run 2");
	for (k = 0; k < s.len && n < 4; k += fxt_record_words(s.words[k])) {
		at = fxt_ksample_is(s.words[k], s.words[k + 1]) ?
			     s.words[k + FXT_KSAMPLE_TS_WORD] :
			     s.words[k + 1];
		order[n++] = at;
	}
	CHECK(n == 4 && order[0] == 10 && order[1] == 20 && order[2] == 30 &&
		      order[3] == 40,
	      "samples out of order: %u records, %" PRIu64 " %" PRIu64
	      " %" PRIu64 " %" PRIu64,
	      n, (uint64_t)order[0], (uint64_t)order[1], (uint64_t)order[2],
	      (uint64_t)order[3]);
	CHECK(kernel_merge_malformed(m) == 0, "malformed");
	kernel_merge_free(m);
}

/* A header claiming more words than the chunk holds: skipped, counted. */
static void test_malformed(void)
{
	static struct fake f;
	static struct sink s = { .fail_after = -1 };
	struct kernel_merge *m = kernel_merge_new(1, 64 * 8);

	add_switch(&f, 0, 1);
	f.words[0][f.len[0]++] = fxt_record_header(FXT_RECORD_SCHEDULING, 0);
	CHECK(!kernel_merge_run(m, fake_read, &f, sink_emit, &s, UINT64_MAX,
				UINT64_MAX), "run");
	CHECK(s.records == 1, "%u records", s.records);
	CHECK(kernel_merge_malformed(m) == 1, "%" PRIu64 " malformed",
	      kernel_merge_malformed(m));
	kernel_merge_free(m);
}

int main(void)
{
	test_order_and_names();
	test_horizon();
	test_tails();
	test_budget_and_errors();
	test_malformed();
	test_samples();
	return check_failures ? 1 : 0;
}
