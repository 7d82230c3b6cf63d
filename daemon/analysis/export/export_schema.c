// SPDX-License-Identifier: GPL-2.0-only
/* The exported tables: see export_schema.h; rows in export_rows.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_schema.h"

/* Every event table starts so; the fleet queries join on these. */
#define EVENT_HEAD                                                        \
	{ "host", "String" }, { "trace_id", "FixedString(32)" },          \
	{ "ts", "UInt64" }
/* The thread and the names of a provider's event. */
#define EVENT_WHO                                                         \
	{ "pid", "UInt64" }, { "tid", "UInt64" },                         \
	{ "category", "String" }, { "name", "String" }

static const struct export_column slices[] = {
	EVENT_HEAD, { "dur", "UInt64" }, EVENT_WHO, { NULL, NULL },
};

static const struct export_column instants[] = {
	EVENT_HEAD, EVENT_WHO, { "scope", "UInt8" },
	{ "arg_names", "Array(String)" }, { "arg_values", "Array(String)" },
	{ NULL, NULL },
};

static const struct export_column counters[] = {
	EVENT_HEAD, EVENT_WHO, { "counter_id", "UInt64" },
	{ "arg_names", "Array(String)" }, { "arg_values", "Array(Float64)" },
	{ NULL, NULL },
};

static const struct export_column flows[] = {
	EVENT_HEAD, EVENT_WHO, { "flow_id", "UInt64" },
	{ "phase", "Enum8('begin' = 0, 'step' = 1, 'end' = 2)" },
	{ NULL, NULL },
};

static const struct export_column async[] = {
	EVENT_HEAD, EVENT_WHO, { "async_id", "UInt64" },
	{ "phase", "Enum8('begin' = 0, 'instant' = 1, 'end' = 2)" },
	{ NULL, NULL },
};

static const struct export_column context_switches[] = {
	EVENT_HEAD, { "cpu", "UInt32" }, { "out_pid", "UInt64" },
	{ "out_tid", "UInt64" }, { "out_state", "UInt8" },
	{ "in_pid", "UInt64" }, { "in_tid", "UInt64" }, { NULL, NULL },
};

static const struct export_column wakeups[] = {
	EVENT_HEAD, { "cpu", "UInt32" }, { "pid", "UInt64" },
	{ "tid", "UInt64" }, { NULL, NULL },
};

/* Stack samples, on the CPU or blocked: the stack's function names,
 * leaf first, as tracectl summary names them. */
static const struct export_column samples[] = {
	EVENT_HEAD, { "pid", "UInt64" }, { "tid", "UInt64" },
	{ "cpu", "UInt32" }, { "kind", "Enum8('cpu' = 0, 'offcpu' = 1)" },
	{ "weight", "UInt64" }, { "stack", "Array(String)" },
	{ NULL, NULL },
};

static const struct export_column traces[] = {
	{ "trace_id", "FixedString(32)" }, { "host", "String" },
	{ "machine_id", "String" }, { "boot_id", "String" },
	{ "kernel", "String" }, { "file", "String" },
	{ "complete", "UInt8" }, { "exported_at", "DateTime" },
	{ "start_realtime", "UInt64" }, { "stop_realtime", "UInt64" },
	{ "clock_error_ns", "UInt64" },
	{ "slices", "UInt64" }, { "instants", "UInt64" },
	{ "counters", "UInt64" }, { "flows", "UInt64" },
	{ "async", "UInt64" }, { "context_switches", "UInt64" },
	{ "wakeups", "UInt64" }, { "samples", "UInt64" },
	{ "left_out", "UInt64" },
	{ NULL, NULL },
};

/* Sorted for the fleet questions: a name's rows of a host together. */
static const struct export_table_schema tables[EXPORT_TABLES] = {
	[EXPORT_SLICES] = { "slices", slices, "(name, host, ts)" },
	[EXPORT_INSTANTS] = { "instants", instants, "(name, host, ts)" },
	[EXPORT_COUNTERS] = { "counters", counters, "(name, host, ts)" },
	[EXPORT_FLOWS] = { "flows", flows, "(flow_id, ts)" },
	[EXPORT_ASYNC] = { "async", async, "(name, async_id, ts)" },
	[EXPORT_CONTEXT_SWITCHES] = { "context_switches", context_switches,
				      "(host, cpu, ts)" },
	[EXPORT_WAKEUPS] = { "wakeups", wakeups, "(host, ts)" },
	[EXPORT_SAMPLES] = { "samples", samples, "(host, ts)" },
	[EXPORT_TRACES] = { "traces", traces, "(trace_id, complete)" },
};

const struct export_table_schema *export_schema(enum export_table t)
{
	return &tables[t];
}

/* The columns, "name type" (with_types) or "name", comma-separated. */
static size_t put_columns(char *buf, size_t len,
			  const struct export_table_schema *s, int with_types)
{
	const struct export_column *c;
	size_t n = 0;

	for (c = s->columns; c->name; c++)
		n += (size_t)snprintf(buf ? buf + n : NULL, buf ? len - n : 0,
				      "%s%s%s%s", c == s->columns ? "" : ", ",
				      c->name, with_types ? " " : "",
				      with_types ? c->type : "");
	return n;
}

static char *statement(enum export_table t, const char *database,
		       const char *head, int with_types, const char *tail1,
		       const char *tail2)
{
	const struct export_table_schema *s = &tables[t];
	size_t cols = put_columns(NULL, 0, s, with_types);
	size_t len = strlen(head) + strlen(database) + strlen(s->name) +
		     cols + strlen(tail1) + strlen(tail2) + 8;
	char *buf = malloc(len);
	size_t n;

	if (!buf)
		return NULL;
	n = (size_t)snprintf(buf, len, "%s%s.%s (", head, database, s->name);
	n += put_columns(buf + n, len - n, s, with_types);
	snprintf(buf + n, len - n, ")%s%s", tail1, tail2);
	return buf;
}

char *export_schema_create(enum export_table t, const char *database)
{
	return statement(t, database, "CREATE TABLE IF NOT EXISTS ", 1,
			 " ENGINE = MergeTree ORDER BY ",
			 tables[t].order_by);
}

char *export_schema_insert(enum export_table t, const char *database)
{
	return statement(t, database, "INSERT INTO ", 0, " FORMAT RowBinary",
			 "");
}
