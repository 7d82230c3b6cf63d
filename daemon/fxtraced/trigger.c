// SPDX-License-Identifier: GPL-2.0-only
/*
 * Provider triggers. The directory is the controller's, opened with its
 * rights; a snapshot is written to an unnamed file in it (O_TMPFILE) and
 * linked under its name only once it is complete, so the directory never
 * holds a partial snapshot. The rate limit counts per name in windows of
 * one second from the first snapshot of the window; what goes over it is
 * counted as suppressed, not logged line by line (a provider may fire in
 * a loop). The directory must be the controller's (snapshot_dir.h),
 * checked here again whatever tracectl did.
 *
 * The snapshots kept count against the trace's snapshot budget
 * (snapshot_budget.h): room is made, removing the oldest, just before a
 * finished snapshot is linked. A set disarmed while a snapshot of it is
 * being written lives on until that one is linked, within its budget.
 *
 * The wakeup-latency trigger is computed by the kernel side: it counts
 * the threads that waited too long in each CPU's ring control page, and
 * this polls the sum while the trigger is armed (LATENCY_POLL_USEC), so
 * that no event of the kernel costs the manager anything. The violations
 * that a poll finds are one firing each, of which at most one snapshot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "kernel_source.h"
#include <fxt/fxt_msg.h>
#include "log.h"
#include "manager_state.h"
#include "provider.h"
#include "snapshot.h"
#include "snapshot_budget.h"
#include "snapshot_dir.h"
#include "state_trust.h"
#include "trace.h"
#include "trace_state.h"
#include "trigger.h"

#define USEC_PER_SEC 1000000ull
/* Same name, same millisecond (a limit over 1): -1, -2, ... appended. */
#define TRIGGER_LINK_TRIES 16
/* A wakeup latency over the threshold is seen at most this late. */
#define LATENCY_POLL_USEC 50000ull

struct trigger_pending;

struct trigger_armed {
	char name[FXT_TRIGGER_NAME_MAX];
	uint64_t fired, snapshots, suppressed;
	uint64_t window_start_usec;	/* CLOCK_MONOTONIC */
	unsigned int in_window;
};

struct triggers {
	struct manager *manager;
	int dir_fd;
	char dir[FXT_CTL_PATH_MAX];
	uid_t owner;
	uint64_t delay_usec;
	unsigned int limit;
	unsigned int count;
	struct trigger_armed armed[FXT_CTL_TRIGGERS_MAX];
	/* latency_ns 0: not armed. */
	struct trigger_armed latency;
	uint64_t latency_ns;
	uint64_t latency_seen;	/* kernel count at the last poll */
	sd_event_source *latency_timer;
	struct fxt_ctl_trigger history[TRIGGER_HISTORY];	/* a ring */
	unsigned int nhistory, next_history;
	struct trigger_pending *pending;
	/* No longer m->triggers: freed once its last snapshot is written. */
	bool disarmed;
	struct snapshot_budget budget;
};

/* A trigger waiting for its delay, or its snapshot being written. */
struct trigger_pending {
	struct trigger_pending *next;
	struct triggers *set;
	struct trigger_armed *trigger;
	char name[FXT_TRIGGER_NAME_MAX];
	sd_event_source *timer;
	int file_fd;		/* the unnamed snapshot, to link it */
	int dir_fd;
	char provider[FXT_PROVIDER_NAME_MAX];
	pid_t pid;
};

/* The running trace's kernel capture, if any. */
static struct kernel_source *kernel_of(const struct manager *m)
{
	return m->trace ? trace_kernel(m) : NULL;
}

static void set_free(struct triggers *set)
{
	if (set->dir_fd >= 0)
		close(set->dir_fd);
	free(set);
}

static void pending_free(struct trigger_pending *tp)
{
	struct triggers *set = tp->set;
	struct trigger_pending **pp;

	for (pp = &set->pending; *pp; pp = &(*pp)->next)
		if (*pp == tp) {
			*pp = tp->next;
			break;
		}
	sd_event_source_disable_unref(tp->timer);
	if (tp->file_fd >= 0)
		close(tp->file_fd);
	if (tp->dir_fd >= 0)
		close(tp->dir_fd);
	free(tp);
	if (set->disarmed && !set->pending)
		set_free(set);
}

