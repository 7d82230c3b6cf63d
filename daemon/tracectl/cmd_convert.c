// SPDX-License-Identifier: GPL-2.0-only
/* tracectl convert: FXT archive -> Chrome JSON Trace Event Format. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxt_json.h"
#include "fxt_reader.h"
#include "text_out.h"
#include "tracectl.h"
#include "usage_error.h"
#include "tracectl_input.h"
#include "utf8.h"

/* Smaller inputs convert too fast for a progress line to help. */
#define PROGRESS_MIN_BYTES (64ull << 20)
/* Problems printed one by one; the rest are only counted. */
#define DIAG_PRINT_MAX 10u

struct convert_args {
	const char *input;
	const char *output;
	bool json_array;
	bool force;
};

struct diag_state {
	const char *input;
	unsigned int printed;
};

struct progress_state {
	uint64_t total;
	int last_percent;
	bool shown;
};

static void convert_usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl convert [OPTIONS] FILE\n"
		"\n"
		"Convert the FXT archive FILE to the JSON Trace Event Format read by\n"
		"Perfetto UI (ui.perfetto.dev) and chrome://tracing. The archive is\n"
		"read once, in bounded memory, whatever its size.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  write here ('-' for stdout); default: FILE with\n"
		"                     its .fxt suffix replaced by .json\n"
		"      --json-array   write the plain array format (no metadata:\n"
		"                     providers and drop counts are only on stderr)\n"
		"      --force        convert input that does not look like FXT (no\n"
		"                     magic number, first records broken) anyway\n"
		"  -h, --help         show this help\n"
		"\n"
		"Malformed records are skipped and counted on stderr. Progress is\n"
		"shown on stderr when it is a terminal and FILE is big.\n"
		"\n"
		"Examples:\n"
		"  tracectl convert trace.fxt                 # writes trace.json\n"
		"  tracectl convert trace.fxt -o out.json\n"
		"  tracectl convert --json-array trace.fxt -o - | gzip > trace.json.gz\n"
		"  ssh host cat trace.fxt | tracectl convert - -o trace.json\n");
}

static int parse_args(int argc, char **argv, struct convert_args *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json-array", no_argument, NULL, 'a' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		USAGE_VERSION_LONGOPT,
		{ 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			a->output = optarg;
			break;
		case 'a':
			a->json_array = true;
			break;
		case 'f':
			a->force = true;
			break;
		case 'h':
			convert_usage(stdout);
			return 1;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "o:h");
			return -1;
		}
	}
	if (tracectl_one_input(argv[0], argc, argv))
		return -1;
	a->input = argv[optind];
	return 0;
}

static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct diag_state *d = ctx;

	if (kind != FXT_DIAG_MALFORMED && kind != FXT_DIAG_LIMIT)
		return;		/* counted by the reader, summed up at the end */
	if (d->printed == DIAG_PRINT_MAX) {
		fprintf(stderr, "tracectl convert: %s: more malformed records; "
				"counting them only\n", d->input);
	}
	if (d->printed++ >= DIAG_PRINT_MAX)
		return;
	fprintf(stderr, "tracectl convert: %s: offset %" PRIu64 ": %s%s\n",
		d->input, offset, reason,
		kind == FXT_DIAG_MALFORMED ? " (skipped)" : "");
}

static void on_progress(void *ctx, uint64_t bytes_read)
{
	struct progress_state *p = ctx;
	int percent = (int)(bytes_read * 100 / p->total);

	if (percent == p->last_percent || percent > 100)
		return;
	p->last_percent = percent;
	p->shown = true;
	fprintf(stderr, "\rtracectl convert: %d%%", percent);
}

static int open_input(const char *path, uint64_t *size)
{
	struct stat st;
	int fd;

	*size = 0;
	if (!strcmp(path, "-"))
		return STDIN_FILENO;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tracectl convert: cannot open '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		fprintf(stderr, "tracectl convert: cannot stat '%s': %s\n", path,
			strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tracectl convert: '%s' is a directory; give an "
				"FXT file\n", path);
		close(fd);
		return -1;
	}
	if (S_ISREG(st.st_mode))
		*size = (uint64_t)st.st_size;
	return fd;
}

