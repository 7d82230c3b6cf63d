/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Snapshots of a running circular trace: what every provider's buffer and
 * the kernel's rings hold now, copied privately and validated, into an
 * archive of its own that is complete by itself. Writers never wait; the
 * trace goes on.
 */
#ifndef FXT_SNAPSHOT_H
#define FXT_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "control_proto.h"
#include "reply.h"

struct manager;

/*
 * Takes archive_fd. Copies the buffers now and queues the archive; ctx
 * (may be NULL) gets the RESULT through reply once it is on disk. On
 * failure returns -errno with the reason in note (and ctx gets nothing).
 */
int snapshot_take(struct manager *m, reply_fn reply, void *ctx,
		  const struct fxt_ctl_snapshot *req, int archive_fd,
		  uid_t owner, char *note, size_t note_len);
/*
 * The same for the manager's own use (a trigger): takes archive_fd, a
 * regular file, unnamed (O_TMPFILE) if done links it; output names it in
 * logs. done(userdata, 0 or -errno,
 * bytes) once it is on disk (not when the manager exits first).
 */
typedef void (*snapshot_done_fn)(void *userdata, int error, uint64_t bytes);
int snapshot_write(struct manager *m, int archive_fd, const char *output,
		   uid_t owner, snapshot_done_fn done, void *userdata,
		   char *note, size_t note_len);
/* ctx went away: nothing is sent to it. */
void snapshot_forget_requester(struct manager *m, const void *ctx);
/* The manager exits: snapshots not written yet are dropped. */
void snapshot_free_all(struct manager *m);

#endif /* FXT_SNAPSHOT_H */
