// SPDX-License-Identifier: GPL-2.0-only
/*
 * typed-events FILE PROVIDER: the events of one provider of an archive,
 * a line each, with their arguments' types (tracectl dump prints values
 * only), for tests to compare with what a program wrote:
 *
 *	THREAD KIND CATEGORY NAME [id=N] [NAME:TYPE=VALUE...]
 *
 * THREAD is the thread's name (its kernel object record), KIND the
 * event type's name; a complete duration has "end>=start" or
 * "end<start". Bytes outside printable ASCII print as \xNN. Exit 1 on a
 * read error or when the provider is not in the archive, 2 on usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fxt_reader.h"

#define THREADS_MAX 1024

struct thread_name {
	uint64_t koid;
	char name[64];
};

static struct thread_name threads[THREADS_MAX];
static unsigned int nthreads;

static void put_str(struct fxt_str s)
{
	uint32_t i;

	for (i = 0; i < s.len; i++) {
		unsigned char c = (unsigned char)s.data[i];

		if (c > ' ' && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

static void remember_thread(const struct fxt_record *rec)
{
	unsigned int i;
	uint32_t len = rec->kernel_object.name.len;

	for (i = 0; i < nthreads; i++)
		if (threads[i].koid == rec->kernel_object.koid)
			break;
	if (i == THREADS_MAX)
		return;
	if (i == nthreads)
		nthreads++;
	threads[i].koid = rec->kernel_object.koid;
	if (len >= sizeof(threads[i].name))
		len = sizeof(threads[i].name) - 1;
	snprintf(threads[i].name, sizeof(threads[i].name), "%.*s", (int)len,
		 rec->kernel_object.name.data);
}

static void put_thread(uint64_t tid)
{
	unsigned int i;

	for (i = 0; i < nthreads; i++) {
		if (threads[i].koid == tid) {
			struct fxt_str s = { threads[i].name,
					     (uint32_t)strlen(threads[i].name) };
			put_str(s);
			return;
		}
	}
	printf("tid-%" PRIu64, tid);
}

static void put_arg(const struct fxt_arg *a)
{
	putchar(' ');
	put_str(a->name);
	printf(":%s=", fxt_arg_type_name(a->type));
	switch (a->type) {
	case FXT_ARG_INT32:
		printf("%" PRId32, a->value.i32);
		break;
	case FXT_ARG_UINT32:
		printf("%" PRIu32, a->value.u32);
		break;
	case FXT_ARG_INT64:
		printf("%" PRId64, a->value.i64);
		break;
	case FXT_ARG_UINT64:
		printf("%" PRIu64, a->value.u64);
		break;
	case FXT_ARG_DOUBLE:
		printf("%.17g", a->value.f64);
		break;
	case FXT_ARG_STRING:
		put_str(a->value.str);
		break;
	case FXT_ARG_BOOL:
		printf("%s", a->value.b ? "true" : "false");
		break;
	default:
		printf("-");
	}
}

static bool has_id(enum fxt_event_type type)
{
	return type == FXT_EVENT_COUNTER || type == FXT_EVENT_ASYNC_BEGIN ||
	       type == FXT_EVENT_ASYNC_INSTANT || type == FXT_EVENT_ASYNC_END ||
	       type == FXT_EVENT_FLOW_BEGIN || type == FXT_EVENT_FLOW_STEP ||
	       type == FXT_EVENT_FLOW_END;
}

static void put_event(const struct fxt_record *rec)
{
	unsigned int i;

	put_thread(rec->event.thread.tid);
	printf(" %s ", fxt_event_type_name(rec->event.type));
	put_str(rec->event.category);
	putchar(' ');
	put_str(rec->event.name);
	if (has_id(rec->event.type))
		printf(" id=%" PRIu64, rec->event.extra);
	if (rec->event.type == FXT_EVENT_DURATION_COMPLETE)
		printf(" %s", rec->event.extra >= rec->event.ts ? "end>=start" :
								  "end<start");
	for (i = 0; i < rec->nargs; i++)
		put_arg(&rec->args[i]);
	putchar('\n');
}

/* One pass: the thread names (events: false), or the events. */
static int read_pass(const char *path, const char *provider, bool events,
		     bool *seen)
{
	struct fxt_reader_options opt = { .expect_magic = true };
	struct fxt_reader *r;
	struct fxt_record rec;
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f) {
		perror(path);
		return -1;
	}
	r = fxt_reader_open_file(f, &opt);
	while (r && (ret = fxt_reader_next(r, &rec)) == 1) {
		if (!rec.provider || !fxt_str_is(rec.provider->name, provider))
			continue;
		*seen = true;
		if (!events && rec.type == FXT_RECORD_KERNEL_OBJECT &&
		    rec.kernel_object.obj_type == FXT_ZX_OBJ_THREAD)
			remember_thread(&rec);
		else if (events && rec.type == FXT_RECORD_EVENT)
			put_event(&rec);
	}
	if (r)
		fxt_reader_close(r);
	fclose(f);
	return r && ret == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	bool seen = false;

	if (argc != 3) {
		fprintf(stderr, "usage: typed-events FILE PROVIDER\n");
		return 2;
	}
	if (read_pass(argv[1], argv[2], false, &seen) < 0 ||
	    read_pass(argv[1], argv[2], true, &seen) < 0) {
		fprintf(stderr, "typed-events: cannot read %s\n", argv[1]);
		return 1;
	}
	if (!seen) {
		fprintf(stderr, "typed-events: no provider %s in %s\n", argv[2],
			argv[1]);
		return 1;
	}
	return 0;
}
