/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The archive file of tracectl start, record and snapshot, made with the
 * caller's own rights: a hidden file beside the output that fxtraced
 * writes through the descriptor it is passed, then put in place by the
 * stop (or the snapshot) once it is complete. A failed start or trace
 * never truncates, replaces or removes a file at the output.
 */
#ifndef FXT_TRACECTL_ARCHIVE_OUTPUT_H
#define FXT_TRACECTL_ARCHIVE_OUTPUT_H

#include <stddef.h>

#include "control_proto.h"

/* path made absolute (the working directory before it): 0 or -errno. */
int archive_output_resolve(const char *path, char *out, size_t len);
/*
 * Creates the hidden file beside path (absolute), its name into name: the
 * descriptor, or -errno (-EINVAL: path is there and no regular file).
 */
int archive_output_create(const char *path, char *name, size_t name_len);
/* The hidden file's path: name in the directory of output. */
void archive_output_temp_path(const char *output, const char *name, char *buf,
			      size_t len);
/* After a failed start: only if the name still is the file we created. */
void archive_output_discard(const char *path, int fd);
/*
 * Puts the finished archive (res's output and temp_name) in place; a
 * complete one (error 0) replaces a file there, kept as FILE.old. 0: the
 * output holds the archive; 1: it waits at its hidden name for its
 * owner's stop; -1: it stays at its hidden name, or is gone (said why).
 */
int archive_output_publish(const char *cmd, const struct fxt_ctl_result *res,
			   int error);

#endif /* FXT_TRACECTL_ARCHIVE_OUTPUT_H */
