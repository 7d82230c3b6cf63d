/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace: at most one at a time, owned by the manager. Start gives
 * every connected provider a buffer, stop collects them into the archive.
 */
#ifndef FXT_TRACE_H
#define FXT_TRACE_H

#include <stddef.h>
#include <sys/types.h>

#include <fxt/provider_abi.h>

#include "control_proto.h"

struct controller;
struct kernel_source;
struct manager;
struct provider;

/*
 * Takes archive_fd, the output the controller opened (-1: none came);
 * owner: the controller's uid, the only one that may put it in place.
 */
int trace_start(struct manager *m, const struct fxt_ctl_start *req,
		int archive_fd, uid_t owner, char *note, size_t note_len);
/* Gives a provider that connects during the trace its buffer. */
int trace_join(struct manager *m, struct provider *p);
/*
 * A provider whose manager was restarted hands its buffer back (it kept
 * recording): 0 when it is the trace's again (takes buffer_fd), -errno
 * when it is not (no resumed trace, not listed, another uid, a buffer
 * not ours): the caller sends TERMINATE and it is a new provider.
 */
int trace_resume_provider(struct manager *m, struct provider *p,
			  const struct fxt_msg_provider_resume *msg,
			  int buffer_fd);
/*
 * At start: resumes the trace the state file describes (a previous
 * fxtraced died during it). Never fails the start: a trace that cannot
 * be resumed is logged and forgotten.
 */
int trace_recover(struct manager *m);
/*
 * The triggers were armed (trigger.h): their directory goes to the
 * descriptor store and they to the state file, for a restart to arm
 * them again.
 */
void trace_keep_triggers(struct manager *m);
/* The state file again (the triggers' kept snapshots changed). */
void trace_save_state(struct manager *m);
/* Starts stopping; c (may be NULL) gets the result when written. */
int trace_stop(struct manager *m, struct controller *c);
void trace_provider_stopped(struct manager *m, struct provider *p);
void trace_forget_controller(struct manager *m, struct controller *c);
int trace_save(struct manager *m, struct provider *p,
	       const struct fxt_msg_save *save);
/*
 * A stop with no trace running: the last archive, if controller c owns
 * it and was not told yet (the trace ended by itself); -ESRCH if none.
 */
int trace_hand_last(struct manager *m, struct controller *c);
enum fxt_ctl_state trace_state(const struct manager *m);
/* The provider in the trace with the next id after after (0: the first). */
struct provider *trace_next_provider(const struct manager *m, uint32_t after);
/* The running trace's mode and kernel capture (NULL: none), for snapshots. */
enum fxt_buffering_mode trace_mode(const struct manager *m);
struct kernel_source *trace_kernel(const struct manager *m);
/*
 * tracectl record's command is process pid: marks it in the archive
 * (command_mark.h). -ESRCH when no trace runs or it is stopping.
 */
int trace_mark_command(struct manager *m, pid_t pid);
void trace_describe(const struct manager *m, struct fxt_ctl_result *res);
/* The running trace for STATUS=: output, id, kernel, providers, bytes. */
void trace_format_status(const struct manager *m, unsigned int nproviders,
			 char *buf, size_t len);
int trace_send_kernel(const struct manager *m, struct controller *c);
/* What went wrong writing the archive, for status; "" when nothing. */
void trace_write_note(const struct manager *m, char *buf, size_t len);

#endif /* FXT_TRACE_H */
