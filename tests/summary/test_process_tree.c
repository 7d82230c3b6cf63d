// SPDX-License-Identifier: GPL-2.0-only
/*
 * The processes a summary keeps to: the command's mark and the forks
 * give the same tree in any order of the records; only the mark of
 * provider "fxtraced" counts; --pid and --process trees; nothing kept to
 * without a mark, or with --all; past the maximum, counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fxt/record_command.h>

#include "process_tree.h"

static const struct fxt_provider fxtraced = {
	.id = 2,
	.name = { FXT_RECORD_COMMAND_PROVIDER, 8 },
};
static const struct fxt_provider other = { .id = 3, .name = { "app", 3 } };

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ s, (uint32_t)strlen(s) };
}

static struct fxt_record instant(const struct fxt_provider *p, const char *cat,
				 const char *name, uint64_t pid)
{
	struct fxt_record rec = { .type = FXT_RECORD_EVENT, .provider = p };

	rec.event.type = FXT_EVENT_INSTANT;
	rec.event.category = str(cat);
	rec.event.name = str(name);
	rec.event.thread.pid = pid;
	rec.event.thread.tid = pid;
	return rec;
}

static void feed_mark(struct process_tree *t, const struct fxt_provider *p,
		      uint64_t pid)
{
	struct fxt_record rec = instant(p, FXT_RECORD_COMMAND_CATEGORY,
					FXT_RECORD_COMMAND_NAME, pid);

	assert_int_equal(process_tree_record(t, &rec), 0);
}

static void feed_fork(struct process_tree *t, uint64_t parent, uint64_t child)
{
	struct fxt_record rec = instant(&other, "kernel:proc", "fork", parent);

	rec.nargs = 1;
	rec.args[0].type = FXT_ARG_KOID;
	rec.args[0].name = str("child");
	rec.args[0].value.koid = child;
	assert_int_equal(process_tree_record(t, &rec), 0);
}

static void feed_name(struct process_tree *t, uint64_t pid, const char *name)
{
	struct fxt_record rec = { .type = FXT_RECORD_KERNEL_OBJECT,
				  .provider = &other };

	rec.kernel_object.obj_type = FXT_ZX_OBJ_PROCESS;
	rec.kernel_object.koid = pid;
	rec.kernel_object.name = str(name);
	assert_int_equal(process_tree_record(t, &rec), 0);
}

/* 100 forks 101 and 102, 101 forks 103; 200 forks 201 (unrelated). */
static void feed_forks(struct process_tree *t)
{
	feed_fork(t, 101, 103);
	feed_fork(t, 100, 101);
	feed_fork(t, 200, 201);
	feed_fork(t, 100, 102);
}

static void assert_tree_of_100(const struct process_tree *t)
{
	assert_true(process_tree_active(t));
	assert_true(process_tree_has(t, 100));
	assert_true(process_tree_has(t, 101));
	assert_true(process_tree_has(t, 102));
	assert_true(process_tree_has(t, 103));
	assert_false(process_tree_has(t, 200));
	assert_false(process_tree_has(t, 201));
	assert_false(process_tree_has(t, 0));
}

static void test_mark_then_forks(void **state)
{
	struct process_tree t;

	(void)state;
	process_tree_init(&t, NULL);
	feed_mark(&t, &fxtraced, 100);
	feed_forks(&t);
	assert_tree_of_100(&t);
	assert_int_equal(t.command_pid, 100);
	process_tree_free(&t);
}

static void test_forks_then_mark(void **state)
{
	struct process_tree t;

	(void)state;
	process_tree_init(&t, NULL);
	feed_forks(&t);
	assert_false(process_tree_active(&t));
	assert_true(process_tree_has(&t, 200)); /* no mark: everyone */
	feed_mark(&t, &fxtraced, 100);
	assert_tree_of_100(&t);
	process_tree_free(&t);
}

static void test_mark_of_another_provider_ignored(void **state)
{
	struct process_tree t;

	(void)state;
	process_tree_init(&t, NULL);
	feed_mark(&t, &other, 100);
	assert_false(process_tree_active(&t));
	process_tree_free(&t);
}

static void test_all_pid_and_name(void **state)
{
	struct process_tree_options all = { .scope = PROCESS_SCOPE_ALL };
	struct process_tree_options pid = { .scope = PROCESS_SCOPE_PID,
					    .pid = 101 };
	struct process_tree_options name = { .scope = PROCESS_SCOPE_NAME,
					     .name = "make" };
	struct process_tree t;

	(void)state;
	process_tree_init(&t, &all);
	feed_mark(&t, &fxtraced, 100);
	feed_forks(&t);
	assert_false(process_tree_active(&t));
	assert_true(process_tree_has(&t, 200));
	process_tree_free(&t);

	process_tree_init(&t, &pid);
	feed_mark(&t, &fxtraced, 100); /* not the tree asked for */
	feed_forks(&t);
	assert_true(process_tree_has(&t, 101));
	assert_true(process_tree_has(&t, 103));
	assert_false(process_tree_has(&t, 100));
	assert_false(process_tree_has(&t, 102));
	process_tree_free(&t);

	process_tree_init(&t, &name);
	feed_forks(&t);
	feed_name(&t, 200, "make");
	feed_name(&t, 100, "maker");
	assert_true(process_tree_has(&t, 200));
	assert_true(process_tree_has(&t, 201));
	assert_false(process_tree_has(&t, 100));
	process_tree_free(&t);
}

static void test_past_the_maximum_counted(void **state)
{
	struct process_tree t;
	uint64_t i;

	(void)state;
	process_tree_init(&t, NULL);
	feed_mark(&t, &fxtraced, 1);
	for (i = 1; i <= PROCESS_TREE_MAX + 10; i++)
		feed_fork(&t, i, i + 1);
	assert_int_equal(t.nforks, PROCESS_TREE_MAX);
	assert_true(t.not_followed >= 10);
	assert_true(process_tree_has(&t, PROCESS_TREE_MAX));
	assert_false(process_tree_has(&t, PROCESS_TREE_MAX + 5));
	process_tree_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_then_forks),
		cmocka_unit_test(test_forks_then_mark),
		cmocka_unit_test(test_mark_of_another_provider_ignored),
		cmocka_unit_test(test_all_pid_and_name),
		cmocka_unit_test(test_past_the_maximum_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
