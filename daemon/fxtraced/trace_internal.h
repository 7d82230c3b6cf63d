/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What trace.c gives the files above it within the trace
 * (trace_recover.c): making, setting up and freeing a trace, its timers,
 * its providers' pending saves and stop.
 */
#ifndef FXT_TRACE_INTERNAL_H
#define FXT_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cleanup.h"
#include "control_proto.h"
#include "trace_types.h"

struct kernel_kept_fd;
struct manager;
struct provider;

struct trace *trace_free(struct trace *t);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct trace *, trace_free);
int trace_validate(const struct fxt_ctl_start *req, char *note,
		   size_t note_len);
int trace_new(struct manager *m, const struct fxt_ctl_start *req,
	      uid_t owner, struct trace **ret, char *note, size_t note_len);
int trace_set_up(struct manager *m, struct trace *t, int archive_fd,
		 enum fxt_ctl_kernel kernel,
		 const struct kernel_kept_fd *adopt, size_t nadopt,
		 uint64_t duration_ns, char *note, size_t note_len);
/* Its kernel capture, taking back adopt (nadopt of them; kernel_source.h). */
int trace_open_kernel(struct manager *m, struct trace *t,
		      enum fxt_ctl_kernel kernel,
		      const struct kernel_kept_fd *adopt, size_t nadopt,
		      char *note, size_t note_len);
int trace_start_duration_timer(struct manager *m, struct trace *t,
			       uint64_t duration_ns);
int trace_start_retry_timer(struct manager *m, struct trace *t);
int trace_retry_saves(struct trace *t, struct provider *p);
void trace_stop_providers(struct manager *m);

#endif /* FXT_TRACE_INTERNAL_H */
