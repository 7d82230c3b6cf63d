/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a restarted manager may believe of a trace state. The state names
 * a file for the manager to open, cut and write, and a directory to
 * write snapshots in: read from a place another user can write, it would
 * have the manager (root, often) clobber a file of that user's choosing.
 * So the state directory is one only the manager's euid can write (and
 * not a symbolic link another user could have made or could change), and what a state names is taken only while it
 * still is what the trace started with: the archive by its inode, owner
 * and hidden name, the triggers' directory by its inode and owner.
 * Every refusal says why: a clause for the caller's log line ("it is a
 * symbolic link"; for the triggers' directory "is owned by uid 1000, ...").
 */
#ifndef FXT_STATE_TRUST_H
#define FXT_STATE_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#include "trace_state.h"

#define STATE_TRUST_WHY_MAX 160

/*
 * Opens path (a directory owned by our euid, not writable by group or
 * others; through a symbolic link only if root's or ours, in a directory
 * no other user can write) for the state; the descriptor or -errno.
 */
int state_dir_open(const char *path, char *why, size_t why_len);

/*
 * Whether name is a hidden name tracectl gives an archive beside output:
 * ".<output's file name>.XXXXXX" (mkstemp's six letters and digits).
 */
bool state_hidden_name_valid(const char *output, const char *name);

/*
 * Whether fd is the archive st names: a regular file of its inode, owned
 * by the uid that started the trace. 0, -ESTALE or -EPERM.
 */
int state_archive_check(int fd, const struct trace_state *st, char *why,
			size_t why_len);

/*
 * The archive st names, by its hidden name in the output's directory,
 * the name not followed if it is a link; checked as above. The
 * descriptor (read-write) or -errno.
 */
int state_archive_open(const struct trace_state *st, char *why,
		       size_t why_len);

/*
 * Whether fd is the directory the state's triggers were armed with: its
 * inode, owned by the uid that armed them (or root), not writable by
 * others. 0, -ESTALE (another directory) or -EPERM.
 */
int state_triggers_dir_check(int fd, const struct trace_state *st,
			     char *why, size_t why_len);

#endif /* FXT_STATE_TRUST_H */