static struct triggers *triggers_free(struct triggers *set)
{
	struct trigger_pending *tp, *next;

	if (!set)
		return NULL;
	sd_event_source_disable_unref(set->latency_timer);
	set->latency_timer = NULL;
	if (set->latency_ns) {
		struct kernel_source *k = kernel_of(set->manager);

		if (k)
			(void)kernel_source_arm_latency(k, 0);
	}
	for (tp = set->pending; tp; tp = next) {
		next = tp->next;
		if (tp->file_fd < 0)
			pending_free(tp);
	}
	/* A snapshot being written finishes, then frees set. */
	if (set->pending)
		set->disarmed = true;
	else
		set_free(set);
	return NULL;
}

void triggers_disarm(struct manager *m)
{
	m->triggers = triggers_free(m->triggers);
}

static int arm_latency(struct manager *m, uint64_t threshold_ns, char *note,
		       size_t note_len);
static int watch_latency(struct triggers *set, uint64_t threshold_ns,
			 char *note, size_t note_len);

/*
 * The directory that came with the request: a directory (not O_PATH),
 * owner's (snapshot_dir.h). 0, or -errno with the reason in note.
 */
static int check_dir(int fd, uid_t owner, const char *dir, char *note,
		     size_t note_len)
{
	int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
	char why[300];
	struct stat st;
	int r;

	if (flags < 0 || (flags & O_PATH) || fstat(fd, &st) < 0 ||
	    !S_ISDIR(st.st_mode)) {
		snprintf(note, note_len,
			 "no usable snapshot directory came with the request: tracectl opens it (O_DIRECTORY | O_RDONLY) and passes it");
		return -EBADF;
	}
	r = snapshot_dir_check(&st, owner, why, sizeof(why));
	if (r < 0)
		snprintf(note, note_len, "--snapshot-dir %.200s %s", dir, why);
	return r;
}

/* The request, with its directory; 0, or -errno with the reason in note. */
static int check_request(const struct manager *m,
			 const struct fxt_ctl_triggers *req, int dir_fd,
			 uid_t owner, char *note, size_t note_len)
{
	unsigned int i;

	if (trace_state(m) != FXT_CTL_STATE_TRACING ||
	    trace_mode(m) != FXT_BUFFERING_CIRCULAR) {
		snprintf(note, note_len,
			 "triggers need a running circular trace: tracectl start --mode circular --trigger NAME --snapshot-dir DIR");
		return trace_state(m) == FXT_CTL_STATE_TRACING ? -EINVAL :
								  -ESRCH;
	}
	if ((!req->count && !req->latency_ns) ||
	    req->count > FXT_CTL_TRIGGERS_MAX ||
	    req->dir[0] != '/' || !memchr(req->dir, '\0', sizeof(req->dir))) {
		snprintf(note, note_len,
			 "give 1 to %u trigger names (or a latency) and an absolute directory",
			 FXT_CTL_TRIGGERS_MAX);
		return -EINVAL;
	}
	for (i = 0; i < req->count; i++)
		if (!memchr(req->names[i], '\0', FXT_TRIGGER_NAME_MAX) ||
		    !fxt_ctl_trigger_name_valid(req->names[i])) {
			snprintf(note, note_len,
				 "a trigger name is 1 to %u of A-Z a-z 0-9 _ . - (not starting with '.')",
				 FXT_TRIGGER_NAME_MAX - 1);
			return -EINVAL;
		}
	if (req->snapshot_max_files > FXT_CTL_SNAPSHOT_FILES_MAX) {
		snprintf(note, note_len,
			 "at most %u snapshot files may be kept (--snapshot-max-files)",
			 FXT_CTL_SNAPSHOT_FILES_MAX);
		return -EINVAL;
	}
	return check_dir(dir_fd, owner, req->dir, note, note_len);
}

