// SPDX-License-Identifier: GPL-2.0-only
/*
 * The manager: the event loop, signals, STATUS= and the idle exit, the
 * state directory and what the service manager kept across a restart;
 * it makes the objects it owns (manager.h) and sets their callbacks,
 * handing each event on to the object that acts on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "cleanup.h"
#include "controller.h"
#include "listener.h"
#include "log.h"
#include "manager.h"
#include "kernel_sysmem.h"
#include "provider.h"
#include "snapshot.h"
#include "state_trust.h"
#include "trigger.h"
#include "trace.h"
#include "unwind_cache.h"

static void manager_update_status(struct manager *m);
/* After a connection came or went: arms or disarms the idle exit. */
static void manager_check_idle(struct manager *m);
static void manager_trace_finished(struct manager *m);
static void manager_maybe_exit(struct manager *m);

/* A provider connected: it joins the running trace (not a stopping one). */
static int provider_connected(struct manager *m, struct provider *p)
{
	if (trace_state(m) != FXT_CTL_STATE_TRACING || p->in_trace)
		return 0;
	return trace_join(m, p);
}

static void provider_started(struct manager *m, struct provider *p)
{
	controllers_provider_joined(m);
}

static const struct provider_events provider_events = {
	.connected = provider_connected,
	.resume = trace_resume_provider,
	.started = provider_started,
	.stopped = trace_provider_stopped,
	.save = trace_save,
	.trigger = triggers_fire,
	.changed = manager_update_status,
};

static const struct listener_events listener_events = {
	.gone = manager_check_idle,
};

static const struct controller_events controller_events = {
	.gone = manager_check_idle,
	.flushed = manager_maybe_exit,
};

static const struct trace_events trace_events = {
	.changed = manager_update_status,
	.stopping = triggers_disarm,
	.finished = manager_trace_finished,
	.save_state = triggers_save_state,
	.resumed = triggers_rearm,
};

int manager_new(struct manager **ret)
{
	struct manager *m;
	int r;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->listener_events = &listener_events;
	m->provider_events = &provider_events;
	m->controller_events = &controller_events;
	m->trace_events = &trace_events;
	m->listen_fd = -1;
	m->state_dir_fd = -1;
	m->stored_archive_fd = -1;
	m->stored_snapshot_dir_fd = -1;
	m->default_buffer_size = PROVIDER_BUFFER_DEFAULT_SIZE;
	m->stop_timeout_usec = MANAGER_STOP_TIMEOUT_USEC;
	m->idle_exit_usec = MANAGER_IDLE_EXIT_USEC;
	m->mem_interval_ns = KERNEL_SYSMEM_INTERVAL_NS;
	m->last_handed = true;	/* no archive waits for its owner */
	m->bad_connections = (struct log_burst){
		.what = "connections that did not speak the protocol, dropped",
		.interval_usec = MANAGER_LOG_BURST_USEC,
	};
	m->silent_connections = (struct log_burst){
		.what = "connections closed that sent no first message in time",
		.interval_usec = MANAGER_LOG_BURST_USEC,
	};
	m->refused_controllers = (struct log_burst){
		.what = "controllers refused (not root, not in group '" FXT_CTL_GROUP "')",
		.interval_usec = MANAGER_LOG_BURST_USEC,
	};
	m->user_buffer_budget = MANAGER_USER_BUFFER_BUDGET;
	m->over_budget = (struct log_burst){
		.what = "providers left without a buffer (their uid's budget, fxtraced --user-buffer-budget)",
		.interval_usec = MANAGER_LOG_BURST_USEC,
	};
	m->provider_lines = (struct log_burst){
		.what = "provider connections and disconnections of users other than root",
		.interval_usec = MANAGER_LOG_BURST_USEC,
		.burst = MANAGER_PROVIDER_LOG_BURST,
	};
	m->bad_requests = (struct log_burst){
		.what = "malformed controller requests, answered and closed",
		.interval_usec = MANAGER_LOG_BURST_USEC,
	};
	r = sd_event_default(&m->event);
	if (r < 0) {
		free(m);
		return r;
	}
	/* Without it each trace compiles its files' rows itself. */
	(void)unwind_cache_new(UNWIND_CACHE_BYTES, &m->unwind_cache);
	*ret = m;
	return 0;
}

struct manager *manager_free(struct manager *m)
{
	if (!m)
		return NULL;
	triggers_disarm(m);
	snapshot_free_all(m);
	while (m->controllers)
		controller_free(m->controllers);
	while (m->providers)
		provider_free(m->providers);
	listener_close(m);
	sd_event_source_disable_unref(m->sigterm);
	sd_event_source_disable_unref(m->sigint);
	sd_event_source_disable_unref(m->status_timer);
	sd_event_source_disable_unref(m->idle_timer);
	log_burst_done(&m->bad_connections);
	log_burst_done(&m->silent_connections);
	log_burst_done(&m->refused_controllers);
	log_burst_done(&m->bad_requests);
	log_burst_done(&m->over_budget);
	log_burst_done(&m->provider_lines);
	sd_event_unref(m->event);
	if (m->stored_archive_fd >= 0)
		close(m->stored_archive_fd);
	if (m->stored_snapshot_dir_fd >= 0)
		close(m->stored_snapshot_dir_fd);
	while (m->nstored_kernel--)
		if (m->stored_kernel[m->nstored_kernel].fd >= 0)
			close(m->stored_kernel[m->nstored_kernel].fd);
	if (m->state_dir_fd >= 0)
		close(m->state_dir_fd);
	/* A trace left running for the next manager may still read it. */
	if (!m->trace)
		unwind_cache_free(m->unwind_cache);
	free(m->state_dir);
	free(m);
	return NULL;
}

