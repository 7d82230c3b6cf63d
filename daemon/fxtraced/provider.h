/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A provider connection: any user may be one. It gets a buffer of its own
 * per trace; what it claims (name, pid) is only a label.
 */
#ifndef FXT_PROVIDER_H
#define FXT_PROVIDER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

#include <fxt/provider_abi.h>

#include "control_proto.h"
#include "list.h"
#include "log.h"
#include "provider_buffer.h"
#include "record_walk.h"

struct fxt_msg_provider_resume;
struct fxt_msg_save;
struct fxt_msg_trigger;
struct manager;
struct provider;
struct ucred;

/*
 * What a provider tells the manager that owns it, which has the trace,
 * the triggers and the controllers act on it (manager.c sets these in
 * m->provider_events). A provider calls nothing above itself.
 */
struct provider_events {
	/* Connected and numbered: it joins a running trace; -errno: drop it. */
	int (*connected)(struct manager *m, struct provider *p);
	/*
	 * RESUME: its buffer back in the trace it came from (takes
	 * buffer_fd), or -errno: it forgets it and is a new provider.
	 */
	int (*resume)(struct manager *m, struct provider *p,
		      const struct fxt_msg_provider_resume *msg, int buffer_fd);
	/* Acknowledged START. */
	void (*started)(struct manager *m, struct provider *p);
	/* Acknowledged STOP, or went away holding a buffer of the trace. */
	void (*stopped)(struct manager *m, struct provider *p);
	/* Streaming: a half of its buffer is full, to be written. */
	int (*save)(struct manager *m, struct provider *p,
		    const struct fxt_msg_save *save);
	void (*trigger)(struct manager *m, const struct provider *p,
			const struct fxt_msg_trigger *msg);
	/* One came or went: the status changes. */
	void (*changed)(struct manager *m);
};

#define PROVIDER_ANCESTORS_MAX 16

struct provider {
	struct manager *manager;
	LIST_FIELDS(struct provider);	/* in connection order */
	int fd;			/* -1 once the provider is gone */
	sd_event_source *io;
	uint32_t id;
	pid_t pid;		/* SO_PEERCRED, not what HELLO claims */
	/*
	 * Its parent, grandparent, ... when it connected: a short-lived
	 * provider's ancestry is gone from /proc once it exits.
	 */
	pid_t ancestors[PROVIDER_ANCESTORS_MAX];
	unsigned int nancestors;
	uid_t uid;
	char name[FXT_PROVIDER_NAME_MAX];

	/* Per trace; reset by provider_leave_trace(). */
	bool in_trace;		/* has a buffer in the current trace */
	bool started;		/* acknowledged START */
	bool stopped;		/* acknowledged STOP: the buffer is final */
	bool stop_sent;
	bool over_budget;	/* got no buffer: its uid's budget is spent */
	bool over_memory_budget;	/* got none: the trace's budget is */
	bool visited;		/* has a section in the archive */
	struct provider_buffer buffer;
	uint64_t durable_saved;	/* durable bytes already in the archive */
	uint64_t saved_generation[2]; /* +1; 0: that half never saved */
	/* +1: a SAVE of that half not answered yet (writing failed); 0: none */
	uint64_t pending_save[2];
	uint64_t drops_reported;
	bool drops_implausible_logged;
	/* Its buffer came back to a restarted manager; marked in the archive. */
	bool recovered, recovered_reported;
	struct record_walk_stats walk;
};

/* Is p's process ancestor, or one ancestor started (at connection)? */
bool provider_descends_from(const struct provider *p, pid_t ancestor);

/* The journal fields that name a provider. */
#define PROVIDER_LOG_FIELDS(p)                                             \
	(&(struct log_fields){ .provider_name = (p)->name,                 \
			       .provider_pid = (p)->pid })

/*
 * Takes fd and buffer_fd, also on failure; cred: SO_PEERCRED, read once
 * at accept. hello: HELLO, or RESUME with the buffer it hands back.
 */
int provider_new(struct manager *m, int fd, const struct ucred *cred,
		 const struct fxt_msg_header *hello, size_t len,
		 int buffer_fd);
struct provider *provider_free(struct provider *p);
int provider_join_trace(struct provider *p, enum fxt_buffering_mode mode,
			uint64_t data_size, const char *categories,
			const uint8_t trace_id[16]);
int provider_send_stop(struct provider *p);
void provider_leave_trace(struct provider *p);
void provider_describe(const struct provider *p, struct fxt_ctl_provider *out);
/*
 * Could p have dropped the records its buffer's counter says (st)? Not
 * above provider_buffer_drops_max(): such a count is shown as implausible
 * (controllers get the flag and the bound, never the number).
 */
bool provider_drops_plausible(const struct provider *p,
			      const struct provider_buffer_state *st,
			      uint64_t *max);
/* The same, and a count not believed is logged, once a trace. */
bool provider_check_drops(struct provider *p,
			  const struct provider_buffer_state *st);

#endif /* FXT_PROVIDER_H */
