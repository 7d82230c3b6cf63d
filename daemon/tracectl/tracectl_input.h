/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The archive input of the commands that read one (dump, convert,
 * summary, report): opens FILE ('-' is stdin) for the FXT reader and says
 * on stderr, the same way for all four, what is wrong with it:
 *
 *   tracectl CMD: FILE: offset 0x5d8: malformed: argument 1 of 3 words...
 *
 * at most TRACECTL_DIAG_SHOWN_MAX such lines, then how many more were not
 * shown; a progress line while a big regular file is read, where stdout
 * and stderr are a terminal (quiet when piped); what the reader counted,
 * once it is done. Also the output naming shared by the commands that
 * read an archive.
 */
#ifndef FXT_TRACECTL_INPUT_H
#define FXT_TRACECTL_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt_reader.h"
#include "text_out.h"

/* The reader's problems shown one by one; the rest are only counted. */
#define TRACECTL_DIAG_SHOWN_MAX 1000u

/*
 * Large records that dump and convert read whole (they show their size
 * and first bytes): bigger ones are skipped, so that memory stays
 * bounded.
 */
#define TRACECTL_LARGE_RECORD_MAX (16ull << 20)
/* summary and report only skip large records: never read a big one whole. */
#define TRACECTL_SUMMARY_LARGE_RECORD_MAX (1ull << 20)

struct tracectl_input_options {
	bool force;		/* read input that does not look like FXT */
	bool provider_buffer;	/* one provider's raw buffer (dump) */
	/*
	 * Show every problem the reader finds (dump), not only what it
	 * skips or drops (FXT_DIAG_MALFORMED, FXT_DIAG_LIMIT).
	 */
	bool every_problem;
	/* The command writes to stdout while it reads: no progress line. */
	bool writes_while_reading;
	uint64_t max_large_record_bytes;
};

struct tracectl_input {
	const char *cmd;	/* "summary": messages start "tracectl summary:" */
	const char *path;
	int fd;
	uint64_t size;		/* of a regular file, else 0 */
	struct fxt_reader *reader;
	bool every_problem;
	/* flushed before anything goes to stderr, set by the caller */
	struct text_out *stdout_text;
	uint64_t diags_shown;
	uint64_t diags_hidden;	/* past TRACECTL_DIAG_SHOWN_MAX */
	bool progress;		/* wanted: tracectl_input_progress() prints */
	bool progress_shown;	/* a progress line is on the terminal */
	int last_percent;
};

/*
 * Opens path for the reader: 0, or -errno after saying why on stderr
 * (a directory, out of memory). cmd names the command in messages.
 */
int tracectl_input_open(struct tracectl_input *in, const char *cmd,
			const char *path,
			const struct tracectl_input_options *opt);
/*
 * The progress line, "tracectl CMD: FILE: 12 of 640 MiB read (1%)", when
 * in->progress and the percentage moved: ctx is the input, so that it
 * serves as a reading loop's progress callback.
 */
void tracectl_input_progress(void *ctx, uint64_t bytes_read);
/*
 * Reading ended: clears the progress line and says how many problems
 * were not shown.
 */
void tracectl_input_done(struct tracectl_input *in);
/* "tracectl CMD: FILE: ...\n" on stderr, the progress line cleared. */
__attribute__((format(printf, 2, 3))) void
tracectl_input_note(struct tracectl_input *in, const char *fmt, ...);
/* Reading failed with -err: says so with where it stopped. */
void tracectl_input_failed(struct tracectl_input *in, int err);
/*
 * True, after saying so on stderr, when the input is not FXT: the reader
 * (unless --force) refused it, or found no FXT at all in it (no magic
 * number, no record). The commands then exit 1.
 */
bool tracectl_input_not_fxt(struct tracectl_input *in);
/*
 * After reading the whole input: what the reader counted and skipped (no
 * magic number, malformed and unknown records, a cut end, dropped table
 * entries), each on a line of its own.
 */
void tracectl_input_report(struct tracectl_input *in);
void tracectl_input_close(struct tracectl_input *in);

/*
 * The default output name of a command reading input: trace.fxt ->
 * trace<suffix>, other names get suffix appended. NULL on ENOMEM.
 */
char *tracectl_output_name(const char *input, const char *suffix);
/* Whether path names the file open as fd (writing it would eat the input). */
bool tracectl_same_file(int fd, const char *path);
/*
 * The output of a command reading the archive open as in_fd: '-' is
 * stdout; never the input itself. An fd, or -1 after saying why.
 */
int tracectl_output_open(const char *cmd, const char *path, int in_fd);

#endif /* FXT_TRACECTL_INPUT_H */
