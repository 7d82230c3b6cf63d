/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tables tracectl export fills (docs/fleet.md describes them): one per
 * kind of event, every row with host, trace_id and ts (ns of REALTIME),
 * and "traces", one row per archive when its export begins (complete 0)
 * and one when it is done (complete 1, with the counts). The columns are
 * listed once, here: the CREATE TABLE and the INSERT column lists are
 * made from them, so the rows written and the tables cannot disagree.
 */
#ifndef FXT_EXPORT_SCHEMA_H
#define FXT_EXPORT_SCHEMA_H

#include <stddef.h>

enum export_table {
	EXPORT_SLICES,
	EXPORT_INSTANTS,
	EXPORT_COUNTERS,
	EXPORT_FLOWS,
	EXPORT_ASYNC,
	EXPORT_CONTEXT_SWITCHES,
	EXPORT_WAKEUPS,
	EXPORT_SAMPLES,
	EXPORT_EVENT_TABLES,	/* the tables above hold events */
	EXPORT_TRACES = EXPORT_EVENT_TABLES,
	EXPORT_TABLES,
};

struct export_column {
	const char *name;
	const char *type;
};

struct export_table_schema {
	const char *name;
	const struct export_column *columns;	/* ends with { NULL } */
	const char *order_by;
};

const struct export_table_schema *export_schema(enum export_table t);

/*
 * The statements, malloc'd (NULL on ENOMEM); database is a checked
 * identifier: CREATE TABLE IF NOT EXISTS database.t (...) ENGINE =
 * MergeTree ORDER BY ..., and INSERT INTO database.t (columns) FORMAT
 * RowBinary.
 */
char *export_schema_create(enum export_table t, const char *database);
char *export_schema_insert(enum export_table t, const char *database);

#endif /* FXT_EXPORT_SCHEMA_H */