int triggers_arm(struct manager *m, const struct fxt_ctl_triggers *req,
		 int dir_fd, uid_t owner, char *note, size_t note_len)
{
	_cleanup_close_ int fd = dir_fd;
	struct triggers *set;
	unsigned int i;
	int r;

	note[0] = '\0';
	r = check_request(m, req, fd, owner, note, note_len);
	if (r < 0)
		return r;
	/* Before anything changes: a refusal leaves the armed ones be. */
	if (req->latency_ns) {
		r = arm_latency(m, req->latency_ns, note, note_len);
		if (r < 0)
			return r;
	}
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	set->manager = m;
	set->dir_fd = TAKE_FD(fd);
	snprintf(set->dir, sizeof(set->dir), "%s", req->dir);
	set->owner = owner;
	set->delay_usec = req->delay_ns / 1000;
	set->limit = req->limit ? req->limit : 1;
	set->count = req->count;
	for (i = 0; i < req->count; i++)
		snprintf(set->armed[i].name, sizeof(set->armed[i].name), "%s",
			 req->names[i]);
	snapshot_budget_init(&set->budget, set->dir_fd,
			     req->snapshot_max_bytes, req->snapshot_max_files);
	/* The kernel's threshold is the new set's now. */
	if (m->triggers && req->latency_ns)
		m->triggers->latency_ns = 0;
	triggers_disarm(m);
	m->triggers = set;
	if (req->latency_ns) {
		r = watch_latency(set, req->latency_ns, note, note_len);
		if (r < 0) {
			triggers_disarm(m);
			return r;
		}
		log_info("Armed the latency trigger: a wakeup that waits over %llu us for a CPU",
			 (unsigned long long)(req->latency_ns / 1000));
	}
	trace_keep_triggers(m, set->dir_fd);
	if (set->count)
		log_info("Armed %u trigger(s) (first: %s), snapshots to %s, delay %llu ms, at most %u per second each",
			 set->count, set->armed[0].name, set->dir,
			 (unsigned long long)(set->delay_usec / 1000),
			 set->limit);
	log_info("Snapshots in %s kept within %llu bytes and %u files, the oldest removed to make room",
		 set->dir, (unsigned long long)set->budget.max_bytes,
		 set->budget.max_files);
	return 0;
}

/*
 * The armed triggers as the request that would arm them again (a
 * restart), their owner and directory; false when none are armed.
 */
static bool triggers_request(const struct manager *m,
			     struct fxt_ctl_triggers *req, uid_t *owner,
			     int *dir_fd)
{
	const struct triggers *set = m->triggers;
	unsigned int i;

	if (!set)
		return false;
	fxt_msg_init(req, FXT_MSG_CTL_TRIGGERS, sizeof(*req));
	req->count = set->count;
	req->limit = set->limit;
	req->delay_ns = set->delay_usec * 1000;
	snprintf(req->dir, sizeof(req->dir), "%s", set->dir);
	for (i = 0; i < set->count; i++)
		snprintf(req->names[i], sizeof(req->names[i]), "%s",
			 set->armed[i].name);
	req->latency_ns = set->latency_ns;
	req->snapshot_max_bytes = set->budget.max_bytes;
	req->snapshot_max_files = set->budget.max_files;
	*owner = set->owner;
	*dir_fd = set->dir_fd;
	return true;
}

/*
 * The snapshots the armed triggers keep (snapshot_budget.h), at most max
 * of them, into kept, for the state file; their number.
 */
static size_t triggers_kept(const struct manager *m,
			    struct snapshot_kept *kept, size_t max)
{
	const struct triggers *set = m->triggers;
	size_t n;

	if (!set)
		return 0;
	n = set->budget.nkept < max ? set->budget.nkept : max;
	memcpy(kept, set->budget.kept, n * sizeof(*kept));
	return n;
}

void triggers_save_state(const struct manager *m, struct trace_state *st)
{
	struct stat sb;
	uid_t owner;
	int dir_fd;

	if (triggers_request(m, &st->triggers, &owner, &dir_fd) &&
	    fstat(dir_fd, &sb) == 0) {
		st->triggers_owner = owner;
		st->triggers_dir_dev = sb.st_dev;
		st->triggers_dir_ino = sb.st_ino;
		st->nsnapshots = (uint32_t)triggers_kept(
			m, st->snapshots, FXT_CTL_SNAPSHOT_FILES_MAX);
	}
}

