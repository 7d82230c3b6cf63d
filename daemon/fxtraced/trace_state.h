/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a restarted manager needs to resume the running trace, kept in a
 * file of the runtime directory (/run/fxtrace/state under systemd): the
 * request that started it, its identity, its archive's inode, its armed
 * triggers with the snapshots they keep, and the providers that hold a
 * buffer in it (so that only a provider's own uid hands its buffer
 * back). Same machine, same boot, same build: a plain struct, checked by
 * magic, version and length. Read only from a file no one else could
 * have written (state_trust.h: its directory too).
 */
#ifndef FXT_TRACE_STATE_H
#define FXT_TRACE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "control_proto.h"
#include "host_clock.h"
#include "snapshot_budget.h"

#define TRACE_STATE_FILE "trace-state"

struct trace_state_provider {
	uint32_t id;
	uint32_t uid;
	int32_t pid;
	uint32_t reserved;
	char name[FXT_PROVIDER_NAME_MAX];
};

struct trace_state {
	uint64_t magic;
	uint32_t version;
	uint32_t nproviders;	/* struct trace_state_provider that follow */
	struct fxt_ctl_start req;
	uint8_t trace_id[16];
	uint32_t owner;
	uint32_t kernel_id;	/* the kernel section's provider id; 0: none */
	uint32_t next_provider_id;
	uint32_t reserved;
	uint64_t started_ns;	/* CLOCK_BOOTTIME */
	/* The clocks read at start, as the archive has them */
	struct fxt_clock_reading clock_start;
	uint64_t archive_dev, archive_ino;
	/* +1: the archive's length when the stop began writing; 0: none */
	uint64_t finish_mark;
	/*
	 * The armed triggers (count and latency_ns 0: none), armed by
	 * triggers_owner; their directory waits in the descriptor store (or
	 * is opened again by its name when it still is that inode).
	 */
	struct fxt_ctl_triggers triggers;
	uint32_t triggers_owner;
	uint32_t reserved2;
	uint64_t triggers_dir_dev, triggers_dir_ino;
	/* The snapshots the triggers keep, oldest first: their budget's. */
	uint32_t nsnapshots;
	uint32_t reserved3;
	struct snapshot_kept snapshots[FXT_CTL_SNAPSHOT_FILES_MAX];
};

/*
 * Replaces the file in the directory dir_fd in one step (rename), mode
 * 0600; 0 or -errno.
 */
int trace_state_save(int dir_fd, struct trace_state *st,
		     const struct trace_state_provider *providers, size_t n);
/*
 * -ENOENT when there is none; -EPERM when another uid could have written
 * it (not a regular file of our euid, mode 0600), -EBADMSG when it is
 * not ours: why says which. *providers is malloc'd (NULL when n is 0).
 */
int trace_state_load(int dir_fd, struct trace_state *st,
		     struct trace_state_provider **providers, size_t *n,
		     char *why, size_t why_len);
void trace_state_remove(int dir_fd);

#endif /* FXT_TRACE_STATE_H */
