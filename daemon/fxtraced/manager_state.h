/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The manager's state (manager.h says who owns whom): the event loop, the
 * listening socket and the connections that have not said what they are,
 * the providers and controllers, the running trace, the snapshots being
 * written and the armed triggers, the settings, what a restart takes
 * back, and the callbacks through which what it owns reaches it. The
 * objects it owns get it as their context and read there what they need
 * of the others; none of them calls manager.c.
 */
#ifndef FXT_MANAGER_STATE_H
#define FXT_MANAGER_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

#include "control_proto.h"
#include "log_burst.h"

#define MANAGER_ALLOW_UID_MAX 16
/* Each provider costs a buffer: one user cannot take all memory. */
#define MANAGER_PROVIDERS_PER_UID 256
/*
 * Each connection costs a descriptor: one user (not root) cannot take
 * them all with connections that never say what they are, or controllers
 * it may not use.
 */
#define MANAGER_CONNECTIONS_PER_UID (MANAGER_PROVIDERS_PER_UID + 16)
/*
 * A connection that has not said what it is (its first message: HELLO,
 * or a controller's request) within this is closed and counted: a
 * library sends it at once, and any user could hold descriptors so.
 */
#define MANAGER_HELLO_TIMEOUT_USEC (5ull * 1000u * 1000u)
/* Out of descriptors: accept again after this, not in a busy loop. */
#define MANAGER_ACCEPT_RETRY_USEC (1000ull * 1000u)
/* How long stop waits for providers' STOPPED before reading anyway. */
#define MANAGER_STOP_TIMEOUT_USEC (1000ull * 1000u)
#define MANAGER_STOP_TIMEOUT_MAX_USEC (3600ull * 1000u * 1000u)
/* Socket-activated, idle this long: exit; the socket starts us again. */
#define MANAGER_IDLE_EXIT_USEC (30ull * 1000u * 1000u)
/* Archive bytes that may wait for the disk in memory while tracing. */
#define MANAGER_ARCHIVE_QUEUE_MAX (16u << 20)
/* Streaming, after a write failed: how often writing is tried again. */
#define MANAGER_WRITE_RETRY_USEC (1000ull * 1000u)
/* Each provider's buffer is shared memory: what one uid may pin. */
#define MANAGER_USER_BUFFER_BUDGET (64ull << 20)
/* Floods of bad connections: at most a summary line per this long. */
#define MANAGER_LOG_BURST_USEC (10ull * 1000u * 1000u)
/*
 * Connection lines of providers of one spell (users other than root)
 * before they are only counted: any user may connect and close at will.
 */
#define MANAGER_PROVIDER_LOG_BURST 20u
/* At most one line about failing writes per this long. */
#define MANAGER_WRITE_LOG_USEC (10ull * 1000u * 1000u)
/*
 * After a restart, how long a stop of the resumed trace waits for its
 * providers to hand their buffers back (they reconnect every second).
 */
#define MANAGER_RESUME_WAIT_USEC (3ull * 1000u * 1000u)
/*
 * The running trace's archive in systemd's descriptor store (FDSTORE=1):
 * a manager restarted by Restart= gets it back, although it could not
 * open the file (the caller's, in a directory it cannot write).
 */
#define MANAGER_FDSTORE_ARCHIVE "fxt-archive"
/*
 * The running trace's kernel capture (the module's session, the BPF ring
 * map, programs and links: kernel_session.h) outlives us there, named
 * "fxt-kernel-<role>-<trace id>": a restart takes back only its trace's.
 */
#define MANAGER_FDSTORE_KERNEL "fxt-kernel-"
/* The armed triggers' snapshot directory, tracectl's (trigger.h). */
#define MANAGER_FDSTORE_SNAPSHOT_DIR "fxt-snapshot-dir"
#define MANAGER_FDNAME_MAX 80
#define MANAGER_STORED_KERNEL_MAX 64
/* What the descriptor store gives back is named so; the socket is not. */
#define MANAGER_FDSTORE_PREFIX "fxt-"
/* How often STATUS= is refreshed while a trace runs (bytes written). */
#define MANAGER_STATUS_USEC (5ull * 1000u * 1000u)

