/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracectl export: archives into ClickHouse (cmd_export.c), one by one
 * (export_file.c) or, with --watch, each snapshot as it appears
 * (cmd_export_watch.c).
 */
#ifndef FXT_TRACECTL_CMD_EXPORT_H
#define FXT_TRACECTL_CMD_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "clickhouse_http.h"

struct exporter {
	struct ch_client ch;
	bool tables_ready;	/* created (or found) this run */
	size_t chunk_bytes;
	long archive_timeout_s; /* each archive's deadline */
};

/*
 * One archive into the server, saying on stdout that it is stored and on
 * stderr why not: 0 (stored now or before), -ECONNREFUSED (the server is
 * away: try again later), -ETIMEDOUT (too slow, or another export held
 * the archive: the same), or another -errno (the server refused, the
 * archive cannot be exported).
 */
int export_file(struct exporter *e, const char *path);

/*
 * Exports the snapshots (*.fxt) in dir, then each new one as it appears,
 * retrying while the server is away, until SIGTERM or SIGINT: the exit
 * status.
 */
int export_watch(struct exporter *e, const char *dir);

#endif /* FXT_TRACECTL_CMD_EXPORT_H */
