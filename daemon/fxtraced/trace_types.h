/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace as its files share it: trace.c (start, join, the streaming
 * writes, stop), the files below it that it calls (trace_budget.c,
 * trace_store.c) and those above it (trace_status.c, trace_recover.c).
 * Nothing else includes this: the rest of the manager sees trace.h.
 */
#ifndef FXT_TRACE_TYPES_H
#define FXT_TRACE_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <systemd/sd-event.h>
#include <systemd/sd-id128.h>

#include <fxt/provider_abi.h>

#include "control_proto.h"
#include "host_clock.h"
#include "log.h"
#include "reply.h"
#include "trace_state.h"

struct archive;
struct kernel_source;

struct trace {
	char id[SD_ID128_STRING_MAX];	/* in the journal: FXT_TRACE_ID */
	sd_id128_t uuid;	/* id, in every buffer's header */
	struct fxt_ctl_start req;	/* as started: kept for a restart */
	uint32_t kernel_id;
	dev_t archive_dev;
	ino_t archive_ino;
	/*
	 * The providers given a buffer, kept in the state file; .reserved:
	 * 1 once a provider listed by the state of a restart came back.
	 */
	struct trace_state_provider *listed;
	size_t nlisted;
	bool recovered;		/* resumed by a restarted manager */
	bool kernel_adopted;	/* its kernel capture came back running */
	unsigned int awaited;	/* listed providers not back yet */
	unsigned int to_resume;	/* listed when the restart resumed it */
	uint64_t resume_deadline_usec;	/* CLOCK_MONOTONIC: stop waits till */
	sd_event_source *resume_timer;	/* a stop waits for them */
	uint64_t finish_mark;	/* +1: the archive's length as finishing began */
	bool state_live;	/* joins rewrite the state file */
	bool state_error;	/* the last write of it failed (logged) */
	enum fxt_buffering_mode mode;
	uint64_t buffer_size;
	unsigned int ncpus;	/* the kernel rings' count, for the budget */
	char categories[FXT_CATEGORIES_MAX];
	char output[FXT_CTL_PATH_MAX];
	char temp_name[FXT_CTL_NAME_MAX];	/* beside output; "": none */
	uid_t owner;
	struct archive *archive;
	struct kernel_source *kernel;
	uint64_t started_ns;
	/* Written at start (host_mark.h); snapshots carry it too. */
	struct fxt_clock_reading clock_start;
	bool stopping;
	bool finishing;		/* the writer writes what is left */
	int collect_error;	/* of the last collection, at stop */
	bool written;		/* the archive is closed: describe it */
	sd_event_source *stop_timer;
	sd_event_source *duration_timer;
	sd_event_source *retry_timer;	/* streaming: writes that failed */
	uint64_t failures_seen;	/* of the writer, at the last look */
	int write_error;	/* the first; what failed may be written since */
	uint64_t write_logged_usec;	/* the last failure logged */
	bool write_log_pending;	/* logged a failure, not its end yet */
	/* Who asked for the stop (NULL: nobody), its uid, how to answer. */
	void *stop_requester;
	uid_t stop_uid;
	reply_fn stop_reply;
};

#define TRACE_LOG_FIELDS(t)                                                \
	(&(struct log_fields){ .trace_id = (t)->id, .output = (t)->output })

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* FXT_TRACE_TYPES_H */
