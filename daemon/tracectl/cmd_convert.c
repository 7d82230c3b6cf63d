// SPDX-License-Identifier: GPL-2.0-only
/* tracectl convert: FXT archive -> Chrome JSON Trace Event Format. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxt_json.h"
#include "fxt_reader.h"
#include "stack_losses.h"
#include "text_out.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "utf8.h"

enum { OPT_JSON_ARRAY = 256 };

struct convert_args {
	struct tracectl_input_args in;
	bool json_array;
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
		"shown on stderr when it and stdout are a terminal and FILE is big.\n"
		"\n"
		"Examples:\n"
		"  tracectl convert trace.fxt                 # writes trace.json\n"
		"  tracectl convert trace.fxt -o out.json\n"
		"  tracectl convert --json-array trace.fxt -o - | gzip > trace.json.gz\n"
		"  ssh host cat trace.fxt | tracectl convert - -o trace.json\n");
}

/* --json-array, the one option of convert's own. */
static int convert_option(void *ctx, int opt, const char *arg)
{
	struct convert_args *a = ctx;

	a->json_array = true;
	return 0;
}

static const struct option longopts[] = {
	TRACECTL_INPUT_OUTPUT_LONGOPT,
	{ "json-array", no_argument, NULL, OPT_JSON_ARRAY },
	TRACECTL_INPUT_LONGOPTS,
	{ 0 },
};

static const struct tracectl_input_command command = {
	"convert", "o:h", longopts, convert_usage, convert_option
};

/* The providers whose buffer overflowed. */
static void report_drops(struct fxt_reader *r, const struct fxt_json_stats *s)
{
	size_t i, n = fxt_reader_provider_count(r);

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

static int convert(const struct convert_args *a, struct tracectl_input *in,
		   int out_fd)
{
	struct fxt_json_options jopt = {
		.json_array = a->json_array,
		.progress = tracectl_input_progress,
		.progress_ctx = in,
	};
	struct fxt_json_stats *stats;
	char losses[STACK_LOSSES_TEXT_MAX];
	int ret;

	stats = calloc(1, sizeof(*stats));
	if (!stats) {
		fprintf(stderr, "tracectl convert: out of memory\n");
		return -ENOMEM;
	}
	ret = fxt_json_convert(in->reader, out_fd, &jopt, stats);
	tracectl_input_done(in);
	if (ret == -ENOMEM) {
		fprintf(stderr, "tracectl convert: out of memory\n");
	} else if (ret == -EMEDIUMTYPE) {
		tracectl_input_not_fxt(in);
	} else if (ret < 0 && stats->output_failed) {
		fprintf(stderr, "tracectl convert: writing '%s': %s\n",
			a->in.output, strerror(-ret));
	} else if (ret < 0) {
		tracectl_input_failed(in, ret);
	} else if (!stats->records && tracectl_input_not_fxt(in)) {
		ret = -EINVAL;
	} else {
		tracectl_input_report(in);
		report_drops(in->reader, stats);
		if (stack_losses_text(losses, &stats->stack_tables,
				      &stats->stack_profile))
			tracectl_input_note(in, "%s", losses);
	}
	free(stats);
	return ret;
}

/* The JSON written to a: 0, or -errno after saying why. */
static int convert_to(struct convert_args *a, struct tracectl_input *in)
{
	bool out_regular;
	struct stat st;
	int out_fd, ret;

	out_fd = tracectl_output_open("convert", a->in.output, in->fd);
	if (out_fd < 0)
		return -EINVAL;
	out_regular = fstat(out_fd, &st) == 0 && S_ISREG(st.st_mode);
	ret = convert(a, in, out_fd);
	if (out_fd != STDOUT_FILENO && close(out_fd) && !ret) {
		ret = -errno;
		fprintf(stderr, "tracectl convert: writing '%s': %s\n",
			a->in.output, strerror(-ret));
	}
	/* A partial document is not JSON: do not leave one behind. */
	if (ret && out_fd != STDOUT_FILENO && out_regular)
		unlink(a->in.output);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	struct tracectl_input_options iopt = {
		.max_large_record_bytes = TRACECTL_LARGE_RECORD_MAX,
	};
	struct tracectl_input in;
	int ret;

	ret = tracectl_input_args(argc, argv, &command, &a, &a.in);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	if (tracectl_input_args_output(&a.in, "convert", ".json"))
		return TRACECTL_EXIT_FAIL;
	iopt.force = a.in.force;
	iopt.writes_while_reading = !strcmp(a.in.output, "-");
	ret = tracectl_input_open(&in, "convert", a.in.input, &iopt);
	if (!ret) {
		ret = convert_to(&a, &in);
		tracectl_input_close(&in);
	}
	tracectl_input_args_done(&a.in);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