struct controller;
struct controller_events;
struct listener_events;
struct pending;
struct provider;
struct provider_events;
struct snapshot;
struct trace;
struct trace_events;
struct triggers;

struct manager_stored_fd {
	int fd;
	char name[MANAGER_FDNAME_MAX];
};

struct manager {
	sd_event *event;
	/* How the objects it owns reach it, set by manager_new(). */
	const struct listener_events *listener_events;
	const struct provider_events *provider_events;
	const struct controller_events *controller_events;
	const struct trace_events *trace_events;
	sd_event_source *sigterm, *sigint;

	char *socket_path;	/* bound by us: unlinked at exit */
	char *state_dir;	/* the running trace's state, for a restart */
	int state_dir_fd;	/* it, opened once trusted (state_trust.h); -1 */
	int stored_archive_fd;	/* from the descriptor store at start; -1 */
	int stored_snapshot_dir_fd;	/* likewise, the triggers'; -1 */
	/* Likewise, the kernel capture's (MANAGER_FDSTORE_KERNEL). */
	struct manager_stored_fd stored_kernel[MANAGER_STORED_KERNEL_MAX];
	size_t nstored_kernel;
	int listen_fd;
	bool activated;		/* the socket came from the service manager */
	sd_event_source *listen_source;
	sd_event_source *accept_retry;	/* armed while out of descriptors */
	struct pending *pending;	/* connected, first message not read */
	unsigned int refused;		/* connections over the per-uid limit */
	/* What any local user can cause: a line per spell, then counts. */
	struct log_burst bad_connections, refused_controllers, bad_requests;
	struct log_burst silent_connections;	/* MANAGER_HELLO_TIMEOUT_USEC */
	struct log_burst over_budget;
	/* Providers of users other than root connecting and going. */
	struct log_burst provider_lines;

	uid_t allow_uid[MANAGER_ALLOW_UID_MAX];
	unsigned int n_allow_uid;
	uint64_t default_buffer_size;
	/* Buffer data bytes one uid (not root) may hold in a trace; 0: any. */
	uint64_t user_buffer_budget;
	uint64_t stop_timeout_usec;
	/* Exit after this long without trace or connection; 0: never. */
	uint64_t idle_exit_usec;
	/* kernel:mem's system counters: sampled this often; 0: never. */
	uint64_t mem_interval_ns;
	sd_event_source *idle_timer;
	sd_event_source *status_timer;	/* on while a trace runs */

	struct provider *providers;
	struct controller *controllers;
	uint32_t next_provider_id;

	struct trace *trace;	/* NULL when idle */
	/*
	 * The BPF walker's files' rows, compiled once for the manager's
	 * life (kernel/unwind_cache.h); NULL if it could not be made.
	 */
	struct unwind_cache *unwind_cache;
	struct snapshot *snapshots;	/* being written */
	struct triggers *triggers;	/* armed for the running trace; NULL */
	bool exiting;		/* exit once the trace is written */
	/*
	 * The last trace's archive. Until its owner's controller has been
	 * told its hidden name (to rename it into place), a stop from that
	 * owner gets it: a trace that ended by itself, or whose stopper went
	 * away, is not left behind.
	 */
	char last_output[FXT_CTL_PATH_MAX];
	char last_temp_name[FXT_CTL_NAME_MAX];
	uid_t last_owner;
	int last_error;
	bool last_handed;
};

/* Watches fd for input on the manager's loop; 0 or -errno. */
static inline int manager_watch_input(struct manager *m,
				      sd_event_source **source, int fd,
				      sd_event_io_handler_t handler,
				      void *userdata, const char *description)
{
	int r = sd_event_add_io(m->event, source, fd, EPOLLIN, handler,
				userdata);

	if (r >= 0)
		(void)sd_event_source_set_description(*source, description);
	return r;
}

/* A new provider id: providers, the kernel section, command marks. */
static inline uint32_t manager_next_id(struct manager *m)
{
	return ++m->next_provider_id;
}

#endif /* FXT_MANAGER_STATE_H */