/* Whether file is a snapshot name of one of set's triggers. */
static bool snapshot_of(const struct triggers *set, const char *file)
{
	size_t len = strlen(file), i;

	if (len < 4 || strcmp(file + len - 4, ".fxt"))
		return false;
	for (i = 0; i <= set->count; i++) {
		const char *name = i < set->count ? set->armed[i].name :
						    FXT_CTL_TRIGGER_LATENCY;
		size_t n = strlen(name);

		if (!strncmp(file, name, n) && file[n] == '-')
			return true;
	}
	return false;
}

/*
 * After a restart, once armed again: the snapshots kept before it count
 * in the budget again, those that still are the files written (named
 * for an armed trigger).
 */
static void triggers_keep_again(struct manager *m,
				const struct snapshot_kept *kept, size_t n)
{
	struct triggers *set = m->triggers;
	size_t i;

	if (!set)
		return;
	for (i = 0; i < n; i++)
		if (memchr(kept[i].name, '\0', sizeof(kept[i].name)) &&
		    snapshot_of(set, kept[i].name))
			snapshot_budget_restore(&set->budget, set->dir_fd,
						&kept[i], set->owner);
	if (n)
		log_info("%u of the %zu snapshots in %s kept before the restart still count in the budget: %llu bytes",
			 set->budget.nkept, n, set->dir,
			 (unsigned long long)set->budget.kept_bytes);
}

/*
 * The triggers armed before the restart, armed again: their directory
 * from the descriptor store, else by its name; either only while it is
 * the one they were armed with, still of their owner (state_trust.h).
 */
