// SPDX-License-Identifier: GPL-2.0-only
/* Reading an archive for summary and report: see tracectl_input.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracectl_input.h"

#define PROGRESS_MIN_BYTES (64ull << 20)
#define DIAG_PRINT_MAX 10u
/* Large records are only skipped here: never read big ones whole. */
#define LARGE_RECORD_MAX (1u << 20)

static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct tracectl_input *in = ctx;

	if (kind != FXT_DIAG_MALFORMED && kind != FXT_DIAG_LIMIT)
		return;		/* counted by the reader */
	if (in->diags_printed++ >= DIAG_PRINT_MAX)
		return;
	if (in->progress_shown)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "tracectl %s: %s: offset %" PRIu64 ": %s%s\n", in->cmd,
		in->path, offset, reason,
		kind == FXT_DIAG_MALFORMED ? " (skipped)" : "");
}

static void on_progress(void *ctx, uint64_t bytes_read)
{
	struct tracectl_input *in = ctx;
	int percent = (int)(bytes_read * 100 / in->size);

	if (percent == in->last_percent || percent > 100)
		return;
	in->last_percent = percent;
	in->progress_shown = true;
	fprintf(stderr, "\rtracectl %s: %d%%", in->cmd, percent);
}

int tracectl_input_open(struct tracectl_input *in, const char *cmd,
			const char *path, bool force)
{
	struct fxt_reader_options ropt = {
		.expect_magic = true,
		.refuse_not_fxt = !force,
		.diag = on_diag,
		.diag_ctx = in,
		.max_large_record_bytes = LARGE_RECORD_MAX,
	};
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->cmd = cmd;
	in->path = path;
	in->last_percent = -1;
	in->fd = STDIN_FILENO;
	if (strcmp(path, "-")) {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			fprintf(stderr, "tracectl %s: cannot open '%s': %s\n",
				cmd, path, strerror(errno));
			return -errno;
		}
	}
	if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tracectl %s: '%s' is a directory; give an FXT "
				"file\n", cmd, path);
		tracectl_input_close(in);
		return -EISDIR;
	}
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		in->size = (uint64_t)st.st_size;
		(void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	in->reader = fxt_reader_open_fd(in->fd, &ropt);
	if (!in->reader) {
		fprintf(stderr, "tracectl %s: out of memory\n", cmd);
		tracectl_input_close(in);
		return -ENOMEM;
	}
	/* Quiet unless a person watches a long read. */
	if (isatty(STDERR_FILENO) && in->size >= PROGRESS_MIN_BYTES) {
		in->summary_options.progress = on_progress;
		in->summary_options.progress_ctx = in;
	}
	return 0;
}

int tracectl_input_read(struct tracectl_input *in, struct trace_summary *s)
{
	const struct fxt_reader_stats *rs;
	int ret = trace_summary_read(s, in->reader);

	if (in->progress_shown)
		fputs("\r\033[K", stderr);
	rs = fxt_reader_stats(in->reader);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		fprintf(stderr, "tracectl %s: reading '%s': %s\n", in->cmd,
			in->path, strerror(-ret));
		return ret;
	}
	if (tracectl_not_fxt(in->cmd, in->path, in->reader))
		return -EINVAL;
	if (!rs->magic_seen)
		fprintf(stderr, "tracectl %s: %s: no FXT magic number at the "
				"start (an old archive?); read anyway\n",
			in->cmd, in->path);
	if (rs->malformed)
		fprintf(stderr, "tracectl %s: %s: %" PRIu64 " malformed "
				"record(s) skipped\n", in->cmd, in->path,
			rs->malformed);
	if (rs->truncated)
		fprintf(stderr, "tracectl %s: %s: input ends inside a record; "
				"read up to the last whole one\n", in->cmd,
			in->path);
	tracectl_report_tables(in->cmd, in->path, rs);
	if (s->threads_untracked)
		fprintf(stderr, "tracectl %s: %s: more than %u threads; the "
				"others are left out\n", in->cmd, in->path,
			SUMMARY_THREADS_MAX);
	if (s->slices_lumped)
		fprintf(stderr, "tracectl %s: %s: more than %u slice names; "
				"the others are summed as \"(other)\"\n",
			in->cmd, in->path, SUMMARY_SLICES_MAX);
	if (s->all_latency.unbucketed)
		fprintf(stderr, "tracectl %s: %s: %" PRIu64 " wakeup latencies "
				"past the histogram memory are left out of the "
				"percentiles\n", in->cmd, in->path,
			s->all_latency.unbucketed);
	return 0;
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
