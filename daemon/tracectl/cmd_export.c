// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl export: FXT archives into ClickHouse tables (docs/fleet.md),
 * with host, trace id and REALTIME on every row, each archive stored once.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_export.h"
#include "export_archive.h"
#include "tracectl.h"
#include "usage_error.h"

#define EXPORT_DATABASE_DEFAULT "fxtrace"
/* The server's URL when --clickhouse is not given (out of ps's sight). */
#define EXPORT_URL_ENV "FXT_EXPORT_CLICKHOUSE"
#define EXPORT_TIMEOUT_MAX 86400L

enum { OPT_CHUNK = 256, OPT_WATCH, OPT_TIMEOUT, OPT_ARCHIVE_TIMEOUT };

struct export_args {
	const char *url;
	const char *database;
	const char *watch;
	size_t chunk_bytes;
	long timeout_s;
	long archive_timeout_s;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl export [--clickhouse URL] [OPTIONS] FILE...\n"
		"       tracectl export [--clickhouse URL] [OPTIONS] --watch DIR\n"
		"\n"
		"Stores FXT archives in ClickHouse, through its HTTP interface:\n"
		"slices, instants, counters, flows, async events, context\n"
		"switches and wakeups, each row with the host, the trace id and\n"
		"its time in ns of REALTIME (from the archive's host and clock\n"
		"records; a merged archive's rows: the input each came from),\n"
		"in tables created where absent (docs/fleet.md). An\n"
		"archive already stored is not stored again; one whose export\n"
		"was cut short is replaced; exports of one archive at once store\n"
		"it once (the others wait for it).\n"
		"\n"
		"Options:\n"
		"  -c, --clickhouse URL  the server, e.g. http://127.0.0.1:8123/\n"
		"                        (user:password@ and ?user=... work, but\n"
		"                        a command line is visible in ps: give a\n"
		"                        password in $%s instead)\n"
		"  -d, --database NAME   the database (default: %s; created\n"
		"                        if absent)\n"
		"      --watch DIR       export the snapshots in DIR, then each\n"
		"                        new one as it appears, retrying while\n"
		"                        the server is away; runs until stopped\n"
		"      --chunk-bytes N   send a table's rows every N bytes\n"
		"                        (default %u; K, M suffixes)\n"
		"      --timeout S       give up a request not answered whole\n"
		"                        within S seconds (default %ld)\n"
		"      --archive-timeout S  give up an archive not stored within\n"
		"                        S seconds, waiting for another export\n"
		"                        of it included (default %ld)\n"
		"  -h, --help            show this help\n"
		"\n"
		"Environment:\n"
		"  %s  the server's URL when --clickhouse is not\n"
		"                        given (as fxtrace-export.service does)\n"
		"\n"
		"Exit status: 0 when every archive is stored, 1 when one is not\n"
		"(the message says which are), 2 for a usage error.\n"
		"\n"
		"Examples:\n"
		"  tracectl export -c http://127.0.0.1:8123/ trace.fxt\n"
		"  tracectl export -c http://db:8123/ -d fleet /var/lib/fxtrace/snapshots/*.fxt\n"
		"  tracectl export -c http://db:8123/ --watch /var/lib/fxtrace/snapshots\n"
		"  clickhouse-client -q 'SELECT host, count() FROM fxtrace.slices GROUP BY host'\n",
		EXPORT_URL_ENV, EXPORT_DATABASE_DEFAULT,
		EXPORT_CHUNK_BYTES_DEFAULT, CH_TIMEOUT_DEFAULT,
		EXPORT_ARCHIVE_TIMEOUT_DEFAULT, EXPORT_URL_ENV);
}

static int parse_size(const char *arg, size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || arg[0] == '-')
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (*end || v < 4096 || v > (1ull << 30))
		return -EINVAL;
	*out = (size_t)v;
	return 0;
}

static int parse_seconds(const char *arg, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > EXPORT_TIMEOUT_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

static const struct option longopts[] = {
	{ "clickhouse", required_argument, NULL, 'c' },
	{ "database", required_argument, NULL, 'd' },
	{ "watch", required_argument, NULL, OPT_WATCH },
	{ "chunk-bytes", required_argument, NULL, OPT_CHUNK },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "archive-timeout", required_argument, NULL, OPT_ARCHIVE_TIMEOUT },
	{ "help", no_argument, NULL, 'h' },
	USAGE_VERSION_LONGOPT,
	{ 0 },
};

