// SPDX-License-Identifier: GPL-2.0-only
/*
 * What keeps the running trace for a restart of the manager: the state
 * file (trace_state.h) and the service manager's descriptor store.
 */
#include <stdio.h>

#include <systemd/sd-daemon.h>

#include "archive.h"
#include "kernel_session.h"
#include "kernel_source.h"
#include "log.h"
#include "manager_state.h"
#include "trace_state.h"
#include "trace_store.h"
#include "trace_types.h"

/*
 * Under systemd the archive waits in the descriptor store while the
 * trace runs (without NOTIFY_SOCKET these do nothing). FDPOLL=0: the
 * store would drop a descriptor that polls as an error, as a BPF array
 * map always does.
 */
static void store_fd(struct trace *t, int fd, const char *name)
{
	char msg[MANAGER_FDNAME_MAX + 32];
	int r;

	if (fd < 0)
		return;
	snprintf(msg, sizeof(msg), "FDSTORE=1\nFDPOLL=0\nFDNAME=%s", name);
	r = sd_pid_notify_with_fds(0, 0, msg, &fd, 1);
	if (r < 0)
		log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
			 "Failed to keep %s in the service manager's descriptor store: a restart of fxtraced would not resume all of trace %s",
			 name, t->id);
}

void trace_store_archive(struct trace *t)
{
	store_fd(t, archive_fd(t->archive), MANAGER_FDSTORE_ARCHIVE);
}

static void kernel_fdname(char *name, size_t len, const char *role,
			  const char *trace_id)
{
	snprintf(name, len, MANAGER_FDSTORE_KERNEL "%s-%s", role, trace_id);
}

void trace_store_kernel(struct trace *t)
{
	struct kernel_kept_fd kept[KERNEL_KEPT_FDS_MAX];
	char name[MANAGER_FDNAME_MAX];
	size_t i, n;

	n = kernel_source_keep_fds(t->kernel, kept, KERNEL_KEPT_FDS_MAX);
	for (i = 0; i < n; i++) {
		kernel_fdname(name, sizeof(name), kept[i].role, t->id);
		store_fd(t, kept[i].fd, name);
	}
}

/* The store closes its copies: a BPF link's closing detaches its program. */
void trace_unstore_kernel(const struct trace *t)
{
	static const char *const roles[] = KERNEL_KEPT_ROLES;
	char msg[MANAGER_FDNAME_MAX + 32];
	size_t i, used;

	for (i = 0; i < sizeof(roles) / sizeof(*roles); i++) {
		used = (size_t)snprintf(msg, sizeof(msg),
					"FDSTOREREMOVE=1\nFDNAME=");
		kernel_fdname(msg + used, sizeof(msg) - used, roles[i], t->id);
		(void)sd_notify(0, msg);
	}
}

void trace_unstore_all(const struct trace *t)
{
	(void)sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=" MANAGER_FDSTORE_ARCHIVE);
	(void)sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=" MANAGER_FDSTORE_SNAPSHOT_DIR);
	trace_unstore_kernel(t);
}

void trace_store_state(struct manager *m, struct trace_state *st)
{
	struct trace *t = m->trace;
	int r;

	r = trace_state_save(m->state_dir_fd, st, t->listed, t->nlisted);
	if (r < 0 && !t->state_error)
		log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
			 "Failed to keep the state of trace %s in %s: a restart of fxtraced would not resume it",
			 t->id, m->state_dir);
	t->state_error = r < 0;
}

void trace_store_triggers_dir(struct trace *t, int dir_fd)
{
	/* One entry of the name: the directory armed last. */
	(void)sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=" MANAGER_FDSTORE_SNAPSHOT_DIR);
	store_fd(t, dir_fd, MANAGER_FDSTORE_SNAPSHOT_DIR);
}
