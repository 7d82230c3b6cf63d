// SPDX-License-Identifier: GPL-2.0-only
/*
 * What tracectl record adds to --categories: kernel:proc to a list of
 * kernel categories, kernel:sched to stack samples, nothing a list (or a
 * pattern of it) already has, and which one did not fit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "record_categories.h"

/* list after record's additions, or the one that did not fit */
static void check(const char *list, size_t size, const char *want,
		  const char *missing)
{
	char buf[128];
	const char *got;

	assert_true(size <= sizeof(buf));
	snprintf(buf, sizeof(buf), "%s", list);
	got = record_categories_add(buf, size);
	if (missing)
		assert_string_equal(got, missing);
	else
		assert_null(got);
	assert_string_equal(buf, want);
}

static void test_additions(void **state)
{
	(void)state;
	/* no kernel category: the kernel's default has both */
	check("", 128, "", NULL);
	check("net,gfx", 128, "net,gfx", NULL);
	check("kernel:irq", 128, "kernel:irq,kernel:proc", NULL);
	check("kernel:sample,kernel:offcpu", 128,
	      "kernel:sample,kernel:offcpu,kernel:proc,kernel:sched", NULL);
	check("kernel:offcpu", 128, "kernel:offcpu,kernel:proc,kernel:sched",
	      NULL);
	check("app,kernel:sample,kernel:sched,kernel:proc", 128,
	      "app,kernel:sample,kernel:sched,kernel:proc", NULL);
	/* patterns that have them */
	check("kernel:*", 128, "kernel:*", NULL);
	check("kernel:sample,kernel:s*,kernel:p*", 128,
	      "kernel:sample,kernel:s*,kernel:p*", NULL);
	/* a prefix of a name is not the name */
	check("kernel:sample,kernel:sche", 128,
	      "kernel:sample,kernel:sche,kernel:proc,kernel:sched", NULL);
}

static void test_no_room(void **state)
{
	(void)state;
	/* "kernel:sample" + ",kernel:proc" fits 26 bytes, not ",kernel:sched" */
	check("kernel:sample", 26, "kernel:sample,kernel:proc", "kernel:sched");
	check("kernel:sample", 20, "kernel:sample", "kernel:proc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_additions),
		cmocka_unit_test(test_no_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