static unsigned int connected_providers(const struct manager *m)
{
	const struct provider *p;
	unsigned int n = 0;

	for (p = m->providers; p; p = p->next)
		n += p->fd >= 0;
	return n;
}

static void manager_update_status(struct manager *m)
{
	char status[FXT_CTL_PATH_MAX + 256];
	unsigned int n = connected_providers(m);

	if (m->trace)
		trace_format_status(m, n, status, sizeof(status));
	else if (m->last_output[0])
		snprintf(status, sizeof(status),
			 "Idle, %u provider(s) connected; last trace written to %s",
			 n, m->last_output);
	else
		snprintf(status, sizeof(status), "Idle, %u provider(s) connected",
			 n);
	(void)sd_notifyf(0, "STATUS=%s", status);
	(void)sd_event_source_set_enabled(m->status_timer, m->trace ?
					  SD_EVENT_ON : SD_EVENT_OFF);
	manager_check_idle(m);
}

static int on_status_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	manager_update_status(m);
	return sd_event_source_set_time_relative(s, MANAGER_STATUS_USEC);
}

/*
 * Idle: nothing would be lost by exiting (no archive waits for its
 * owner's stop to be put in place), and the service manager keeps
 * the socket (with what waits in its backlog) and starts us again. A
 * socket we bound ourselves would go with us: then never.
 */
static bool idle(const struct manager *m)
{
	return m->activated && m->idle_exit_usec && !m->trace && !m->exiting &&
	       !m->providers && !m->controllers && !m->pending &&
	       m->last_handed;
}

static void manager_check_idle(struct manager *m)
{
	if (!m->idle_timer)
		return;
	if (!idle(m)) {
		(void)sd_event_source_set_enabled(m->idle_timer, SD_EVENT_OFF);
		return;
	}
	if (sd_event_source_set_time_relative(m->idle_timer,
					      m->idle_exit_usec) >= 0)
		(void)sd_event_source_set_enabled(m->idle_timer,
						  SD_EVENT_ONESHOT);
}

static int on_idle_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	if (!idle(m))
		return 0;
	log_info("Idle for %llu s: exiting; the socket starts fxtraced again",
		 (unsigned long long)(m->idle_exit_usec / 1000000u));
	(void)sd_notify(0, "STOPPING=1\nSTATUS=Idle: exiting until the next connection");
	return sd_event_exit(m->event, 0);
}

static int add_timers(struct manager *m)
{
	int r;

	r = sd_event_add_time_relative(m->event, &m->status_timer,
				       CLOCK_MONOTONIC, MANAGER_STATUS_USEC, 0,
				       on_status_timer, m);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(m->status_timer, "fxt-status");
	(void)sd_event_source_set_enabled(m->status_timer, SD_EVENT_OFF);
	if (!m->activated || !m->idle_exit_usec)
		return 0;
	r = sd_event_add_time_relative(m->event, &m->idle_timer,
				       CLOCK_MONOTONIC, m->idle_exit_usec, 0,
				       on_idle_timer, m);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(m->idle_timer, "fxt-idle-exit");
	return 0;
}

/*
 * Exiting waits for the trace to be written and for its stop result to
 * reach the controller that asked (it may be queued: many providers).
 */
static void manager_maybe_exit(struct manager *m)
{
	const struct controller *c;

	if (!m->exiting || m->trace)
		return;
	for (c = m->controllers; c; c = c->next)
		if (c->out_head)
			return;
	(void)sd_event_exit(m->event, 0);
}

/* Called when a trace's archive is written. */
static void manager_trace_finished(struct manager *m)
{
	manager_update_status(m);
	manager_maybe_exit(m);
}

static int on_exit_signal(sd_event_source *s, const struct signalfd_siginfo *si,
			  void *userdata)
{
	struct manager *m = userdata;

	if (m->exiting)
		return 0;
	m->exiting = true;
	(void)sd_notify(0, "STOPPING=1\nSTATUS=Shutting down");
	if (trace_state(m) == FXT_CTL_STATE_IDLE) {
		(void)sd_event_exit(m->event, 0);
		return 0;
	}
	log_info("Signal %u: finishing the running trace before exiting",
		 si->ssi_signo);
	(void)trace_stop(m, NULL, NULL, 0);
	return 0;
}

