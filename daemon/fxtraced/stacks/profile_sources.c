// SPDX-License-Identifier: GPL-2.0-only
/* process_vm_readv() */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "jit_maps.h"
#include "kernel_clock.h"
#include "ksyms.h"
#include "mmap_tracker.h"
#include "proc_open.h"
#include "proc_stat.h"
#include "profile_sources.h"
#include "py_frames.h"
#include "py_procs.h"
#include "usyms.h"
#include "usyms_inline.h"

/*
 * A kernel PC no symbol holds may be of a module loaded, or a BPF program
 * loaded, since start: kallsyms is read again, once per drain at most and
 * this many times in all (a read costs tens of milliseconds).
 */
#define PROFILE_KSYMS_RELOADS_MAX 16u

struct profile_sources {
	char *kallsyms;
	unsigned int reloads;
	bool may_reload; /* not yet in this drain */
	struct ksyms *ksyms;
	struct mmap_tracker *tracker;
	struct usyms *usyms;
	struct jit_maps *jit; /* NULL: JIT code stays unnamed */
	struct py_procs *py; /* NULL: Python frames stay unnamed */
	char py_name[PY_FRAME_NAME_MAX];
	/* Samples are on this time namespace's clock, the tracker's perf
	 * events on the kernel's: this much apart (kernel_clock.h).
	 */
	int64_t timens_ns;
	struct profile_sources_status st;
};

static void observe_mapping(void *ctx, uint32_t pid, uint64_t start,
			    uint64_t ts);

int profile_sources_new(const char *kallsyms, bool with_user,
			struct profile_sources **ret)
{
	struct profile_sources *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->kallsyms = strdup(kallsyms);
	if (!s->kallsyms)
		goto nomem;
	s->st.ksyms_error = ksyms_load(kallsyms, &s->ksyms);
	if (s->st.ksyms_error == -ENOMEM)
		goto nomem;
	s->st.usyms_error = usyms_new(&s->usyms);
	if (s->st.usyms_error == -ENOMEM)
		goto nomem;
	s->st.tracker_error = with_user ? mmap_tracker_start(&s->tracker) :
					  -ENOENT;
	if (s->st.tracker_error == -ENOMEM)
		goto nomem;
	if (s->tracker)
		mmap_tracker_set_observer(s->tracker, observe_mapping, s);
	if (s->tracker && jit_maps_new("/proc", 0, &s->jit) == -ENOMEM)
		goto nomem;
	if (s->tracker && py_procs_new(&s->py))
		goto nomem;
	if (kernel_clock_read_offset("/proc/self/timens_offsets",
				     &s->timens_ns) < 0)
		s->timens_ns = 0;
	*ret = s;
	return 0;
nomem:
	profile_sources_free(s);
	return -ENOMEM;
}

void profile_sources_follow(struct profile_sources *s)
{
	if (s->tracker)
		(void)mmap_tracker_drain(s->tracker);
}

void profile_sources_refresh(struct profile_sources *s)
{
	s->may_reload = s->ksyms && s->reloads < PROFILE_KSYMS_RELOADS_MAX;
	if (s->tracker)
		(void)mmap_tracker_drain(s->tracker);
}

/* Names already taken are copies (profile_ingest.c): the old table can go. */
static void ksyms_reload(struct profile_sources *s)
{
	struct ksyms *k;

	s->may_reload = false;
	s->reloads++;
	if (!ksyms_load(s->kallsyms, &k)) {
		ksyms_free(s->ksyms);
		s->ksyms = k;
	}
}

static int kernel_lookup(void *ctx, uint64_t pc, const char **name,
			 uint64_t *offset)
{
	struct profile_sources *s = ctx;
	int err;

	if (!s->ksyms)
		return -ENOENT;
	err = ksyms_lookup(s->ksyms, pc, name, offset);
	if (err == -ENOENT && s->may_reload) {
		ksyms_reload(s);
		err = ksyms_lookup(s->ksyms, pc, name, offset);
	}
	return err;
}

static bool in_sched_text(void *ctx, uint64_t pc)
{
	struct profile_sources *s = ctx;

	return s->ksyms && ksyms_in_sched_text(s->ksyms, pc);
}

/* A file that could not be opened as its process's owner, by cause. */
static void count_unopened(struct profile_sources *s, int err)
{
	if (err == -EACCES || err == -EPERM)
		s->st.files_unreadable++;
	else
		s->st.files_unopened++;
	s->st.files_error = err;
}

/* The mount namespace of pid (its inode), or 0. */
static uint64_t mount_ns(uint32_t pid)
{
	char path[64], link[64];
	unsigned long long ino;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/ns/mnt", pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	return sscanf(link, "mnt:[%llu]", &ino) == 1 ? ino : 0;
}

