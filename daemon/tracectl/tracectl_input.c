// SPDX-License-Identifier: GPL-2.0-only
/* The archive input of the reading commands: see tracectl_input.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracectl_input.h"

/* Smaller inputs are read too fast for a progress line to help. */
#define PROGRESS_MIN_BYTES (64ull << 20)

/* Before a line on stderr: what stdout holds first, no progress line. */
static void before_stderr(struct tracectl_input *in)
{
	/* keep stdout and stderr in order when both go to one place */
	if (in->stdout_text)
		text_out_flush(in->stdout_text);
	if (in->progress_shown) {
		fputs("\r\033[K", stderr);
		in->progress_shown = false;
	}
}

static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct tracectl_input *in = ctx;

	if (!in->every_problem && kind != FXT_DIAG_MALFORMED &&
	    kind != FXT_DIAG_LIMIT)
		return;		/* counted by the reader, reported at the end */
	if (in->diags_shown >= TRACECTL_DIAG_SHOWN_MAX) {
		in->diags_hidden++;
		return;
	}
	in->diags_shown++;
	tracectl_input_note(in, "offset 0x%" PRIx64 ": %s: %s", offset,
			    fxt_diag_kind_name(kind), reason);
}

/*
 * Only where a person watches a long read on a terminal, and the line
 * cannot mix with output: none while stdout is piped (to a pager, say)
 * or gets the command's output as it reads.
 */
static bool want_progress(uint64_t size, bool writes_while_reading)
{
	return size >= PROGRESS_MIN_BYTES && !writes_while_reading &&
	       isatty(STDERR_FILENO) && isatty(STDOUT_FILENO);
}

/* in->fd, once open: a directory is refused; a file is read in order. */
static int check_input(struct tracectl_input *in)
{
	struct stat st;

	if (fstat(in->fd, &st))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tracectl %s: '%s' is a directory; give an FXT "
				"file\n", in->cmd, in->path);
		return -EISDIR;
	}
	if (S_ISREG(st.st_mode)) {
		in->size = (uint64_t)st.st_size;
		(void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	return 0;
}

int tracectl_input_open(struct tracectl_input *in, const char *cmd,
			const char *path,
			const struct tracectl_input_options *opt)
{
	struct fxt_reader_options ropt = {
		/* a provider's buffer has no magic number to judge it by */
		.expect_magic = !opt->provider_buffer,
		.refuse_not_fxt = !opt->force && !opt->provider_buffer,
		.provider_buffer = opt->provider_buffer,
		.diag = on_diag,
		.diag_ctx = in,
		.max_large_record_bytes = opt->max_large_record_bytes,
	};
	int ret;

	memset(in, 0, sizeof(*in));
	in->cmd = cmd;
	in->path = path;
	in->every_problem = opt->every_problem;
	in->last_percent = -1;
	in->fd = STDIN_FILENO;
	if (strcmp(path, "-")) {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			ret = -errno;
			fprintf(stderr, "tracectl %s: cannot open '%s': %s\n",
				cmd, path, strerror(-ret));
			return ret;
		}
	}
	ret = check_input(in);
	if (!ret) {
		in->reader = fxt_reader_open_fd(in->fd, &ropt);
		if (!in->reader) {
			fprintf(stderr, "tracectl %s: out of memory\n", cmd);
			ret = -ENOMEM;
		}
	}
	if (ret) {
		tracectl_input_close(in);
		return ret;
	}
	in->progress = want_progress(in->size, opt->writes_while_reading);
	return 0;
}

void tracectl_input_progress(void *ctx, uint64_t bytes_read)
{
	struct tracectl_input *in = ctx;
	int percent;

	if (!in->progress)
		return;
	percent = (int)(bytes_read * 100 / in->size);
	if (percent == in->last_percent || percent > 100)
		return;
	in->last_percent = percent;
	in->progress_shown = true;
	fprintf(stderr, "\rtracectl %s: %s: %" PRIu64 " of %" PRIu64
		" MiB read (%d%%)", in->cmd, in->path, bytes_read >> 20,
		in->size >> 20, percent);
}

void tracectl_input_done(struct tracectl_input *in)
{
	before_stderr(in);
	if (in->diags_hidden)
		tracectl_input_note(in, "%" PRIu64 " more problems not shown "
					"after the first %u", in->diags_hidden,
				    TRACECTL_DIAG_SHOWN_MAX);
}

void tracectl_input_note(struct tracectl_input *in, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	before_stderr(in);
	fprintf(stderr, "tracectl %s: %s: %s\n", in->cmd, in->path, line);
}

void tracectl_input_failed(struct tracectl_input *in, int err)
{
	tracectl_input_note(in, "reading failed at byte %" PRIu64 ": %s",
			    fxt_reader_stats(in->reader)->bytes,
			    strerror(-err));
}

bool tracectl_input_not_fxt(struct tracectl_input *in)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(in->reader);
	const char *why = fxt_reader_not_fxt(in->reader);

	if (!why && (rs->magic_seen || rs->records))
		return false;
	before_stderr(in);
	if (why)
		fprintf(stderr, "tracectl %s: '%s' is not an FXT archive: %s; "
				"give an FXT archive, or --force to read it "
				"anyway\n", in->cmd, in->path, why);
	else
		fprintf(stderr, "tracectl %s: '%s' is not an FXT archive (no "
				"magic number, no records)\n", in->cmd,
			in->path);
	return true;
}

void tracectl_input_report(struct tracectl_input *in)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(in->reader);

	if (!rs->magic_seen)
		tracectl_input_note(in, "no FXT magic number at the start (an "
					"old archive?); read anyway");
	if (rs->malformed)
		tracectl_input_note(in, "%" PRIu64 " malformed record(s) "
					"skipped", rs->malformed);
	if (rs->unknown_skipped)
		tracectl_input_note(in, "%" PRIu64 " record(s) of unknown "
					"type skipped", rs->unknown_skipped);
	if (rs->truncated)
		tracectl_input_note(in, "input ends inside a record; read up "
					"to the last whole one");
	if (rs->table_entries_dropped)
		tracectl_input_note(in, "%" PRIu64 " string or thread "
					"record(s) past the %llu MiB the "
					"providers' tables may hold were "
					"dropped; what refers to them reads "
					"as empty", rs->table_entries_dropped,
				    FXT_READER_TABLE_BYTES_MAX >> 20);
}

void tracectl_input_close(struct tracectl_input *in)
{
	fxt_reader_close(in->reader);
	in->reader = NULL;
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	in->fd = -1;
}

char *tracectl_output_name(const char *input, const char *suffix)
{
	size_t len = strlen(input), suffix_len = strlen(suffix);
	char *out;

	if (len > 4 && !strcmp(input + len - 4, ".fxt"))
		len -= 4;
	out = malloc(len + suffix_len + 1);
	if (!out)
		return NULL;
	memcpy(out, input, len);
	memcpy(out + len, suffix, suffix_len + 1);
	return out;
}

bool tracectl_same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	       S_ISREG(a.st_mode);
}

int tracectl_output_open(const char *cmd, const char *path, int in_fd)
{
	int fd;

	if (!strcmp(path, "-"))
		return STDOUT_FILENO;
	if (tracectl_same_file(in_fd, path)) {
		fprintf(stderr, "tracectl %s: output '%s' is the input; "
				"choose another name with -o\n", cmd, path);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		fprintf(stderr, "tracectl %s: cannot create '%s': %s\n", cmd,
			path, strerror(errno));
	return fd;
}
