// SPDX-License-Identifier: GPL-2.0-only
/*
 * A buffer's pages written once ahead of the writers (buffer.c): all of a
 * small buffer before the trace starts, every page of a large one
 * eventually, and never a byte changed, whether written before the touch
 * or by a writer during it; a buffer's whole 2 MiB ranges made huge
 * pages, mapped whole, where the kernel allows it.
 */
#include "provider_test.h"

#include <pthread.h>

#define PAGE 4096ull
#define EVENTS 200000u
#define PASSES 20

/*
 * Whether this kernel makes a memfd's ranges huge on request: THP built
 * in, shmem not "deny" (Debian's default "never" allows MADV_COLLAPSE).
 */
static bool huge_allowed(void)
{
	char line[256] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled",
			"re");

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	return line[0] && !strstr(line, "[deny]");
}

/* kB of the mapping at addr mapped by huge page entries (smaps). */
static unsigned long pmd_mapped_kb(const void *addr)
{
	char line[256];
	unsigned long kb = 0, lo, hi;
	bool ours = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			ours = lo == (uintptr_t)addr;
		else if (ours)
			sscanf(line, "ShmemPmdMapped: %lu kB", &kb);
	}
	fclose(f);
	return kb;
}

static uint64_t pages_of(const struct test_buffer *t)
{
	return (t->size + PAGE - 1) / PAGE;
}

/* 17 pages: the first batch covers them, however slow the machine. */
static void test_small_buffer_touched_at_start(void **state)
{
	struct test_buffer t = { .fd = -1 };

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 0, 1 << 16, false), 0);
	assert_int_equal(pages_of(&t), 17);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	assert_int_equal(fxt_test_touched(t.b), 17);
	test_buffer_free(&t);
}

static void emit(uint32_t from, uint32_t n)
{
	uint32_t i;

	for (i = from; i < from + n; i++)
		TRACE_INSTANT("pages", "event", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("i", i));
}

static void test_touch_changes_no_byte(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint8_t *copy;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 16, 4 << 20, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_CIRCULAR, "pages", -1);
	emit(0, EVENTS);
	copy = malloc(t.size);
	assert_non_null(copy);
	memcpy(copy, t.hdr, t.size);
	fxt_test_touch(t.b, true);
	assert_int_equal(fxt_test_touched(t.b), pages_of(&t));
	assert_memory_equal(copy, t.hdr, t.size);
	/* 8 MiB and 68 KiB: four whole ranges, each made huge once. */
	if (huge_allowed()) {
		assert_int_equal(fxt_test_collapsed(t.b), 4);
		assert_int_equal(pmd_mapped_kb(fxt_test_mapping(t.b)), 8192);
	}
	free(copy);
	test_buffer_free(&t);
}

static void *writer(void *arg)
{
	(void)arg;
	emit(0, EVENTS);
	return NULL;
}

/* Every event a writer wrote during the touches reads back, in order. */
static void test_touch_beside_a_writer(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct fxt_reader *r;
	struct fxt_record rec;
	uint32_t next = 0;
	uint8_t *data;
	pthread_t th;
	size_t len;
	int i;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 16, 32 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "pages", -1);
	assert_int_equal(pthread_create(&th, NULL, writer, NULL), 0);
	for (i = 0; i < PASSES; i++)
		fxt_test_touch(t.b, true);
	pthread_join(th, NULL);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	if (huge_allowed())
		assert_int_equal(fxt_test_collapsed(t.b), 16);
	data = test_buffer_collect(&t, &len);
	r = test_reader(data, len);
	while (fxt_reader_next(r, &rec) == 1)
		if (rec.type == FXT_RECORD_EVENT)
			assert_int_equal(rec.args[0].value.u32, next++);
	assert_int_equal(next, EVENTS);
	fxt_reader_close(r);
	free(data);
	test_buffer_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_buffer_touched_at_start),
		cmocka_unit_test(test_touch_changes_no_byte),
		cmocka_unit_test(test_touch_beside_a_writer),
	};

	fxt_test_disable_transport();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
