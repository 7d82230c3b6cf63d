/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The archive side of tracectl summary and report: opens FILE ('-' is
 * stdin), reads it into a trace summary with a progress line on a
 * terminal for big files, and says on stderr what was wrong with it.
 * Also the output naming shared by the commands that read an archive.
 */
#ifndef FXT_TRACECTL_INPUT_H
#define FXT_TRACECTL_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt_reader.h"
#include "trace_summary.h"
#include "tracectl_reading.h"

struct tracectl_input {
	const char *cmd;	/* "summary": messages start "tracectl summary:" */
	const char *path;
	int fd;
	uint64_t size;		/* of a regular file, else 0 */
	struct fxt_reader *reader;
	/* progress is set up by open; the caller may add the timeline */
	struct trace_summary_options summary_options;
	unsigned int diags_printed;
	int last_percent;
	bool progress_shown;
};

/*
 * 0, or -errno after saying why on stderr. force: read input that does
 * not look like FXT too (see tracectl_not_fxt()).
 */
int tracectl_input_open(struct tracectl_input *in, const char *cmd,
			const char *path, bool force);
/*
 * Reads everything into s. 0, or -errno after saying why (-ENOMEM is left
 * to the caller); -EINVAL when the file holds no FXT at all.
 */
int tracectl_input_read(struct tracectl_input *in, struct trace_summary *s);
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