/* 0, 1 after --help, -1 after a usage error. */
static int parse_args(int argc, char **argv, struct export_args *a)
{
	static const char shortopts[] = "c:d:h";
	int opt;

	a->database = EXPORT_DATABASE_DEFAULT;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': a->url = optarg; break;
		case 'd': a->database = optarg; break;
		case OPT_WATCH: a->watch = optarg; break;
		case 'h': usage(stdout); return 1;
		case USAGE_OPT_VERSION: tracectl_version_exit();
		case OPT_CHUNK:
			if (!parse_size(optarg, &a->chunk_bytes))
				break;
			tracectl_bad_value("export", "--chunk-bytes", optarg,
					   "give 4K to 1024M");
			return -1;
		case OPT_TIMEOUT:
			if (!parse_seconds(optarg, &a->timeout_s))
				break;
			tracectl_bad_value("export", "--timeout", optarg,
					   "give 1 to 86400 seconds");
			return -1;
		case OPT_ARCHIVE_TIMEOUT:
			if (!parse_seconds(optarg, &a->archive_timeout_s))
				break;
			tracectl_bad_value("export", "--archive-timeout",
					   optarg, "give 1 to 86400 seconds");
			return -1;
		default:
			usage_bad_option(argv[0], argv, shortopts);
			return -1;
		}
	}
	if (!a->url)
		a->url = getenv(EXPORT_URL_ENV);
	if (!a->url || !a->url[0]) {
		usage_error(argv[0], "--clickhouse URL (or $%s) is required",
			    EXPORT_URL_ENV);
		return -1;
	}
	if (!a->watch && optind == argc) {
		usage_error(argv[0], "no archive FILE given");
		return -1;
	}
	if (a->watch && optind < argc) {
		tracectl_stray(argv[0], argv[optind]);
		return -1;
	}
	return 0;
}

/* Which archives are in the server and which not, when one is not. */
static void say_outcome(char **files, int n, const int *rets, int failed)
{
	int i;

	fprintf(stderr, "tracectl export: stored:%s", failed == n ? " none" : "");
	for (i = 0; i < n; i++)
		if (!rets[i])
			fprintf(stderr, " %s", files[i]);
	fprintf(stderr, "\ntracectl export: NOT stored:");
	for (i = 0; i < n; i++)
		if (rets[i])
			fprintf(stderr, " %s", files[i]);
	fprintf(stderr, "\n");
}

static int export_files(struct exporter *e, char **files, int n)
{
	int i, failed = 0, *rets = calloc((size_t)n, sizeof(*rets));

	if (!rets) {
		fprintf(stderr, "tracectl export: out of memory\n");
		return TRACECTL_EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		/* The server away or too slow: the others would fail so. */
		if (i &&
		    (rets[i - 1] == -ECONNREFUSED || rets[i - 1] == -ETIMEDOUT))
			rets[i] = rets[i - 1];
		else
			rets[i] = export_file(e, files[i]);
		failed += rets[i] != 0;
	}
	if (failed)
		say_outcome(files, n, rets, failed);
	free(rets);
	return failed ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}

/* A URL or database refused: said without the URL's credentials. */
static void bad_server(char **argv, const struct export_args *a,
		       const struct ch_client *ch)
{
	char *url;

	if (!ch_identifier_ok(a->database)) {
		usage_error(argv[0], "%s: %s", a->database, ch->error);
		return;
	}
	url = ch_url_redacted(a->url);
	usage_error(argv[0], "%s: %s", url ? url : "the URL", ch->error);
	free(url);
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct exporter e = { 0 };
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	ret = ch_client_init(&e.ch, a.url, a.database);
	if (ret) {
		if (ret == -EINVAL)
			bad_server(argv, &a, &e.ch);
		else
			fprintf(stderr, "tracectl export: out of memory\n");
		ch_client_done(&e.ch);
		return ret == -EINVAL ? TRACECTL_EXIT_USAGE : TRACECTL_EXIT_FAIL;
	}
	e.chunk_bytes = a.chunk_bytes;
	e.ch.timeout_s = a.timeout_s ? a.timeout_s : CH_TIMEOUT_DEFAULT;
	e.archive_timeout_s = a.archive_timeout_s ?
				      a.archive_timeout_s :
				      EXPORT_ARCHIVE_TIMEOUT_DEFAULT;
	ret = a.watch ? export_watch(&e, a.watch) :
			export_files(&e, argv + optind, argc - optind);
	ch_client_done(&e.ch);
	return ret;
}
