// SPDX-License-Identifier: GPL-2.0-only
/*
 * One archive into ClickHouse for tracectl export and its --watch: its
 * host and clock first (they place it in the fleet), then the archive
 * read through tracectl_input (diagnostics, progress) into
 * export_archive(); what happened said at the boundary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "cmd_export.h"
#include "export_archive.h"
#include "export_hosts.h"
#include "host_clock.h"
#include "tracectl_input.h"

/*
 * The archive's host and clock, which place it in the fleet, and a merged
 * archive's inputs: 0 or -errno.
 */
static int archive_host(const char *path, struct fxt_host_clock *hc,
			struct export_hosts *hosts)
{
	int ret = fxt_host_clock_scan_with(path, hc, export_hosts_take, hosts);

	if (ret == -ENODATA || (!ret && (!hc->has_host || !hc->has_start))) {
		fprintf(stderr, "tracectl export: %s: no host and clock records "
				"(written before fxtraced recorded them, or not "
				"by fxtraced): its host and wall-clock time are "
				"unknown; not stored\n", path);
		return -ENODATA;
	}
	if (ret) {
		fprintf(stderr, "tracectl export: %s: %s\n", path, strerror(-ret));
		return ret;
	}
	if (!export_trace_id_ok(hc->trace_id) || !hc->hostname[0]) {
		fprintf(stderr, "tracectl export: %s: the host record has no "
				"valid trace id or hostname; not stored\n", path);
		return -EINVAL;
	}
	return 0;
}

/* What the server said, with where it is. */
static void server_failed(struct exporter *e, const char *path, int err)
{
	if (err == -ECONNREFUSED)
		fprintf(stderr, "tracectl export: %s: cannot reach ClickHouse at "
				"%s: %s\n", path, e->ch.where, e->ch.error);
	else if (err == -EREMOTEIO)
		fprintf(stderr, "tracectl export: %s: ClickHouse at %s refused: "
				"%s\n", path, e->ch.where, e->ch.error);
	else if (err == -ETIMEDOUT)
		fprintf(stderr,
			"tracectl export: %s: ClickHouse at %s timed "
			"out: %s\n",
			path, e->ch.where, e->ch.error);
	else if (err == -ENOMEM)
		fprintf(stderr, "tracectl export: %s: out of memory\n", path);
}

static void say_stored(const char *path, const struct fxt_host_clock *hc,
		       const struct export_result *res)
{
	uint64_t rows = 0;
	unsigned int t;

	if (res->already) {
		printf("%s: trace %s of %s already stored%s\n", path,
		       hc->trace_id, hc->hostname,
		       res->waited ? " (by another export, waited for)" : "");
		fflush(stdout);
		return;
	}
	for (t = 0; t < EXPORT_EVENT_TABLES; t++)
		rows += res->count[t];
	printf("%s: trace %s of %s stored: %" PRIu64 " events%s", path,
	       hc->trace_id, hc->hostname, rows,
	       res->replaced_partial ? ", replacing a partial export" : "");
	if (res->left_out)
		printf(" (%" PRIu64 " duration records without their pair "
		       "left out)", res->left_out);
	printf("\n");
	fflush(stdout);
}

static int export_input(struct exporter *e, const char *path,
			const struct fxt_host_clock *hc,
			const struct export_hosts *hosts)
{
	struct tracectl_input_options iopt = {
		.max_large_record_bytes = TRACECTL_SUMMARY_LARGE_RECORD_MAX,
	};
	struct export_options opt = {
		.chunk_bytes = e->chunk_bytes,
		.hosts = hosts,
		.progress = tracectl_input_progress,
	};
	struct export_result res;
	struct tracectl_input in;
	const char *slash = strrchr(path, '/');
	int ret;

	if (tracectl_input_open(&in, "export", path, &iopt))
		return -EIO;
	opt.file = slash ? slash + 1 : path;
	opt.progress_ctx = &in;
	ret = export_archive(&e->ch, in.reader, hc, &opt, &res);
	tracectl_input_done(&in);
	if (ret == -ECONNREFUSED || ret == -EREMOTEIO || ret == -ETIMEDOUT ||
	    ret == -ENOMEM)
		server_failed(e, path, ret);
	else if (ret < 0)
		tracectl_input_failed(&in, ret);
	else if (!res.already)
		tracectl_input_report(&in);
	if (!ret)
		say_stored(path, hc, &res);
	tracectl_input_close(&in);
	return ret;
}

int export_file(struct exporter *e, const char *path)
{
	_cleanup_(export_hosts_free) struct export_hosts hosts = { 0 };
	struct fxt_host_clock hc;
	int ret;

	if (!strcmp(path, "-")) {
		/* the clock records come first, from a pass of their own */
		fprintf(stderr, "tracectl export: archives are read twice: "
				"give a file, not standard input\n");
		return -EINVAL;
	}
	ret = archive_host(path, &hc, &hosts);
	if (ret)
		return ret;
	ch_client_set_deadline(&e->ch, e->archive_timeout_s);
	if (!e->tables_ready) {
		ret = export_tables_create(&e->ch);
		if (ret) {
			server_failed(e, path, ret);
			return ret;
		}
		e->tables_ready = true;
	}
	return export_input(e, path, &hc, &hosts);
}