static int add_signals(struct manager *m)
{
	int r;

	r = sd_event_add_signal(m->event, &m->sigterm,
				SIGTERM | SD_EVENT_SIGNAL_PROCMASK,
				on_exit_signal, m);
	if (r < 0)
		return r;
	return sd_event_add_signal(m->event, &m->sigint,
				   SIGINT | SD_EVENT_SIGNAL_PROCMASK,
				   on_exit_signal, m);
}

/*
 * Where the running trace's state is kept for a restart: --state-dir,
 * else systemd's RuntimeDirectory=, else the socket's directory. Only a
 * directory no other uid can write: a state planted there would name a
 * file for us to cut and write. Refused (a symbolic link, another
 * owner, writable by others as /tmp is): no state, logged.
 */
static int set_state_dir(struct manager *m, const char *state_dir)
{
	const char *runtime = getenv("RUNTIME_DIRECTORY");
	_cleanup_free_ char *copy = NULL;
	char why[STATE_TRUST_WHY_MAX];
	int fd;

	if (!state_dir && runtime && *runtime) {
		copy = strndup(runtime, strcspn(runtime, ":"));
		state_dir = copy;
	} else if (!state_dir) {
		copy = strdup(m->socket_path ? m->socket_path :
						 FXT_MANAGER_SOCKET);
		state_dir = copy ? dirname(copy) : NULL;
	}
	if (!state_dir)
		return -ENOMEM;
	if (mkdir(state_dir, 0700) < 0 && errno != EEXIST) {
		log_warning_errno(-errno, "Failed to create %s: a restart of fxtraced would not resume a trace",
				  state_dir);
		return 0;
	}
	fd = state_dir_open(state_dir, why, sizeof(why));
	if (fd < 0) {
		log_warning("Not keeping the running trace's state in %s: %s; a restart of fxtraced would not resume a trace (give --state-dir a directory only uid %u can write)",
			    state_dir, why, (unsigned int)geteuid());
		return 0;
	}
	m->state_dir = strdup(state_dir);
	if (!m->state_dir) {
		close(fd);
		return -ENOMEM;
	}
	m->state_dir_fd = fd;
	return 0;
}

static void take_stored(int *slot, int fd)
{
	if (*slot >= 0)
		close(*slot);
	*slot = fd;
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void take_stored_kernel(struct manager *m, int fd, const char *name)
{
	struct manager_stored_fd *s;

	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (m->nstored_kernel == MANAGER_STORED_KERNEL_MAX ||
	    strlen(name) >= sizeof(s->name)) {
		log_warning("Closing %s from the descriptor store: more than fxtraced keeps",
			    name);
		close(fd);
		return;
	}
	s = &m->stored_kernel[m->nstored_kernel++];
	s->fd = fd;
	snprintf(s->name, sizeof(s->name), "%s", name);
}

/* What systemd kept for us across a restart: the trace's archive, its kernel capture. */
static void take_stored_fds(struct manager *m)
{
	_cleanup_strv_free_ char **names = NULL;
	int n = sd_listen_fds_with_names(1, &names), i;

	for (i = 0; i < n && names; i++) {
		int fd = SD_LISTEN_FDS_START + i;

		if (!names[i] || fd == m->listen_fd)
			continue;
		if (!strcmp(names[i], MANAGER_FDSTORE_ARCHIVE))
			take_stored(&m->stored_archive_fd, fd);
		else if (!strcmp(names[i], MANAGER_FDSTORE_SNAPSHOT_DIR))
			take_stored(&m->stored_snapshot_dir_fd, fd);
		else if (!strncmp(names[i], MANAGER_FDSTORE_KERNEL,
				  strlen(MANAGER_FDSTORE_KERNEL)))
			take_stored_kernel(m, fd, names[i]);
	}
}

int manager_start(struct manager *m, const char *socket_path,
		  const char *state_dir)
{
	int r;

	/* A controller vanishing mid-reply must not kill us. */
	(void)signal(SIGPIPE, SIG_IGN);
	r = add_signals(m);
	if (r < 0)
		return log_error_errno(r, "Failed to set up signal handling");
	r = listener_open(m, socket_path);
	if (r < 0)
		return r;
	take_stored_fds(m);
	r = add_timers(m);
	if (r < 0)
		return log_error_errno(r, "Failed to set up the timers");
	r = set_state_dir(m, state_dir);
	if (r < 0)
		return log_error_errno(r, "Failed to set up the state directory");
	(void)trace_recover(m);
	/* Keep-alives from the loop itself, if the service manager wants them. */
	r = sd_event_set_watchdog(m->event, true);
	if (r < 0)
		return log_error_errno(r, "Failed to set up the watchdog");
	return 0;
}

int manager_run(struct manager *m)
{
	int r;

	log_info("Listening on %s", m->socket_path ? m->socket_path :
			"the socket from the service manager");
	if (m->idle_timer)
		log_info("Exiting after %llu s without trace or connection",
			 (unsigned long long)(m->idle_exit_usec / 1000000u));
	(void)sd_notify(0, "READY=1");
	manager_update_status(m);
	r = sd_event_loop(m->event);
	if (r < 0)
		return log_error_errno(r, "Event loop failed");
	return 0;
}
