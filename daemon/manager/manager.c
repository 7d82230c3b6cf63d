// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <systemd/sd-daemon.h>

#include "log.h"
#include "manager.h"

int manager_new(struct manager **ret)
{
	struct manager *m;
	int r;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->listen_fd = -1;
	m->default_buffer_size = PROVIDER_BUFFER_DEFAULT_SIZE;
	m->stop_timeout_usec = MANAGER_STOP_TIMEOUT_USEC;
	r = sd_event_default(&m->event);
	if (r < 0) {
		free(m);
		return r;
	}
	*ret = m;
	return 0;
}

struct manager *manager_free(struct manager *m)
{
	if (!m)
		return NULL;
	while (m->controllers)
		controller_free(m->controllers);
	while (m->providers)
		provider_free(m->providers);
	listener_close(m);
	sd_event_source_disable_unref(m->sigterm);
	sd_event_source_disable_unref(m->sigint);
	sd_event_unref(m->event);
	free(m);
	return NULL;
}

uint32_t manager_next_id(struct manager *m)
{
	return ++m->next_provider_id;
}

void manager_update_status(struct manager *m)
{
	struct provider *p;
	unsigned int n = 0;

	for (p = m->providers; p; p = p->next)
		n += p->fd >= 0;
	switch (trace_state(m)) {
	case FXT_CTL_STATE_IDLE:
		(void)sd_notifyf(0, "STATUS=Idle, %u provider(s) connected", n);
		break;
	case FXT_CTL_STATE_TRACING:
		(void)sd_notifyf(0, "STATUS=Tracing, %u provider(s) connected", n);
		break;
	case FXT_CTL_STATE_STOPPING:
		(void)sd_notify(0, "STATUS=Stopping: writing the archive");
		break;
	}
}

/*
 * Exiting waits for the trace to be written and for its stop result to
 * reach the controller that asked (it may be queued: many providers).
 */
void manager_maybe_exit(struct manager *m)
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
void manager_trace_finished(struct manager *m)
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
	(void)trace_stop(m, NULL);
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

int manager_start(struct manager *m, const char *socket_path)
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
	return 0;
}

int manager_run(struct manager *m)
{
	int r;

	log_info("Listening on %s", m->socket_path ? m->socket_path :
			"the socket from the service manager");
	(void)sd_notify(0, "READY=1");
	manager_update_status(m);
	r = sd_event_loop(m->event);
	if (r < 0)
		return log_error_errno(r, "Event loop failed");
	return 0;
}
