// SPDX-License-Identifier: GPL-2.0-only
/*
 * JIT names by process (jit_maps.h). The file's identity is taken with
 * lstat() through /proc/PID/root, which opens nothing; proc_open then
 * opens the file in that root as its owner and checks it is that inode,
 * so a file swapped in between, or one in the manager's own /tmp, is
 * refused (-ESTALE).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "jit_maps.h"
#include "line_read.h"
#include "proc_open.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

struct jit_proc {
	uint32_t pid;
	int last_err; /* counted once per cause and process */
	uint64_t checked_ns;
	struct stat seen; /* the file last read */
	struct perf_map *map;
};

struct jit_maps {
	char *proc;
	struct jit_proc *p; /* by pid */
	size_t n;
	uint64_t memory_max;
	struct jit_maps_stats st;
};

int jit_maps_new(const char *proc, uint64_t memory_max, struct jit_maps **ret)
{
	struct jit_maps *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->memory_max = memory_max ? memory_max : JIT_MAPS_MEMORY_DEFAULT;
	j->proc = strdup(proc);
	j->p = calloc(JIT_MAPS_PROCS_MAX, sizeof(*j->p));
	if (!j->proc || !j->p) {
		jit_maps_free(j);
		return -ENOMEM;
	}
	*ret = j;
	return 0;
}

void jit_maps_free(struct jit_maps *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->n; i++)
		perf_map_free(j->p[i].map);
	free(j->p);
	free(j->proc);
	free(j);
}

/* pid's entry, added in order when new; NULL past the cap. */
static struct jit_proc *proc_get(struct jit_maps *j, uint32_t pid)
{
	size_t lo = 0, hi = j->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->p[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < j->n && j->p[lo].pid == pid)
		return &j->p[lo];
	if (j->n == JIT_MAPS_PROCS_MAX) {
		j->st.over_procs++;
		return NULL;
	}
	memmove(&j->p[lo + 1], &j->p[lo], (j->n - lo) * sizeof(*j->p));
	j->n++;
	j->p[lo] = (struct jit_proc){ .pid = pid };
	return &j->p[lo];
}

/*
 * pid as the process sees itself, in its own pid namespace (the last of
 * status's NSpid; pid itself where the kernel has no NSpid): the number
 * its JIT names the map by. -ESRCH: gone.
 */
static int own_pid(const char *proc, uint32_t pid, uint32_t *ret)
{
	_cleanup_(fclosep) FILE *f = NULL;
	char path[64], line[256], *last, *end;
	unsigned long v;

	snprintf(path, sizeof(path), "%s/%u/status", proc, pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	*ret = pid;
	while (line_read(f, line, sizeof(line))) {
		if (strncmp(line, "NSpid:", 6))
			continue;
		last = strrchr(line, '\t');
		errno = 0;
		v = last ? strtoul(last + 1, &end, 10) : 0;
		if (!last || errno || end == last + 1 || *end || !v ||
		    v > UINT32_MAX)
			return -EINVAL;
		*ret = (uint32_t)v;
		break;
	}
	return 0;
}

/*
 * An fd of pid's perf map, *st its identity: -ENOENT none; -ELOOP a
 * symlink; -EINVAL not a regular file; -EPERM another user's file.
 */
static int map_open(struct jit_maps *j, uint32_t pid, struct stat *st)
{
	struct proc_owner owner;
	char path[64], at[PATH_MAX];
	struct proc_open_request rq = { .proc = j->proc, .pid = pid };
	uint32_t self = pid;
	int r = proc_owner_read(j->proc, pid, &owner);

	if (r >= 0)
		r = own_pid(j->proc, pid, &self);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", self);
	snprintf(at, sizeof(at), "%s/%u/root%s", j->proc, pid, path);
	if (lstat(at, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return S_ISLNK(st->st_mode) ? -ELOOP : -EINVAL;
	/* Only its owner's (or root's) names are its names. */
	if (st->st_uid != owner.uid && st->st_uid != 0)
		return -EPERM;
	rq.path = path;
	rq.owner = &owner;
	rq.check_inode = true;
	rq.dev = st->st_dev;
	rq.ino = st->st_ino;
	return proc_open_mapped(&rq);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void count_error(struct jit_maps *j, struct jit_proc *p, int err)
{
	if (err == p->last_err)
		return;
	p->last_err = err;
	if (err == -ELOOP || err == -EINVAL || err == -EPERM ||
	    err == -EACCES || err == -ESTALE)
		j->st.refused++;
	else
		j->st.unopened++;
	j->st.error = err;
}

static void add_lines(struct perf_map_stats *sum,
		      const struct perf_map_stats *st)
{
	sum->entries += st->entries;
	sum->malformed += st->malformed;
	sum->too_long += st->too_long;
	sum->overlaps += st->overlaps;
	sum->over_entries += st->over_entries;
	sum->over_bytes += st->over_bytes;
}

/* m as p's map, in place of its last, if the memory allows. */
static void keep(struct jit_maps *j, struct jit_proc *p, struct perf_map *m,
		 const struct stat *seen)
{
	struct perf_map_stats now, old = { 0 };

	perf_map_stats(m, &now);
	if (p->map)
		perf_map_stats(p->map, &old);
	j->st.read++;
	add_lines(&j->st.lines, &now);
	if (j->st.memory - old.memory + now.memory > j->memory_max) {
		j->st.over_memory++;
		perf_map_free(m);
		return;
	}
	j->st.memory = j->st.memory - old.memory + now.memory;
	perf_map_free(p->map);
	p->map = m;
	p->seen = *seen;
}

/* The memory of p's map given back, the map dropped. */
static void drop(struct jit_maps *j, struct jit_proc *p)
{
	struct perf_map_stats st;

	if (!p->map)
		return;
	perf_map_stats(p->map, &st);
	j->st.memory -= st.memory;
	perf_map_free(TAKE_PTR(p->map));
}

/* pid's map read again if it changed; dropped if the file is gone. */
static void proc_refresh(struct jit_maps *j, struct jit_proc *p)
{
	_cleanup_close_ int fd = -1;
	struct perf_map *m = NULL;
	struct stat st;

	fd = map_open(j, p->pid, &st);
	if (fd == -ESRCH)
		return; /* exited: its last map stays */
	if (fd == -ENOENT) {
		drop(j, p);
		return;
	}
	if (fd < 0) {
		count_error(j, p, fd);
		return;
	}
	if (p->map && same_file(&st, &p->seen))
		return;
	if (perf_map_new(&m) < 0)
		return;
	if (perf_map_read_fd(m, fd) < 0) {
		perf_map_free(m);
		return;
	}
	keep(j, p, m, &st);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int jit_maps_name(struct jit_maps *j, uint32_t pid, uint64_t pc,
		  const char **name)
{
	struct jit_proc *p = proc_get(j, pid);
	uint64_t now;

	if (!p)
		return -ENOENT;
	if (p->map && !perf_map_lookup(p->map, pc, name))
		return 0;
	now = now_ns();
	if (p->checked_ns && now - p->checked_ns < JIT_MAPS_RECHECK_NS)
		return -ENOENT;
	p->checked_ns = now;
	proc_refresh(j, p);
	return p->map ? perf_map_lookup(p->map, pc, name) : -ENOENT;
}

void jit_maps_stats(const struct jit_maps *j, struct jit_maps_stats *st)
{
	*st = j->st;
}
