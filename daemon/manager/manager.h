/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxtraced: one Manager owning the event loop, the listening socket, the
 * connected providers and controllers, and at most one running trace.
 * Each concern has its own file and event source:
 *   listener.c      the socket, accepting, telling providers from controllers
 *   provider.c      a provider connection (HELLO, START/STOP, SAVE)
 *   controller.c    a tracectl connection (start, stop, status)
 *   trace.c         the trace: start, stop with its timeout, duration timer
 *   collect.c       a provider's buffer into the archive
 *   archive.c       the archive file
 *   kernel_source.c kernel capture and its event fd
 */
#ifndef FXT_MANAGER_H
#define FXT_MANAGER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

#include <fxt/provider_abi.h>

#include "control_proto.h"
#include "log.h"
#include "provider_buffer.h"
#include "record_walk.h"

#define MANAGER_ALLOW_UID_MAX 16
/* Each provider costs a buffer: one user cannot take all memory. */
#define MANAGER_PROVIDERS_PER_UID 256
/*
 * Each connection costs a descriptor: one user (not root) cannot take
 * them all with connections that never say what they are, or controllers
 * it may not use.
 */
#define MANAGER_CONNECTIONS_PER_UID (MANAGER_PROVIDERS_PER_UID + 16)
/* Out of descriptors: accept again after this, not in a busy loop. */
#define MANAGER_ACCEPT_RETRY_USEC (1000ull * 1000u)
/* How long stop waits for providers' STOPPED before reading anyway. */
#define MANAGER_STOP_TIMEOUT_USEC (1000ull * 1000u)
#define MANAGER_STOP_TIMEOUT_MAX_USEC (3600ull * 1000u * 1000u)
/* Socket-activated, idle this long: exit; the socket starts us again. */
#define MANAGER_IDLE_EXIT_USEC (30ull * 1000u * 1000u)
/* How often STATUS= is refreshed while a trace runs (bytes written). */
#define MANAGER_STATUS_USEC (5ull * 1000u * 1000u)

struct archive;
struct kernel_source;
struct pending;
struct trace;

struct provider {
	struct manager *manager;
	struct provider *next;
	int fd;			/* -1 once the provider is gone */
	sd_event_source *io;
	uint32_t id;
	pid_t pid;		/* SO_PEERCRED, not what HELLO claims */
	uid_t uid;
	char name[FXT_PROVIDER_NAME_MAX];

	/* Per trace; reset by provider_leave_trace(). */
	bool in_trace;		/* has a buffer in the current trace */
	bool started;		/* acknowledged START */
	bool stopped;		/* acknowledged STOP: the buffer is final */
	bool stop_sent;
	bool visited;		/* has a section in the archive */
	struct provider_buffer buffer;
	uint64_t durable_saved;	/* durable bytes already in the archive */
	uint64_t saved_generation[2]; /* +1; 0: that half never saved */
	uint64_t drops_reported;
	struct record_walk_stats walk;
};

/* The journal fields that name a provider. */
#define PROVIDER_LOG_FIELDS(p)                                             \
	(&(struct log_fields){ .provider_name = (p)->name,                 \
			       .provider_pid = (p)->pid })

struct controller_out;

struct controller {
	struct manager *manager;
	struct controller *next;
	int fd;
	sd_event_source *io;
	/* What its socket did not take yet; no request is read meanwhile. */
	struct controller_out *out_head, **out_tail;
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool allowed;
};

struct manager {
	sd_event *event;
	sd_event_source *sigterm, *sigint;

	char *socket_path;	/* bound by us: unlinked at exit */
	int listen_fd;
	bool activated;		/* the socket came from the service manager */
	sd_event_source *listen_source;
	sd_event_source *accept_retry;	/* armed while out of descriptors */
	struct pending *pending;	/* connected, first message not read */
	unsigned int refused;		/* connections over the per-uid limit */

	uid_t allow_uid[MANAGER_ALLOW_UID_MAX];
	unsigned int n_allow_uid;
	uint64_t default_buffer_size;
	uint64_t stop_timeout_usec;
	/* Exit after this long without trace or connection; 0: never. */
	uint64_t idle_exit_usec;
	sd_event_source *idle_timer;
	sd_event_source *status_timer;	/* on while a trace runs */

	struct provider *providers;
	struct controller *controllers;
	uint32_t next_provider_id;

	struct trace *trace;	/* NULL when idle */
	bool exiting;		/* exit once the trace is written */
	char last_output[FXT_CTL_PATH_MAX];
};

int manager_new(struct manager **ret);
struct manager *manager_free(struct manager *m);
int manager_start(struct manager *m, const char *socket_path);
int manager_run(struct manager *m);
void manager_update_status(struct manager *m);
/* After a connection came or went: arms or disarms the idle exit. */
void manager_check_idle(struct manager *m);
void manager_trace_finished(struct manager *m);
void manager_maybe_exit(struct manager *m);
uint32_t manager_next_id(struct manager *m);

/* listener.c */
int listener_open(struct manager *m, const char *path);
void listener_close(struct manager *m);

/* provider.c */
int provider_new(struct manager *m, int fd, const struct fxt_msg_header *hello,
		 size_t len);
struct provider *provider_free(struct provider *p);
int provider_join_trace(struct provider *p, enum fxt_buffering_mode mode,
			uint64_t data_size, const char *categories);
int provider_send_stop(struct provider *p);
void provider_leave_trace(struct provider *p);
void provider_describe(const struct provider *p, struct fxt_ctl_provider *out);

/* controller.c */
int controller_new(struct manager *m, int fd);
struct controller *controller_free(struct controller *c);
/* Sends or queues one message: 0, or -errno if the controller is gone. */
int controller_send(struct controller *c, const void *msg, size_t len);
int controller_send_result(struct controller *c, int error,
			   const char *message);
int controller_send_providers(struct controller *c);

/* trace.c */
/* Takes archive_fd, the output the controller opened (-1: none came). */
int trace_start(struct manager *m, const struct fxt_ctl_start *req,
		int archive_fd, char *note, size_t note_len);
/* Gives a provider that connects during the trace its buffer. */
int trace_join(struct manager *m, struct provider *p);
/* Starts stopping; c (may be NULL) gets the result when written. */
int trace_stop(struct manager *m, struct controller *c);
void trace_provider_stopped(struct manager *m, struct provider *p);
void trace_forget_controller(struct manager *m, struct controller *c);
int trace_save(struct manager *m, struct provider *p,
	       const struct fxt_msg_save *save);
enum fxt_ctl_state trace_state(const struct manager *m);
void trace_describe(const struct manager *m, struct fxt_ctl_result *res);
/* The running trace for STATUS=: output, id, kernel, providers, bytes. */
void trace_format_status(const struct manager *m, unsigned int nproviders,
			 char *buf, size_t len);
int trace_send_kernel(const struct manager *m, struct controller *c);

/* collect.c */
int collect_provider(struct provider *p, struct archive *a);
int collect_save(struct provider *p, struct archive *a, unsigned int half);

#endif /* FXT_MANAGER_H */