static void report(const struct convert_args *a, struct fxt_reader *r,
		   const struct fxt_json_stats *s)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(r);
	size_t i, n = fxt_reader_provider_count(r);

	if (rs->malformed)
		fprintf(stderr, "tracectl convert: %s: %" PRIu64
			" malformed record(s) skipped\n", a->input,
			rs->malformed);
	if (rs->unknown_skipped)
		fprintf(stderr, "tracectl convert: %s: %" PRIu64
			" record(s) of unknown type skipped\n", a->input,
			rs->unknown_skipped);
	if (rs->truncated)
		fprintf(stderr, "tracectl convert: %s: input ends inside a "
				"record; converted up to the last whole one\n",
			a->input);
	tracectl_report_tables("convert", a->input, rs);
	for (i = 0; i < s->ndrops; i++) {
		/* a name from the archive: escaped, as every diagnostic's */
		char name[TEXT_C_ESCAPE_MAX * 255 + 1];
		size_t j, len = 0, used;

		for (j = 0; j < n; j++) {
			const struct fxt_provider *p = fxt_reader_provider(r, j);

			if (p->id == s->drops[i].provider_id)
				len = text_c_escape(name, sizeof(name) - 1,
						    p->name.data, p->name.len,
						    fxt_utf8_valid(p->name.data,
								   p->name.len),
						    &used);
		}
		name[len] = '\0';
		fprintf(stderr, "tracectl convert: provider %" PRIu32
			" '%s': buffer full %" PRIu64
			" time(s), events were dropped\n",
			s->drops[i].provider_id, name,
			s->drops[i].buffer_overflows);
	}
}

static int convert(const struct convert_args *a, int in_fd, uint64_t in_size,
		   int out_fd)
{
	struct diag_state diag = { .input = a->input };
	struct progress_state progress = { .total = in_size, .last_percent = -1 };
	struct fxt_reader_options ropt = {
		.expect_magic = true,
		.refuse_not_fxt = !a->force,
		.diag = on_diag,
		.diag_ctx = &diag,
		.max_large_record_bytes = TRACECTL_LARGE_RECORD_MAX,
	};
	struct fxt_json_options jopt = { .json_array = a->json_array };
	struct fxt_json_stats *stats;
	struct fxt_reader *r;
	int ret;

	stats = calloc(1, sizeof(*stats));
	r = fxt_reader_open_fd(in_fd, &ropt);
	if (!r || !stats) {
		fprintf(stderr, "tracectl convert: out of memory\n");
		fxt_reader_close(r);
		free(stats);
		return -ENOMEM;
	}
	if (isatty(STDERR_FILENO) && in_size >= PROGRESS_MIN_BYTES) {
		jopt.progress = on_progress;
		jopt.progress_ctx = &progress;
	}
	ret = fxt_json_convert(r, out_fd, &jopt, stats);
	if (progress.shown)
		fprintf(stderr, "\r\033[K");
	if (ret == -ENOMEM) {
		fprintf(stderr, "tracectl convert: out of memory\n");
	} else if (ret == -EMEDIUMTYPE) {
		tracectl_not_fxt("convert", a->input, r);
	} else if (ret < 0) {
		fprintf(stderr, "tracectl convert: %s '%s': %s\n",
			stats->output_failed ? "writing" : "reading",
			stats->output_failed ? a->output : a->input,
			strerror(-ret));
	} else if (!stats->records &&
		   tracectl_not_fxt("convert", a->input, r)) {
		ret = -EINVAL;
	} else {
		if (!fxt_reader_stats(r)->magic_seen)
			fprintf(stderr, "tracectl convert: %s: no FXT magic "
					"number at the start (an old archive?); "
					"converted anyway\n", a->input);
		report(a, r, stats);
	}
	fxt_reader_close(r);
	free(stats);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	char *default_out = NULL;
	bool out_regular;
	uint64_t in_size;
	struct stat st;
	int in_fd, out_fd, ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	if (!a.output) {
		if (!strcmp(a.input, "-")) {
			a.output = "-";
		} else {
			default_out = tracectl_output_name(a.input, ".json");
			if (!default_out) {
				fprintf(stderr, "tracectl convert: out of memory\n");
				return TRACECTL_EXIT_FAIL;
			}
			a.output = default_out;
		}
	}
	in_fd = open_input(a.input, &in_size);
	if (in_fd < 0) {
		free(default_out);
		return TRACECTL_EXIT_FAIL;
	}
	out_fd = tracectl_output_open("convert", a.output, in_fd);
	if (out_fd < 0) {
		ret = -1;
		goto out_input;
	}
	out_regular = fstat(out_fd, &st) == 0 && S_ISREG(st.st_mode);
	ret = convert(&a, in_fd, in_size, out_fd);
	if (out_fd != STDOUT_FILENO && close(out_fd) && !ret) {
		ret = -errno;
		fprintf(stderr, "tracectl convert: writing '%s': %s\n", a.output,
			strerror(-ret));
	}
	/* A partial document is not JSON: do not leave one behind. */
	if (ret && out_fd != STDOUT_FILENO && out_regular)
		unlink(a.output);
out_input:
	if (in_fd != STDIN_FILENO)
		close(in_fd);
	free(default_out);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
