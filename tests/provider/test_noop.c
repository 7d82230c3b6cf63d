// SPDX-License-Identifier: GPL-2.0-only
/*
 * Without a trace manager every call is a no-op: sites settle to
 * "disabled" after one evaluation, arguments are then never evaluated,
 * nothing is written, and the only thread the library adds is its one
 * background thread, started by the first call site, not before.
 */
#include "provider_test.h"

#include <dirent.h>
#include <errno.h>

static int evaluations;

static int count_evaluation(void)
{
	return ++evaluations;
}

static int provider_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int found = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f))
			found += !strcmp(comm, "fxt-provider\n");
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

static void every_macro(int i)
{
	static const char blob[] = "blob";

	TRACE_INSTANT("c", "instant", TRACE_SCOPE_GLOBAL,
		      TRACE_ARG_I32("n", count_evaluation()));
	TRACE_COUNTER("c", "counter", 1, TRACE_ARG_I64("v", i));
	TRACE_DURATION_BEGIN("c", "begin");
	TRACE_DURATION_END("c", "begin");
	TRACE_COMPLETE("c", "complete", fxt_now(), fxt_now());
	{
		TRACE_DURATION("c", "scoped", TRACE_ARG_STR("s", "v"));
	}
	TRACE_ASYNC_BEGIN("c", "async", 1);
	TRACE_ASYNC_INSTANT("c", "async", 1);
	TRACE_ASYNC_END("c", "async", 1);
	TRACE_FLOW_BEGIN("c", "flow", 1);
	TRACE_FLOW_STEP("c", "flow", 1);
	TRACE_FLOW_END("c", "flow", 1);
	TRACE_BLOB("c", "blob", FXT_BLOB_DATA, blob, sizeof(blob));
	TRACE_LOG("c", "log", 3);
	TRACE_LOGF("c", "log %d", i);
	TRACE_USERSPACE_OBJECT("c", &i, "object");
	TRACE_KERNEL_OBJECT("c", 1, FXT_ZX_OBJ_PROCESS, "process");
}

static void test_lazy_start(void **state)
{
	(void)state;
	/* Linking the library costs no thread until a call site runs. */
	assert_int_equal(provider_threads(), 0);
}

static void test_every_call_is_a_noop(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		every_macro(i);
	/* Evaluated once, when the site was looked at for the first time. */
	assert_int_equal(evaluations, 1);
	assert_false(fxt_category_enabled("c"));
	assert_false(TRACE_ENABLED("c"));
	/* No trace: a trigger is a no-op; a bad name is refused. */
	assert_int_equal(fxt_trigger("jank"), 0);
	TRACE_TRIGGER("jank");
	assert_int_equal(fxt_trigger(""), -EINVAL);
	assert_int_equal(fxt_trigger(NULL), -EINVAL);
	assert_int_equal(fxt_trigger("0123456789012345678901234567890123456789012345678901234567890123"),
			 -EINVAL);
	/* One background thread, however many sites ran. */
	assert_int_equal(provider_threads(), 1);
}

static void test_site_settles_disabled(void **state)
{
	struct fxt_site site = { 0 };

	(void)state;
	fxt_internal_event(&site, "c", "direct", FXT_EVENT_INSTANT, 0, 0,
			   NULL, 0);
	assert_true(site.state == FXT_SITE_DISABLED);
	assert_false(fxt_site_maybe_enabled(&site));
	assert_non_null(site.next);
	/* A NULL site (no cache) is fine too. */
	fxt_internal_event(NULL, "c", "direct", FXT_EVENT_INSTANT, 0, 0,
			   NULL, 0);
}

static void test_api(void **state)
{
	uint64_t a, b;

	(void)state;
	assert_int_equal(fxt_provider_init(NULL), -EINVAL);
	assert_int_equal(fxt_provider_init(""), -EINVAL);
	a = fxt_now();
	b = fxt_now();
	assert_true(a > 0 && b >= a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_start),
		cmocka_unit_test(test_every_call_is_a_noop),
		cmocka_unit_test(test_site_settles_disabled),
		cmocka_unit_test(test_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