void triggers_rearm(struct manager *m, const struct trace_state *st)
{
	struct log_fields fields;
	_cleanup_close_ int fd = TAKE_FD(m->stored_snapshot_dir_fd);
	char note[FXT_CTL_MESSAGE_MAX] = "", why[STATE_TRUST_WHY_MAX];
	int r;

	if (!st->triggers.count && !st->triggers.latency_ns)
		return;
	trace_log_fields(m, &fields);
	if (fd < 0)
		fd = open(st->triggers.dir,
			  O_DIRECTORY | O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	r = fd < 0 ? -errno : state_triggers_dir_check(fd, st, why, sizeof(why));
	if (fd < 0)
		snprintf(why, sizeof(why), "cannot be opened: %s", strerror(-r));
	if (r < 0) {
		log_full(LOG_ERR, -r, &fields,
			 "Trace %s: its triggers are not armed again: their snapshot directory %s %s (arm them again: tracectl start --trigger)",
			 fields.trace_id, st->triggers.dir, why);
		return;
	}
	r = triggers_arm(m, &st->triggers, fcntl(fd, F_DUPFD_CLOEXEC, 3),
			 st->triggers_owner, note, sizeof(note));
	if (r < 0 && st->triggers.latency_ns && st->triggers.count) {
		/* A capture taken back may not reach its threshold: the rest. */
		struct fxt_ctl_triggers names = st->triggers;

		log_full(LOG_ERR, -r, &fields,
			 "Trace %s: its latency trigger is not armed again: %s",
			 fields.trace_id, note);
		names.latency_ns = 0;
		r = triggers_arm(m, &names, TAKE_FD(fd), st->triggers_owner,
				 note, sizeof(note));
	}
	if (r < 0)
		log_full(LOG_ERR, -r, &fields,
			 "Trace %s: its triggers are not armed again: %s",
			 fields.trace_id, note);
	else
		log_full(LOG_NOTICE, 0, &fields,
			 "Trace %s: its %u trigger(s) armed again after the restart",
			 fields.trace_id, st->triggers.count);
	if (r >= 0)
		triggers_keep_again(m, st->snapshots,
				    st->nsnapshots < FXT_CTL_SNAPSHOT_FILES_MAX ?
					    st->nsnapshots :
					    FXT_CTL_SNAPSHOT_FILES_MAX);
}

static struct trigger_armed *find(struct triggers *set, const char *name)
{
	unsigned int i;

	for (i = 0; i < set->count; i++)
		if (!strcmp(set->armed[i].name, name))
			return &set->armed[i];
	return NULL;
}

static void remember(struct triggers *set, const char *name,
		     const char *file, uint64_t time_ns, uint64_t bytes,
		     int error)
{
	struct fxt_ctl_trigger *h = &set->history[set->next_history];

	fxt_msg_init(h, FXT_MSG_CTL_TRIGGER, sizeof(*h));
	h->flags = FXT_CTL_TRIGGER_SNAPSHOT;
	h->error = error;
	h->time_ns = time_ns;
	h->bytes = bytes;
	snprintf(h->name, sizeof(h->name), "%s", name);
	snprintf(h->file, sizeof(h->file), "%s", file);
	set->next_history = (set->next_history + 1) % TRIGGER_HISTORY;
	if (set->nhistory < TRIGGER_HISTORY)
		set->nhistory++;
}

/*
 * NAME-YYYYmmddTHHMMSS.mmmZ.fxt, -N before .fxt for the tries after the
 * first; false when it does not fit in len.
 */
static bool file_name(char *buf, size_t len, const char *name,
		      const struct timespec *now, unsigned int try)
{
	struct tm tm;
	char when[32] = "";
	char suffix[16] = "";

	if (gmtime_r(&now->tv_sec, &tm))
		strftime(when, sizeof(when), "%Y%m%dT%H%M%S", &tm);
	if (try)
		snprintf(suffix, sizeof(suffix), "-%u", try);
	return (size_t)snprintf(buf, len, "%s-%s.%03ldZ%s.fxt", name, when,
				now->tv_nsec / 1000000, suffix) < len;
}

/*
 * Links the finished snapshot under a name of its own: linkat() neither
 * follows nor replaces what is at the name (O_EXCL | O_NOFOLLOW's
 * meaning), relative to the directory's descriptor.
 */
static int link_snapshot(struct trigger_pending *tp, char *file, size_t len)
{
	char proc[64];
	struct timespec now;
	unsigned int try;

	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", tp->file_fd);
	for (try = 0; try < TRIGGER_LINK_TRIES; try++) {
		if (!file_name(file, len, tp->name, &now, try))
			return -ENAMETOOLONG;
		if (linkat(AT_FDCWD, proc, tp->dir_fd, file,
			   AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Within the budget (room made first), the snapshot is linked and kept. */
static int keep_snapshot(struct trigger_pending *tp, uint64_t bytes,
			 char *file, size_t len)
{
	struct triggers *set = tp->set;
	struct stat st;
	int r;

	r = snapshot_budget_make_room(&set->budget, tp->dir_fd, set->dir,
				      bytes);
	if (r >= 0)
		r = link_snapshot(tp, file, len);
	if (r >= 0 && fstat(tp->file_fd, &st) == 0)
		snapshot_budget_add(&set->budget, &st, file, bytes);
	/* What is kept survives a restart of the manager. */
	if (!set->disarmed)
		trace_save_state(set->manager);
	return r;
}

static void on_written(void *userdata, int error, uint64_t bytes)
{
	struct trigger_pending *tp = userdata;
	struct triggers *set = tp->set;
	struct timespec now;
	char file[SNAPSHOT_FILE_NAME_MAX] = "";

	clock_gettime(CLOCK_REALTIME, &now);
	if (!error)
		error = keep_snapshot(tp, bytes, file, sizeof(file));
	if (error == -EFBIG)
		log_warning("Trigger %s of %s[%d]: the snapshot of %llu bytes is larger than the snapshot budget of %llu bytes by itself: not kept (tracectl start --snapshot-max-bytes)",
			    tp->name, tp->provider, (int)tp->pid,
			    (unsigned long long)bytes,
			    (unsigned long long)set->budget.max_bytes);
	else if (error)
		log_error_errno(error, "Trigger %s of %s[%d]: the snapshot in %s failed",
				tp->name, tp->provider, (int)tp->pid, set->dir);
	else
		log_info("Trigger %s of %s[%d]: snapshot %s/%s, %llu bytes",
			 tp->name, tp->provider, (int)tp->pid, set->dir, file,
			 (unsigned long long)bytes);
	remember(set, tp->name, file,
		 (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec,
		 error ? 0 : bytes, error);
	pending_free(tp);
}

static void take(struct trigger_pending *tp)
{
	struct triggers *set = tp->set;
	struct manager *m = set->manager;
	char note[FXT_CTL_MESSAGE_MAX], label[FXT_CTL_MESSAGE_MAX];
	int fd, r;

	tp->timer = sd_event_source_disable_unref(tp->timer);
	fd = openat(set->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0640);
	if (fd < 0) {
		r = -errno;
		snprintf(note, sizeof(note), "cannot create a file in %.400s: %s",
			 set->dir, strerror(-r));
		goto fail;
	}
	tp->file_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	tp->dir_fd = fcntl(set->dir_fd, F_DUPFD_CLOEXEC, 3);
	if (tp->file_fd < 0 || tp->dir_fd < 0) {
		r = -errno;
		close(fd);
		snprintf(note, sizeof(note), "%s", strerror(-r));
		goto fail;
	}
	/* The snapshot belongs to whoever armed the trigger (if we may). */
	(void)!fchown(fd, set->owner, (gid_t)-1);
	tp->trigger->snapshots++;
	snprintf(label, sizeof(label), "%.400s (trigger %s)", set->dir,
		 tp->name);
	r = snapshot_write(m, fd, label, set->owner, on_written, tp, note,
			   sizeof(note));
	if (r == 0)
		return;
	tp->trigger->snapshots--;
fail:
	log_error_errno(r, "Trigger %s of %s[%d]: no snapshot: %s", tp->name,
			tp->provider, (int)tp->pid, note);
	remember(set, tp->name, "", 0, 0, r);
	pending_free(tp);
}

static int on_delay(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct trigger_pending *tp = userdata;

	(void)s;
	(void)usec;
	take(tp);
	return 0;
}

/* Within its limit, the trigger counts one more snapshot of its window. */
static bool within_limit(struct triggers *set, struct trigger_armed *t,
			 uint64_t now_usec)
{
	if (!t->in_window ||
	    now_usec - t->window_start_usec >= USEC_PER_SEC) {
		t->window_start_usec = now_usec;
		t->in_window = 0;
	}
	if (t->in_window >= set->limit)
		return false;
	t->in_window++;
	return true;
}

/* times firings of t by source (pid): at most one snapshot. */
static void fire(struct triggers *set, struct trigger_armed *t,
		 uint64_t times, const char *source, pid_t pid)
{
	struct manager *m = set->manager;
	struct trigger_pending *tp;
	uint64_t now;
	int r;

	t->fired += times;
	(void)sd_event_now(m->event, CLOCK_MONOTONIC, &now);
	if (!within_limit(set, t, now)) {
		t->suppressed += times;
		return;
	}
	t->suppressed += times - 1;
	tp = calloc(1, sizeof(*tp));
	if (!tp) {
		log_error_errno(-ENOMEM, "Trigger %s of %s[%d]: no snapshot",
				t->name, source, (int)pid);
		return;
	}
	tp->set = set;
	tp->trigger = t;
	snprintf(tp->name, sizeof(tp->name), "%s", t->name);
	tp->file_fd = tp->dir_fd = -1;
	snprintf(tp->provider, sizeof(tp->provider), "%s", source);
	tp->pid = pid;
	tp->next = set->pending;
	set->pending = tp;
	if (!set->delay_usec) {
		take(tp);
		return;
	}
	r = sd_event_add_time_relative(m->event, &tp->timer, CLOCK_MONOTONIC,
				       set->delay_usec, 0, on_delay, tp);
	if (r < 0) {
		log_error_errno(r, "Trigger %s: cannot wait for the delay; taking the snapshot now",
				t->name);
		take(tp);
	}
}

void triggers_fire(struct manager *m, const struct provider *p,
		   const struct fxt_msg_trigger *msg)
{
	struct triggers *set = m->triggers;
	char name[FXT_TRIGGER_NAME_MAX];
	struct trigger_armed *t;

	memcpy(name, msg->name, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	t = set ? find(set, name) : NULL;
	if (!t)
		return;		/* not armed: nothing asked for it */
	fire(set, t, 1, p->name, p->pid);
}

static int on_latency_poll(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct triggers *set = userdata;
	struct kernel_source *k = kernel_of(set->manager);
	uint64_t count;

	(void)usec;
	if (!k)
		return 0;
	count = kernel_source_latency_exceeded(k);
	if (count != set->latency_seen) {
		fire(set, &set->latency, count - set->latency_seen, "kernel",
		     0);
		set->latency_seen = count;
	}
	(void)sd_event_source_set_time_relative(s, LATENCY_POLL_USEC);
	return sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
}

/* Sets the kernel's threshold; 0, or -errno with the reason in note. */
static int arm_latency(struct manager *m, uint64_t threshold_ns, char *note,
		       size_t note_len)
{
	struct kernel_source *k = kernel_of(m);
	int r;

	if (!k) {
		snprintf(note, note_len,
			 "the latency trigger needs kernel capture with kernel:sched: start with --kernel=bpf or --kernel=kmod");
		return -EOPNOTSUPP;
	}
	r = kernel_source_arm_latency(k, threshold_ns);
	if (r < 0)
		snprintf(note, note_len,
			 "the latency trigger needs the kernel:sched category captured (kernel %s): %s",
			 kernel_source_backend(k), strerror(-r));
	return r;
}

/* The kernel is armed: set polls its count from now on. */
static int watch_latency(struct triggers *set, uint64_t threshold_ns,
			 char *note, size_t note_len)
{
	struct manager *m = set->manager;
	int r;

	set->latency_ns = threshold_ns;
	snprintf(set->latency.name, sizeof(set->latency.name), "%s",
		 FXT_CTL_TRIGGER_LATENCY);
	set->latency_seen = kernel_source_latency_exceeded(kernel_of(m));
	r = sd_event_add_time_relative(m->event, &set->latency_timer,
				       CLOCK_MONOTONIC, LATENCY_POLL_USEC, 0,
				       on_latency_poll, set);
	if (r < 0)
		snprintf(note, note_len, "cannot poll the kernel's count: %s",
			 strerror(-r));
	return r;
}

int triggers_send_status(struct manager *m, reply_fn reply, void *ctx)
{
	struct triggers *set = m->triggers;
	struct fxt_ctl_trigger d;
	unsigned int i;
	int r;

	if (!set)
		return 0;
	for (i = 0; i <= set->count; i++) {
		const struct trigger_armed *t = i < set->count ? &set->armed[i] :
								 &set->latency;

		if (i == set->count && !set->latency_ns)
			break;
		fxt_msg_init(&d, FXT_MSG_CTL_TRIGGER, sizeof(d));
		d.fired = t->fired;
		d.snapshots = t->snapshots;
		d.suppressed = t->suppressed;
		snprintf(d.name, sizeof(d.name), "%s", t->name);
		snprintf(d.file, sizeof(d.file), "%.*s", (int)sizeof(d.file) - 1,
			 set->dir);
		r = reply(ctx, &d, sizeof(d));
		if (r < 0)
			return r;
	}
	snapshot_budget_refresh(&set->budget, set->dir_fd);
	snapshot_budget_describe(&set->budget, &d);
	r = reply(ctx, &d, sizeof(d));
	if (r < 0)
		return r;
	for (i = 0; i < set->nhistory; i++) {
		unsigned int at = (set->next_history + TRIGGER_HISTORY -
				   set->nhistory + i) % TRIGGER_HISTORY;

		r = reply(ctx, &set->history[at], sizeof(set->history[at]));
		if (r < 0)
			return r;
	}
	return 0;
}
