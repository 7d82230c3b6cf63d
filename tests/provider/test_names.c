// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt_thread_set_name(), fxt_process_set_name(): a kernel object record
 * with the new name at once in the running trace, and the new names from
 * the start in the next trace.
 */
#include "provider_test.h"

#include <sys/prctl.h>
#include <sys/syscall.h>

#define LONG_NAME "worker-renamed-after-its-first-event"

struct names {
	char thread[64], process[64];	/* the last record's for each koid */
	unsigned int thread_records, process_records;
};

static void read_names(struct test_buffer *t, struct names *n)
{
	size_t len;
	uint8_t *data = test_buffer_collect(t, &len);
	struct fxt_reader *r = test_reader(data, len);
	uint64_t tid = (uint64_t)syscall(SYS_gettid), pid = (uint64_t)getpid();
	struct fxt_record rec;
	char *to;
	int ret;

	memset(n, 0, sizeof(*n));
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type != FXT_RECORD_KERNEL_OBJECT)
			continue;
		if (rec.kernel_object.obj_type == FXT_ZX_OBJ_THREAD &&
		    rec.kernel_object.koid == tid) {
			to = n->thread;
			n->thread_records++;
		} else if (rec.kernel_object.obj_type == FXT_ZX_OBJ_PROCESS &&
			   rec.kernel_object.koid == pid) {
			to = n->process;
			n->process_records++;
		} else {
			continue;
		}
		snprintf(to, 64, "%.*s", (int)rec.kernel_object.name.len,
			 rec.kernel_object.name.data);
	}
	assert_int_equal(ret, 0);
	fxt_reader_close(r);
	free(data);
}

static void trace_one(struct test_buffer *t)
{
	assert_int_equal(test_buffer_layout(t, 64 << 10, 1 << 20, false), 0);
	test_buffer_attach(t, FXT_BUFFERING_ONESHOT, "cat", -1);
}

static void test_rename(void **state)
{
	struct test_buffer t1 = { .fd = -1 }, t2 = { .fd = -1 };
	char comm[17] = "";
	struct names n;

	(void)state;
	assert_int_equal(fxt_thread_set_name(NULL), -EINVAL);
	assert_int_equal(fxt_process_set_name(""), -EINVAL);
	trace_one(&t1);
	TRACE_INSTANT("cat", "before", TRACE_SCOPE_THREAD);
	assert_int_equal(fxt_thread_set_name(LONG_NAME), 0);
	assert_int_equal(fxt_process_set_name("renamed-process"), 0);
	TRACE_INSTANT("cat", "after", TRACE_SCOPE_THREAD);
	fxt_test_stop(t1.b);
	read_names(&t1, &n);
	/* The first records named the thread and process as they were. */
	assert_int_equal(n.thread_records, 2);
	assert_int_equal(n.process_records, 2);
	assert_string_equal(n.thread, LONG_NAME);
	assert_string_equal(n.process, "renamed-process");
	/* The kernel's name too, as far as it goes. */
	assert_int_equal(prctl(PR_GET_NAME, comm), 0);
	assert_string_equal(comm, "worker-renamed-");

	/* The next trace names them so from its first event. */
	trace_one(&t2);
	TRACE_INSTANT("cat", "next", TRACE_SCOPE_THREAD);
	fxt_test_stop(t2.b);
	read_names(&t2, &n);
	assert_int_equal(n.thread_records, 1);
	assert_int_equal(n.process_records, 1);
	assert_string_equal(n.thread, LONG_NAME);
	assert_string_equal(n.process, "renamed-process");
	test_buffer_free(&t1);
	test_buffer_free(&t2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rename),
	};

	fxt_test_disable_transport();
	fxt_provider_init("names-test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