/* The file of m opened for pid's owner: -errno. */
static int open_for(struct profile_sources *s, uint32_t pid,
		    const struct mmap_hit *m, const struct proc_owner *owner)
{
	const struct proc_open_request rq = {
		.proc = "/proc", .pid = pid, .start = m->start,
		.end = m->end, .path = m->path, .owner = owner,
	};
	uint32_t id;
	int fd = proc_open_mapped(&rq);
	int err = fd < 0 ? fd : usyms_add_fd(s->usyms, fd, m->path, &id);

	if (err < 0) {
		count_unopened(s, err);
		return err;
	}
	return (int)id;
}

/*
 * The file of mapping m of pid, opened as the process's owner could
 * (proc_open.h), once for the mapping. The same file (path and build
 * id) for the same owner in the same mount namespace is the same: the
 * last such open is taken again. A process gone leaves its path to be
 * opened with the rights every user has. 0: none.
 */
static uint32_t mapping_file(struct profile_sources *s, uint32_t pid,
			     const struct mmap_hit *m)
{
	struct mmap_open_memo *memo = m->memo;
	struct proc_owner owner;
	uint64_t ns = 0;

	if (*m->opened)
		return *m->opened > 0 ? (uint32_t)*m->opened : 0;
	if (proc_owner_read("/proc", pid, &owner) < 0) {
		proc_owner_anyone(&owner);
		*m->opened = open_for(s, 0, m, &owner);
		return *m->opened > 0 ? (uint32_t)*m->opened : 0;
	}
	ns = m->build_id ? mount_ns(pid) : 0;
	if (ns && memo->mnt_ns == ns && memo->uid == owner.uid) {
		*m->opened = memo->opened;
	} else {
		*m->opened = open_for(s, pid, m, &owner);
		if (ns)
			*memo = (struct mmap_open_memo){ .mnt_ns = ns,
							 .uid = owner.uid,
							 .opened = *m->opened };
	}
	return *m->opened > 0 ? (uint32_t)*m->opened : 0;
}

/* A mapping made while the trace runs: its file opened while its process
 * lives (a sample drained later may find it gone).
 */
static void observe_mapping(void *ctx, uint32_t pid, uint64_t start,
			    uint64_t ts)
{
	struct profile_sources *s = ctx;
	struct mmap_hit m;

	if (s->usyms && !mmap_tracker_find(s->tracker, pid, start, ts, &m))
		(void)mapping_file(s, pid, &m);
}

/* A sample's time on the tracker's clock, saturated. */
static uint64_t tracker_ts(const struct profile_sources *s, uint64_t ts)
{
	if (s->timens_ns > 0)
		return ts > (uint64_t)s->timens_ns ?
			       ts - (uint64_t)s->timens_ns :
			       0;
	if (s->timens_ns < 0)
		return ts + (uint64_t)-s->timens_ns < ts ?
			       UINT64_MAX :
			       ts + (uint64_t)-s->timens_ns;
	return ts;
}

static int user_find(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
		     struct profile_user_hit *hit)
{
	struct profile_sources *s = ctx;
	struct mmap_hit m;
	int err;

	if (!s->tracker || !s->usyms)
		return -ENOENT;
	err = mmap_tracker_find(s->tracker, pid, pc, tracker_ts(s, ts), &m);
	if (err)
		return err;
	hit->file = mapping_file(s, pid, &m);
	if (!hit->file)
		return -EACCES;
	err = usyms_file_offset_to_vaddr(s->usyms, hit->file, m.file_offset,
					 &hit->vaddr);
	if (err)
		return err;
	hit->path = m.path;
	hit->build_id = m.build_id;
	hit->build_id_len = m.build_id ? m.build_id_len : 0;
	return 0;
}

/*
 * Only a pc in no file-backed mapping is the JIT's to name: in none the
 * tracker knows, or in anonymous memory (perf's "//anon", which the
 * tracker keeps so that it replaces a file mapped there before).
 */
static int user_jit(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
		    const char **name)
{
	struct profile_sources *s = ctx;
	struct mmap_hit m;
	int r;

	if (!s->jit)
		return -ENOENT;
	r = mmap_tracker_find(s->tracker, pid, pc, tracker_ts(s, ts), &m);
	if (r != -ENOENT && (r || strncmp(m.path, "//", 2)))
		return -ENOENT;
	return jit_maps_name(s->jit, pid, pc, name);
}

/* The same at the end, for what it left unnamed (jit_maps_name_late()). */
static int user_jit_late(void *ctx, uint32_t pid, uint64_t pc,
			 const char **name)
{
	struct profile_sources *s = ctx;

	return s->jit ? jit_maps_name_late(s->jit, pid, pc, name) : -ENOENT;
}

