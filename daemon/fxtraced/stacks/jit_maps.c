// SPDX-License-Identifier: GPL-2.0-only
/*
 * JIT names by process (jit_maps.h). A file's identity is taken with
 * lstat() through /proc/PID/root, which opens nothing; proc_open then
 * opens the file in that root as its owner and checks it is that inode,
 * so a file swapped in between, or one in the manager's own /tmp, is
 * refused (-ESTALE). A jitdump is opened through its mapping
 * (map_files), which must be the file at its path: one replaced since
 * it was mapped is refused too.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "jit_maps.h"
#include "jitdump.h"
#include "line_read.h"
#include "proc_maps_line.h"
#include "proc_open.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

/* One of a process's files of JIT names. */
enum jit_source {
	JIT_DUMP, /* looked up first: a JIT that writes both, its richer one */
	JIT_PERF_MAP,
	JIT_SOURCES,
};

struct jit_file {
	int last_err; /* counted once per cause, file and process */
	int fd; /* a jitdump's, kept for its last read; -1 */
	struct stat seen; /* the file last read */
	struct perf_map *map;
};

struct jit_proc {
	uint32_t pid;
	bool late; /* read once more at the end */
	uint64_t checked_ns;
	struct jit_file f[JIT_SOURCES];
};

/* Whose files they are: the owner, and the pid its JIT names them by. */
struct jit_owner {
	struct proc_owner owner;
	uint32_t self;
};

struct jit_maps {
	char *proc;
	struct jit_proc *p; /* by pid */
	size_t n;
	unsigned int fds; /* kept open */
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
	size_t i, k;

	if (!j)
		return;
	for (i = 0; i < j->n; i++)
		for (k = 0; k < JIT_SOURCES; k++) {
			perf_map_free(j->p[i].f[k].map);
			if (j->p[i].f[k].fd >= 0)
				close(j->p[i].f[k].fd);
		}
	free(j->p);
	free(j->proc);
	free(j);
}

/* pid's entry, added in order when new; NULL past the cap. */
static struct jit_proc *proc_get(struct jit_maps *j, uint32_t pid)
{
	size_t lo = 0, hi = j->n, k;

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
	for (k = 0; k < JIT_SOURCES; k++)
		j->p[lo].f[k].fd = -1;
	return &j->p[lo];
}

/*
 * pid as the process sees itself, in its own pid namespace (the last of
 * status's NSpid; pid itself where the kernel has no NSpid): the number
 * its JIT names the map by. -ESRCH: gone, or a zombie (its root and its
 * mappings are gone: its last maps must stay, not be dropped).
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
		if (!strncmp(line, "State:\tZ", 8) ||
		    !strncmp(line, "State:\tX", 8))
			return -ESRCH;
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

static int owner_read(const char *proc, uint32_t pid, struct jit_owner *o)
{
	int r = proc_owner_read(proc, pid, &o->owner);

	return r < 0 ? r : own_pid(proc, pid, &o->self);
}

/*
 * An fd of path (as pid sees it) opened as its owner could, *st its
 * identity: -ENOENT none; -ELOOP a symlink; -EINVAL not a regular
 * file; -EPERM another user's file. start..end: the mapping of it, for
 * proc_open's map_files (0, 0: none); the file at path must be it.
 */
