// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_categories_parse(): the kernel: entries of --categories to
 * FXT_SCHED_EV_* events. The default is kernel:sched and kernel:proc;
 * kernel:irq and kernel:syscall are opt-in; provider categories are left
 * to the providers; a pattern (kernel:*, kernel:s*) is every category it
 * begins, as "net*" is for providers; an unknown kernel category, or a
 * pattern of none, is refused with the list of the known ones.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/fxt_sched_uapi.h>

#include "kernel_session.h"

static uint32_t parse(const char *list)
{
	char why[256] = "";
	uint32_t ev = 0;

	assert_int_equal(kernel_categories_parse(list, &ev, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	return ev;
}

static void defaults(void **state)
{
	assert_int_equal(parse(NULL), FXT_SCHED_EV_DEFAULT);
	assert_int_equal(parse(""), FXT_SCHED_EV_DEFAULT);
	/* Provider categories alone: the kernel's default. */
	assert_int_equal(parse("net,gfx"), FXT_SCHED_EV_DEFAULT);
}

static void opt_in(void **state)
{
	assert_int_equal(parse("kernel:irq"), FXT_SCHED_EV_IRQ);
	assert_int_equal(parse("net,kernel:syscall"), FXT_SCHED_EV_SYSCALL);
	assert_int_equal(parse("kernel:sched,kernel:irq,kernel:syscall"),
			 FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP |
				 FXT_SCHED_EV_NAMES | FXT_SCHED_EV_IRQ |
				 FXT_SCHED_EV_SYSCALL);
	assert_int_equal(parse("kernel:proc"),
			 FXT_SCHED_EV_PROC | FXT_SCHED_EV_NAMES);
	/* Counters and block requests are on no thread: no names. */
	assert_int_equal(parse("kernel:power"), FXT_SCHED_EV_POWER);
	assert_int_equal(parse("kernel:block"), FXT_SCHED_EV_BLOCK);
	assert_int_equal(parse("kernel:fault"),
			 FXT_SCHED_EV_FAULT | FXT_SCHED_EV_NAMES);
	/* RSS counters are on processes, stalls on threads: names. */
	assert_int_equal(parse("kernel:mem"),
			 FXT_SCHED_EV_MEM | FXT_SCHED_EV_NAMES);
	assert_int_equal(parse("kernel:power,kernel:block,kernel:fault"),
			 FXT_SCHED_EV_DEV | FXT_SCHED_EV_NAMES);
	/* Stacks are on threads: names. */
	assert_int_equal(parse("kernel:sample"),
			 FXT_SCHED_EV_SAMPLE | FXT_SCHED_EV_NAMES);
	assert_int_equal(parse("kernel:offcpu"),
			 FXT_SCHED_EV_OFFCPU | FXT_SCHED_EV_NAMES);
}

static void patterns(void **state)
{
	assert_int_equal(parse("kernel:*"), FXT_SCHED_EV_ALL);
	assert_int_equal(parse("net*,kernel:s*"),
			 FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP |
				 FXT_SCHED_EV_NAMES | FXT_SCHED_EV_SYSCALL |
				 FXT_SCHED_EV_SAMPLE);
	assert_int_equal(parse("kernel:sched*"), parse("kernel:sched"));
	/* "*" alone is the providers': the kernel's default. */
	assert_int_equal(parse("*"), FXT_SCHED_EV_DEFAULT);
}

static void unknown(void **state)
{
	char why[256] = "";
	uint32_t ev = 0;

	assert_int_equal(kernel_categories_parse("kernel:sched,kernel:irqs", &ev,
						 why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "'kernel:irqs'"));
	assert_non_null(strstr(why, "kernel:sched, kernel:proc, kernel:irq, kernel:syscall, kernel:power, kernel:block, kernel:fault, kernel:mem, kernel:sample, kernel:offcpu"));
	assert_int_equal(kernel_categories_parse("kernel:x*", &ev, why,
						 sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "'kernel:x*'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(opt_in),
		cmocka_unit_test(patterns),
		cmocka_unit_test(unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
