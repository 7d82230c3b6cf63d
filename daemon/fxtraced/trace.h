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
#include "reply.h"

struct fxt_clock_reading;
struct kernel_source;
struct log_fields;
struct manager;
struct provider;
struct trace_state;

/*
 * What the trace tells the manager that owns it, which has the triggers
 * act on it (manager.c sets these in m->trace_events).
 */
struct trace_events {
	/* Started, stopping or resumed: the status changes. */
	void (*changed)(struct manager *m);
	/* It stops: what was armed on it is disarmed. */
	void (*stopping)(struct manager *m);
	/* Its archive is written and it is gone. */
	void (*finished)(struct manager *m);
	/* Its state file is written: the part the triggers keep, into st. */
	void (*save_state)(const struct manager *m, struct trace_state *st);
	/* A restart resumed it (m->trace): what st says was armed, again. */
	void (*resumed)(struct manager *m, const struct trace_state *st);
};

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
 * The triggers were armed (trigger.h): their directory dir_fd goes to
 * the descriptor store and they to the state file, for a restart to arm
 * them again.
 */
void trace_keep_triggers(struct manager *m, int dir_fd);
/* The state file again (the triggers' kept snapshots changed). */
void trace_save_state(struct manager *m);
/*
 * Starts stopping; ctx (NULL: nobody), of uid, gets the result through
 * reply once the archive is written.
 */
int trace_stop(struct manager *m, reply_fn reply, void *ctx, uid_t uid);
void trace_provider_stopped(struct manager *m, struct provider *p);
/* ctx went away: nothing is sent to it. */
void trace_forget_requester(struct manager *m, const void *ctx);
int trace_save(struct manager *m, struct provider *p,
	       const struct fxt_msg_save *save);
/*
 * A stop with no trace running: the last archive, if uid owns it and
 * was not told yet (the trace ended by itself), its result to ctx;
 * -ESRCH if none.
 */
int trace_hand_last(struct manager *m, uid_t uid, reply_fn reply,
		    void *ctx);
enum fxt_ctl_state trace_state(const struct manager *m);
/* The provider in the trace with the next id after after (0: the first). */
struct provider *trace_next_provider(const struct manager *m, uint32_t after);
/* The running trace's mode and kernel capture (NULL: none), for snapshots. */
enum fxt_buffering_mode trace_mode(const struct manager *m);
struct kernel_source *trace_kernel(const struct manager *m);
/* The running trace's clocks read at its start (host_mark.h). */
const struct fxt_clock_reading *trace_clock_start(const struct manager *m);
/*
 * tracectl record's command is process pid: marks it in the archive
 * (command_mark.h). -ESRCH when no trace runs or it is stopping.
 */
int trace_mark_command(struct manager *m, pid_t pid);
void trace_describe(const struct manager *m, struct fxt_ctl_result *res);
/* The running trace's journal fields: its id and output. */
void trace_log_fields(const struct manager *m, struct log_fields *f);
/* A RESULT of error with message, the trace described in it. */
void trace_result(const struct manager *m, int error, const char *message,
		  struct fxt_ctl_result *res);
/* The running trace for STATUS=: output, id, kernel, providers, bytes. */
void trace_format_status(const struct manager *m, unsigned int nproviders,
			 char *buf, size_t len);
/* The kernel capture's rows (fxt_ctl_provider) to ctx. */
int trace_send_kernel(const struct manager *m, reply_fn reply, void *ctx);
/* What went wrong writing the archive, for status; "" when nothing. */
void trace_write_note(const struct manager *m, char *buf, size_t len);

#endif /* FXT_TRACE_H */