static int file_open(struct jit_maps *j, uint32_t pid,
		     const struct jit_owner *o, const char *path,
		     uint64_t start, uint64_t end, struct stat *st)
{
	char at[PATH_MAX];
	struct proc_open_request rq = { .proc = j->proc,
					.pid = pid,
					.start = start,
					.end = end,
					.path = path,
					.owner = &o->owner,
					.check_inode = true };

	if ((size_t)snprintf(at, sizeof(at), "%s/%u/root%s", j->proc, pid,
			     path) >= sizeof(at))
		return -ENAMETOOLONG;
	if (lstat(at, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return S_ISLNK(st->st_mode) ? -ELOOP : -EINVAL;
	/* Only its owner's (or root's) names are its names. */
	if (st->st_uid != o->owner.uid && st->st_uid != 0)
		return -EPERM;
	rq.dev = st->st_dev;
	rq.ino = st->st_ino;
	return proc_open_mapped(&rq);
}

static int map_open(struct jit_maps *j, uint32_t pid, const struct jit_owner *o,
		    struct stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%u.map", o->self);
	return file_open(j, pid, o, path, 0, 0, st);
}

/*
 * The length of path (a maps line's) when it names want, " (deleted)"
 * taken off; else 0. A file replaced since it was mapped is looked at
 * by its path as any other (a symlink put there is refused).
 */
static size_t dump_path_len(const char *path, const char *want)
{
	static const char deleted[] = " (deleted)";
	const char *base = strrchr(path, '/');
	size_t n = strlen(want);

	if (!base || strncmp(base + 1, want, n) ||
	    (base[1 + n] && strcmp(base + 1 + n, deleted)))
		return 0;
	return (size_t)(base + 1 + n - path);
}

/*
 * The jitdump pid maps (its JIT maps it executable for perf to find it:
 * jit-PID.dump, PID as the process knows itself, as perf requires), in
 * its maps file: -ENOENT none.
 */
static int dump_find(struct jit_maps *j, uint32_t pid, uint32_t self,
		     char *path, size_t size, struct proc_maps_line *m)
{
	_cleanup_(fclosep) FILE *f = NULL;
	_cleanup_free_ char *line = malloc(PROC_MAPS_LINE_MAX);
	char at[64], want[32];
	unsigned int lines = 0;
	size_t len;

	if (!line)
		return -ENOMEM;
	snprintf(at, sizeof(at), "%s/%u/maps", j->proc, pid);
	snprintf(want, sizeof(want), "jit-%u.dump", self);
	f = fopen(at, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (lines++ < PROC_MAPS_LINES_MAX &&
	       line_read(f, line, PROC_MAPS_LINE_MAX)) {
		if (proc_maps_line_parse(line, m) < 0 || !m->exec ||
		    m->path[0] != '/' || !(len = dump_path_len(m->path, want)))
			continue;
		if (len >= size)
			return -ENAMETOOLONG;
		memcpy(path, m->path, len);
		path[len] = '\0';
		return 0;
	}
	/* No mapping at all: a zombie, whose files are as good as gone. */
	return lines == 1 ? -ESRCH : -ENOENT;
}

static int dump_open(struct jit_maps *j, uint32_t pid,
		     const struct jit_owner *o, struct stat *st)
{
	struct proc_maps_line m;
	char path[PATH_MAX];
	int r = dump_find(j, pid, o->self, path, sizeof(path), &m);

	return r < 0 ? r : file_open(j, pid, o, path, m.start, m.end, st);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void count_error(struct jit_maps *j, struct jit_file *f,
			enum jit_source k, int err)
{
	bool refused = err == -ELOOP || err == -EINVAL || err == -EPERM ||
		       err == -EACCES || err == -ESTALE;

	if (err == f->last_err)
		return;
	f->last_err = err;
	if (refused)
		j->st.refused++;
	else
		j->st.unopened++;
	/* Said apart: "refused" holds other users' perf maps too. */
	if (refused && k == JIT_DUMP)
		j->st.dumps_refused++;
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

/* m as f's map, in place of its last, if the memory allows. */
static void keep(struct jit_maps *j, struct jit_file *f, struct perf_map *m,
		 const struct stat *seen)
{
	struct perf_map_stats now, old = { 0 };

	perf_map_stats(m, &now);
	if (f->map)
		perf_map_stats(f->map, &old);
	add_lines(&j->st.lines, &now);
	if (j->st.memory - old.memory + now.memory > j->memory_max) {
		j->st.over_memory++;
		perf_map_free(m);
		return;
	}
	j->st.memory = j->st.memory - old.memory + now.memory;
	perf_map_free(f->map);
	f->map = m;
	f->seen = *seen;
}

/* The memory of f's map given back, the map dropped. */
static void drop(struct jit_maps *j, struct jit_file *f)
{
	struct perf_map_stats st;

	if (!f->map)
		return;
	perf_map_stats(f->map, &st);
	j->st.memory -= st.memory;
	perf_map_free(TAKE_PTR(f->map));
}

/* fd (at st) read into f's map, counted, kept if the memory allows. */
static void file_read(struct jit_maps *j, struct jit_file *f, enum jit_source k,
		      int fd, const struct stat *st)
{
	struct perf_map *m = NULL;
	int r;

	if (perf_map_new(&m) < 0)
		return;
	r = k == JIT_DUMP ? jitdump_read_fd(m, fd, &j->st.dump) :
			    perf_map_read_fd(m, fd);
	if (r < 0) {
		perf_map_free(m);
		return;
	}
	if (k == JIT_DUMP)
		j->st.dumps_read++;
	else
		j->st.read++;
	keep(j, f, m, st);
}

/* fd as f's, for a last read once its process has exited; else closed. */
static void fd_keep(struct jit_maps *j, struct jit_file *f, int fd)
{
	if (f->fd >= 0) {
		close(f->fd);
		j->fds--;
	}
	f->fd = -1;
	if (j->fds == JIT_MAPS_FDS_MAX) {
		close(fd);
		return;
	}
	f->fd = fd;
	j->fds++;
}

/*
 * A jitdump of a process gone, read a last time from its fd if it grew
 * (its JIT wrote what it still held as it exited), then let go.
 */
static void dump_last(struct jit_maps *j, struct jit_file *f)
{
	struct stat st;

	if (f->fd < 0)
		return;
	if (!fstat(f->fd, &st) && (!f->map || !same_file(&st, &f->seen)))
		file_read(j, f, JIT_DUMP, f->fd, &st);
	close(f->fd);
	f->fd = -1;
	j->fds--;
}

/* One of p's files read again if it changed; dropped if it is gone. */
static void file_refresh(struct jit_maps *j, struct jit_proc *p,
			 enum jit_source k, const struct jit_owner *o)
{
	struct jit_file *f = &p->f[k];
	_cleanup_close_ int fd = -1;
	struct stat st;

	fd = k == JIT_DUMP ? dump_open(j, p->pid, o, &st) :
			     map_open(j, p->pid, o, &st);
	if (fd == -ESRCH) {
		dump_last(j, f); /* exited: its last map stays */
		return;
	}
	if (fd == -ENOENT) {
		drop(j, f);
		return;
	}
	if (fd < 0) {
		count_error(j, f, k, fd);
		return;
	}
	if (!f->map || !same_file(&st, &f->seen))
		file_read(j, f, k, fd, &st);
	if (k == JIT_DUMP)
		fd_keep(j, f, TAKE_FD(fd));
}

/* pid's files read again where they changed. */
static void proc_refresh(struct jit_maps *j, struct jit_proc *p)
{
	struct jit_owner o;
	int r = owner_read(j->proc, p->pid, &o);
	size_t k;

	if (r == -ESRCH) {
		dump_last(j, &p->f[JIT_DUMP]); /* exited: its last maps stay */
		return;
	}
	if (r < 0) {
		count_error(j, &p->f[JIT_PERF_MAP], JIT_PERF_MAP, r);
		return;
	}
	for (k = 0; k < JIT_SOURCES; k++)
		file_refresh(j, p, (enum jit_source)k, &o);
}

/* The name of pc in p's maps, its jitdump's first. */
static int proc_lookup(const struct jit_proc *p, uint64_t pc, const char **name)
{
	size_t k;

	for (k = 0; k < JIT_SOURCES; k++)
		if (p->f[k].map && !perf_map_lookup(p->f[k].map, pc, name))
			return 0;
	return -ENOENT;
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
	if (!proc_lookup(p, pc, name))
		return 0;
	now = now_ns();
	if (p->checked_ns && now - p->checked_ns < JIT_MAPS_RECHECK_NS)
		return -ENOENT;
	p->checked_ns = now;
	proc_refresh(j, p);
	return proc_lookup(p, pc, name);
}

int jit_maps_name_late(struct jit_maps *j, uint32_t pid, uint64_t pc,
		       const char **name)
{
	struct jit_proc *p = proc_get(j, pid);

	if (!p)
		return -ENOENT;
	if (!p->late) {
		p->late = true;
		p->checked_ns = now_ns();
		proc_refresh(j, p);
	}
	return proc_lookup(p, pc, name);
}

void jit_maps_stats(const struct jit_maps *j, struct jit_maps_stats *st)
{
	*st = j->st;
}
