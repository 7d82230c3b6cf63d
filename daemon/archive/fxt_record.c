// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a decoded record offers besides its fields (fxt_reader.h): the
 * names of its types and kinds, its arguments by name, its ticks in
 * nanoseconds.
 */
#include <string.h>

#include "fxt_reader.h"
#include "fxt_reader_state.h"

/* ---- names ---------------------------------------------------------- */

const struct fxt_arg *fxt_record_arg(const struct fxt_record *rec,
				     const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++)
		if (rec->args[i].name.len == len &&
		    !memcmp(rec->args[i].name.data, name, len))
			return &rec->args[i];
	return NULL;
}

const char *fxt_record_type_name(enum fxt_record_type type)
{
	static const char *const names[16] = {
		[FXT_RECORD_METADATA] = "metadata",
		[FXT_RECORD_INITIALIZATION] = "initialization",
		[FXT_RECORD_STRING] = "string",
		[FXT_RECORD_THREAD] = "thread",
		[FXT_RECORD_EVENT] = "event",
		[FXT_RECORD_BLOB] = "blob",
		[FXT_RECORD_USERSPACE_OBJECT] = "userspace_object",
		[FXT_RECORD_KERNEL_OBJECT] = "kernel_object",
		[FXT_RECORD_SCHEDULING] = "scheduling",
		[FXT_RECORD_LOG] = "log",
		[FXT_RECORD_LARGE] = "large",
	};

	if ((unsigned int)type < 16 && names[type])
		return names[type];
	return "unknown";
}

const char *fxt_event_type_name(enum fxt_event_type type)
{
	static const char *const names[] = {
		"instant",	     "counter",	    "duration_begin",
		"duration_end",	     "duration_complete", "async_begin",
		"async_instant",     "async_end",   "flow_begin",
		"flow_step",	     "flow_end",
	};

	if ((unsigned int)type <= FXT_EVENT_TYPE_MAX)
		return names[type];
	return "unknown";
}

const char *fxt_arg_type_name(enum fxt_arg_type type)
{
	static const char *const names[] = {
		"null",	  "int32",  "uint32", "int64",	 "uint64",
		"double", "string", "pointer", "koid", "bool",
	};

	if ((unsigned int)type <= FXT_ARG_TYPE_MAX)
		return names[type];
	return "unknown";
}

const char *fxt_thread_state_name(unsigned int state)
{
	static const char *const names[] = {
		"new", "running", "suspended", "blocked", "dying", "dead",
	};

	if (state <= FXT_THREAD_DEAD)
		return names[state];
	return "unknown";
}

const char *fxt_blob_type_name(unsigned int type)
{
	switch (type) {
	case FXT_BLOB_DATA:
		return "data";
	case FXT_BLOB_LAST_BRANCH:
		return "last_branch";
	case FXT_BLOB_PERFETTO:
		return "perfetto";
	default:
		return "unknown";
	}
}

const char *fxt_diag_kind_name(enum fxt_diag_kind kind)
{
	switch (kind) {
	case FXT_DIAG_MALFORMED:
		return "malformed";
	case FXT_DIAG_NONCONFORMING:
		return "nonconforming";
	case FXT_DIAG_UNKNOWN:
		return "unknown";
	case FXT_DIAG_LIMIT:
		return "limit";
	}
	return "?";
}

uint64_t fxt_ticks_to_ns(const struct fxt_provider *p, uint64_t ticks)
{
	uint64_t tps = p ? p->ticks_per_second : NS_PER_SECOND;
	unsigned __int128 ns;

	if (tps == NS_PER_SECOND || !tps)
		return ticks;
	ns = (unsigned __int128)ticks * NS_PER_SECOND / tps;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}