/* Another process's memory, as py_frames.h reads it. */
static int read_pid(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const uint32_t *pid = ctx;
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };

	return process_vm_readv((pid_t)*pid, &local, 1, &remote, 1, 0) ==
			       (ssize_t)len ?
		       0 :
		       -EFAULT;
}

/*
 * The name of the code object at code in pid, a CPython process the
 * walker read frames of (py_procs.h), from its memory (bounded, escaped:
 * py_frames.h) while it runs that program: valid until the next call;
 * -ENOENT, -ESRCH (gone, or another program), -EFAULT.
 */
static int user_python(void *ctx, uint32_t pid, uint64_t code,
		       const char **name)
{
	static const struct py_frames_ops ops = { .read = read_pid };
	struct profile_sources *s = ctx;
	struct py_frame f;
	struct py_proc p;
	int err;

	if (!s->py || py_procs_get(s->py, pid, &p))
		return -ENOENT;
	/* Not another program's memory (an exec, a pid reused since). */
	if (proc_start_stack("/proc", pid) != p.start_stack)
		return -ESRCH;
	err = py_code_read(&p.layout, code, &ops, &pid, &f);
	if (err)
		return err;
	py_frame_name(&f, s->py_name, sizeof(s->py_name));
	*name = s->py_name;
	return 0;
}

static int user_symbol(void *ctx, uint32_t file, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **name)
{
	struct profile_sources *s = ctx;

	if (!s->usyms)
		return -ENOENT;
	return usyms_lookup(s->usyms, file, build_id_len ? build_id : NULL,
			    build_id_len, vaddr, name);
}

static int user_inline(void *ctx, uint32_t file, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **names,
		       size_t max)
{
	struct profile_sources *s = ctx;

	if (!s->usyms)
		return 0;
	return usyms_inline_chain(s->usyms, file,
				  build_id_len ? build_id : NULL, build_id_len,
				  vaddr, names, max);
}

static int user_return_slot(void *ctx, uint32_t file,
			    const uint8_t *build_id, size_t build_id_len,
			    uint64_t vaddr, uint64_t *sp_offset)
{
	struct profile_sources *s = ctx;

	if (!s->usyms)
		return -ENOENT;
	return usyms_leaf_return_slot(s->usyms, file,
				      build_id_len ? build_id : NULL,
				      build_id_len, vaddr, sp_offset);
}

static int user_cfi(void *ctx, uint32_t file, const uint8_t *build_id,
		    size_t build_id_len, const struct cfi_table **t)
{
	struct profile_sources *s = ctx;

	if (!s->usyms)
		return -ENOENT;
	return usyms_cfi_table(s->usyms, file, build_id_len ? build_id : NULL,
			       build_id_len, t);
}

void profile_sources_resolver(struct profile_sources *s,
			      struct profile_resolver *r)
{
	*r = (struct profile_resolver){
		.kernel_lookup = kernel_lookup,
		.in_sched_text = in_sched_text,
		.user_find = user_find,
		.user_return_slot = user_return_slot,
		.user_cfi = user_cfi,
		.user_symbol = user_symbol,
		.user_inline = user_inline,
		.user_jit = user_jit,
		.user_jit_late = user_jit_late,
		.user_python = user_python,
		.ctx = s,
	};
}

void profile_sources_status(const struct profile_sources *s,
			    struct profile_sources_status *st)
{
	const struct jit_maps_stats *jit = &st->jit;

	*st = s->st;
	if (s->tracker)
		mmap_tracker_stats(s->tracker, &st->maps);
	if (s->usyms)
		usyms_stats(s->usyms, &st->usyms);
	if (!s->jit)
		return;
	/* A perf map refused or not opened is a file left unread. */
	jit_maps_stats(s->jit, &st->jit);
	st->files_unreadable += jit->refused;
	st->files_unopened += jit->unopened;
	if (jit->error && !st->files_error)
		st->files_error = jit->error;
}

void profile_sources_set_budget(struct profile_sources *s,
				const struct usyms_budget *b)
{
	if (s->usyms)
		usyms_set_budget(s->usyms, b);
}

struct py_procs *profile_sources_python(struct profile_sources *s)
{
	return s->py;
}

size_t profile_sources_kernel_ranges(const struct profile_sources *s,
				     const uint64_t (**ranges)[2])
{
	return s->ksyms ? ksyms_ranges(s->ksyms, ranges) : 0;
}

void profile_sources_free(struct profile_sources *s)
{
	if (!s)
		return;
	ksyms_free(s->ksyms);
	mmap_tracker_free(s->tracker);
	jit_maps_free(s->jit);
	py_procs_free(s->py);
	usyms_free(s->usyms);
	free(s->kallsyms);
	free(s);
}
