// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_unwind.h: the walker's tables, written by a thread of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_python.h"
#include "bpf_unwind.h"
#include "cfi_table.h"
#include "cleanup.h"
#include "line_read.h"
#include "proc_maps_line.h"
#include "proc_open.h"
#include "proc_stat.h"
#include "unwind_cache.h"

/* Files known (with rows or refused) at most; past them, none is built. */
#define UNWIND_FILES_MAX 4096u
/* Processes taken from the walker's requests per poll. */
#define UNWIND_BATCH 256u
/* Processes whose last write is remembered (to write each one seldom). */
#define UNWIND_RECENT 1024u

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

_Static_assert((int)CFI_CFA_NONE == (int)FXT_UNWIND_CFA_NONE &&
		       (int)CFI_CFA_SP == (int)FXT_UNWIND_CFA_SP &&
		       (int)CFI_CFA_FP == (int)FXT_UNWIND_CFA_FP &&
		       (int)CFI_CFA_OTHER == (int)FXT_UNWIND_CFA_OTHER &&
		       (int)CFI_CFA_END == (int)FXT_UNWIND_CFA_END &&
		       (int)CFI_FP_SAME == (int)FXT_UNWIND_FP_SAME &&
		       (int)CFI_FP_AT_CFA == (int)FXT_UNWIND_FP_AT_CFA &&
		       (int)CFI_FP_OTHER == (int)FXT_UNWIND_FP_OTHER,
	       "cfi_table.h's rules are unwind.h's");

/* A file by the identity its mappings show: its rows, or why none. */
struct unwind_file {
	uint64_t dev, ino;
	int err;		/* 0: rows at first_row */
	uint32_t first_row, nrows, len;
	uint64_t first_vaddr;	/* the first row's pc in the file */
	uint32_t nsegs;
	struct unwind_seg seg[UNWIND_SEGS_MAX];
};

struct unwind_recent {
	uint32_t pid;
	uint64_t start_stack;	/* of the program it ran then */
	uint64_t at_ns;
};

struct bpf_unwind {
	struct bpf_unwind_maps maps;
	struct unwind_cache *cache;	/* the manager's; NULL: none */
	struct bpf_python *py;
	uint64_t *rows;		/* the rows' map, mapped */
	uint32_t rows_used;
	struct unwind_file *files;
	size_t nfiles, files_cap;
	struct unwind_recent recent[UNWIND_RECENT];
	unsigned int recent_next;
	struct fxt_unwind_process *proc;	/* the entry being written */
	char *line;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	struct kernel_unwind_stats st;	/* but walk[]: under lock */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void count(struct bpf_unwind *u, uint64_t *c, uint64_t n)
{
	pthread_mutex_lock(&u->lock);
	*c += n;
	pthread_mutex_unlock(&u->lock);
}

/* The executable segments of elf, for file offsets to addresses. */
static void read_segments(Elf *elf, struct unwind_rows *r)
{
	GElf_Phdr ph;
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return;
	for (i = 0; i < n && r->nsegs < UNWIND_SEGS_MAX; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X))
			r->seg[r->nsegs++] = (struct unwind_seg){
				.offset = ph.p_offset, .filesz = ph.p_filesz,
				.vaddr = ph.p_vaddr };
}

/* t's rows encoded for the walker, pcs from the first: NULL, *err. */
static struct unwind_rows *encode_rows(const struct cfi_table *t, int *err)
{
	uint64_t first = t->rows[0].pc;
	struct unwind_rows *r;
	size_t i;

	if (t->end - first > UINT32_MAX || t->nrows > FXT_UNWIND_ROWS_MAX) {
		*err = -E2BIG;
		return NULL;
	}
	r = malloc(sizeof(*r) + t->nrows * sizeof(r->row[0]));
	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	*r = (struct unwind_rows){ .first_vaddr = first,
				   .len = (uint32_t)(t->end - first),
				   .nrows = (uint32_t)t->nrows };
	for (i = 0; i < t->nrows; i++) {
		const struct cfi_row *c = &t->rows[i];

		r->row[i] = fxt_unwind_row((__u32)(c->pc - first), c->cfa,
					   c->cfa_off, c->fp, c->fp_off);
	}
	return r;
}

/* The rows of the ELF file open at fd, compiled: NULL, *err. */
static struct unwind_rows *compile_file(struct bpf_unwind *u, int fd,
					int *err)
{
	struct cfi_table t = { 0 };
	struct unwind_rows *r = NULL;
	uint64_t t0 = now_ns();
	Elf *elf;

	elf = elf_begin(fd, ELF_C_READ, NULL);
	*err = !elf ? -ENOEXEC :
	       elf_kind(elf) == ELF_K_ELF ? cfi_table_build(elf, &t) :
					    -ENOEXEC;
	if (!*err && !t.nrows)
		*err = -ENOENT;
	if (!*err)
		r = encode_rows(&t, err);
	if (r)
		read_segments(elf, r);
	cfi_table_free(&t);
	elf_end(elf);
	count(u, &u->st.build_ns, now_ns() - t0);
	return r;
}

/* r's rows into the map after those written, f placed: 0, -ENOSPC. */
static int place_rows(struct bpf_unwind *u, const struct unwind_rows *r,
		      struct unwind_file *f)
{
	if (r->nrows > FXT_UNWIND_ROWS_MAX - u->rows_used)
		return -ENOSPC;
	memcpy(u->rows + u->rows_used, r->row, r->nrows * sizeof(r->row[0]));
	f->first_row = u->rows_used;
	f->nrows = r->nrows;
	f->len = r->len;
	f->first_vaddr = r->first_vaddr;
	f->nsegs = r->nsegs;
	memcpy(f->seg, r->seg, sizeof(f->seg));
	u->rows_used += r->nrows;
	count(u, &u->st.files, 1);
	count(u, &u->st.rows, r->nrows);
	return 0;
}

static struct unwind_file *file_known(struct bpf_unwind *u, uint64_t dev,
				      uint64_t ino)
{
	size_t i;

	for (i = 0; i < u->nfiles; i++)
		if (u->files[i].dev == dev && u->files[i].ino == ino)
			return &u->files[i];
	return NULL;
}

/*
 * The file m of pid maps, with rows or not: built at its first
 * mapping, opened as pid's owner could. NULL past the files' cap.
 */
static struct unwind_file *file_of(struct bpf_unwind *u, uint32_t pid,
				   const struct proc_maps_line *m,
				   const struct proc_owner *owner)
{
	struct unwind_file *f = file_known(u, m->dev, m->inode);
	const struct unwind_rows *known;
	struct unwind_rows *built = NULL;
	_cleanup_close_ int fd = -1;

	if (f)
		return f;
	if (u->nfiles == u->files_cap) {
		size_t cap = u->files_cap ? u->files_cap * 2 : 64;
		struct unwind_file *n;

		if (cap > UNWIND_FILES_MAX)
			return NULL;
		n = realloc(u->files, cap * sizeof(*n));
		if (!n)
			return NULL;
		u->files = n;
		u->files_cap = cap;
	}
	f = &u->files[u->nfiles++];
	*f = (struct unwind_file){ .dev = m->dev, .ino = m->inode };
	known = u->cache ? unwind_cache_find(u->cache, m->dev, m->inode) :
			   NULL;
	if (known) {
		count(u, &u->st.files_reused, 1);
	} else {
		fd = proc_open_maps_line("/proc", pid, m, owner);
		f->err = fd;
		if (fd >= 0)
			known = built = compile_file(u, fd, &f->err);
	}
	if (known)
		f->err = place_rows(u, known, f);
	if (built && (!u->cache ||
		      unwind_cache_add(u->cache, m->dev, m->inode, built)))
		free(built);
	if (f->err == -ENOSPC)
		count(u, &u->st.files_full, 1);
	else if (f->err)
		count(u, &u->st.files_unread, 1);
	return f;
}

/* Mapping m of file f as the walker reads it: false if f has no rows. */
static bool mapping_of(const struct unwind_file *f,
		       const struct proc_maps_line *m,
		       struct fxt_unwind_mapping *out)
{
	const struct unwind_seg *s;
	uint32_t i;

	if (f->err)
		return false;
	for (i = 0; i < f->nsegs; i++) {
		s = &f->seg[i];
		/* Linkers may start a segment mid-page (rustc's do). */
		if (m->pgoff >= s->offset + s->filesz ||
		    s->offset >= m->pgoff + (m->end - m->start))
			continue;
		/* A file address v is at v - vaddr + offset - pgoff + start. */
		*out = (struct fxt_unwind_mapping){
			.start = m->start, .end = m->end,
			.base = f->first_vaddr - s->vaddr + s->offset -
				m->pgoff + m->start,
			.first_row = f->first_row, .nrows = f->nrows,
			.len = f->len };
		return true;
	}
	return false;
}

/*
 * The bytes of the file m maps (through pid's map_files: the mapped file
 * itself, stat()ed, never opened), 0 when not known.
 */
static uint64_t mapped_bytes(uint32_t pid, const struct proc_maps_line *m)
{
	char path[96];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%u/map_files/%llx-%llx", pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/*
 * The mapping of one line of pid's maps added to the entry, if it has
 * rows. A file not known yet is compiled when build, else its bytes are
 * added to *missing and the mapping left out.
 */
static void add_line(struct bpf_unwind *u, uint32_t pid,
		     const struct proc_owner *owner, char *line, bool build,
		     uint64_t *missing)
{
	struct fxt_unwind_process *p = u->proc;
	struct proc_maps_line m;
	struct unwind_file *f;

	if (proc_maps_line_parse(line, &m) || !m.exec || m.path[0] != '/')
		return;
	bpf_python_line(u->py, pid, &m, owner);
	if (p->nmappings == FXT_UNWIND_MAPPINGS_MAX)
		return;
	if (!build && !file_known(u, m.dev, m.inode)) {
		*missing += mapped_bytes(pid, &m) + 1;
		return;
	}
	f = file_of(u, pid, &m, owner);
	if (f && mapping_of(f, &m, &p->m[p->nmappings]))
		p->nmappings++;
}

static uint64_t start_stack_of(uint32_t pid)
{
	return proc_start_stack("/proc", pid);
}

/*
 * pid's entry, from its maps (sorted by address, as the kernel lists
 * them): written even without rows, so that the walker asks no more;
 * not written if pid ran another program meanwhile (it asks again).
 * With build false, files not compiled yet are left out, their bytes
 * in *missing.
 */
static void write_process(struct bpf_unwind *u, uint32_t pid, bool build,
			  uint64_t *missing)
{
	_cleanup_(fclosep) FILE *maps = NULL;
	struct proc_owner owner;
	unsigned int lines = 0;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	memset(u->proc, 0, sizeof(*u->proc));
	bpf_python_begin(u->py);
	u->proc->start_stack = start_stack_of(pid);
	maps = fopen(path, "re");
	if (!maps || !u->proc->start_stack ||
	    proc_owner_read("/proc", pid, &owner) < 0)
		return;
	while (lines++ < PROC_MAPS_LINES_MAX &&
	       line_read(maps, u->line, PROC_MAPS_LINE_MAX) == 1)
		add_line(u, pid, &owner, u->line, build, missing);
	if (start_stack_of(pid) != u->proc->start_stack)
		return;
	if (!bpf_map_update_elem(u->maps.procs_fd, &pid, u->proc, BPF_ANY))
		count(u, &u->st.processes, 1);
	bpf_python_commit(u->py, pid, u->proc->start_stack);
}

/*
 * Whether pid's entry was written too recently to write it again: not if
 * it runs another program since (an exec: its new program is walked
 * without tables until its entry is written).
 */
static bool written_lately(struct bpf_unwind *u, uint32_t pid, uint64_t now)
{
	uint64_t start_stack = start_stack_of(pid);
	unsigned int i;

	for (i = 0; i < UNWIND_RECENT; i++)
		if (u->recent[i].pid == pid && u->recent[i].at_ns &&
		    u->recent[i].start_stack == start_stack &&
		    now - u->recent[i].at_ns < BPF_UNWIND_REREAD_NS)
			return true;
	u->recent[u->recent_next] =
		(struct unwind_recent){ pid, start_stack, now };
	u->recent_next = (u->recent_next + 1) % UNWIND_RECENT;
	return false;
}

/* A process whose files must be compiled, and how many bytes they are. */
struct unwind_todo {
	uint32_t pid;
	uint64_t missing;
};

static int cmp_todo(const void *a, const void *b)
{
	const struct unwind_todo *x = a, *y = b;

	return x->missing < y->missing ? -1 : x->missing > y->missing;
}

/*
 * The processes the walker asked for since the last poll: at once with
 * the files compiled already (a new program's libraries are everyone's),
 * then again with theirs, the fewest bytes to compile first (a small
 * program waits for no compiler's 30 MB of CFI).
 */
static void poll_wanted(struct bpf_unwind *u)
{
	struct unwind_todo todo[UNWIND_BATCH];
	uint32_t keys[UNWIND_BATCH], key, next;
	size_t n = 0, ntodo = 0, i;
	uint64_t now = now_ns();
	void *prev = NULL;

	while (n < UNWIND_BATCH &&
	       !bpf_map_get_next_key(u->maps.wanted_fd, prev, &next)) {
		keys[n++] = next;
		key = next;
		prev = &key;
	}
	for (i = 0; i < n; i++) {
		uint64_t missing = 0;

		(void)bpf_map_delete_elem(u->maps.wanted_fd, &keys[i]);
		if (written_lately(u, keys[i], now))
			continue;
		write_process(u, keys[i], false, &missing);
		if (missing)
			todo[ntodo++] = (struct unwind_todo){ keys[i], missing };
	}
	qsort(todo, ntodo, sizeof(*todo), cmp_todo);
	for (i = 0; i < ntodo; i++)
		write_process(u, todo[i].pid, true, NULL);
}

static void *unwind_thread(void *arg)
{
	struct bpf_unwind *u = arg;
	struct timespec until;
	bool stop;

	pthread_mutex_lock(&u->lock);
	while (!u->stop) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += (long)BPF_UNWIND_POLL_NS;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		(void)pthread_cond_timedwait(&u->wake, &u->lock, &until);
		stop = u->stop;
		pthread_mutex_unlock(&u->lock);
		if (!stop)
			poll_wanted(u);
		pthread_mutex_lock(&u->lock);
	}
	pthread_mutex_unlock(&u->lock);
	return NULL;
}

static int init_sync(struct bpf_unwind *u)
{
	pthread_condattr_t a;
	int r = pthread_condattr_init(&a);

	if (!r)
		r = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!r)
		r = pthread_cond_init(&u->wake, &a);
	pthread_condattr_destroy(&a);
	if (!r)
		r = pthread_mutex_init(&u->lock, NULL);
	return -r;
}

int bpf_unwind_start(const struct bpf_unwind_maps *maps,
		     struct unwind_cache *cache, struct py_procs *py,
		     struct bpf_unwind **ret)
{
	const struct bpf_python_maps py_maps = { maps->py_procs_fd,
						 maps->py_stats_fd };
	struct bpf_unwind *u = calloc(1, sizeof(*u));
	void *rows;
	int r;

	if (!u)
		return -ENOMEM;
	u->maps = *maps;
	u->cache = cache;
	r = py ? bpf_python_new(&py_maps, py, &u->py) : 0;
	if (r) {
		free(u);
		return r;
	}
	elf_version(EV_CURRENT);
	u->proc = calloc(1, sizeof(*u->proc));
	u->line = malloc(PROC_MAPS_LINE_MAX);
	rows = mmap(NULL, (size_t)FXT_UNWIND_ROWS_MAX * sizeof(uint64_t),
		    PROT_READ | PROT_WRITE, MAP_SHARED, maps->rows_fd, 0);
	u->rows = rows == MAP_FAILED ? NULL : rows;
	r = !u->proc || !u->line ? -ENOMEM : !u->rows ? -errno : 0;
	if (!r)
		r = init_sync(u);
	if (!r)
		r = -pthread_create(&u->thread, NULL, unwind_thread, u);
	u->started = !r;
	if (r) {
		bpf_unwind_free(u);
		return r;
	}
	*ret = u;
	return 0;
}

/* The walks' counters of every CPU, added to walk. */
static void read_walks(int fd, uint64_t *walk)
{
	int ncpus = libbpf_num_possible_cpus();
	_cleanup_free_ uint64_t *v = NULL;
	uint32_t k;
	int c;

	if (ncpus <= 0)
		return;
	v = calloc((size_t)ncpus, sizeof(*v));
	for (k = 0; v && k < FXT_UNWIND_STAT_COUNT; k++)
		if (!bpf_map_lookup_elem(fd, &k, v))
			for (c = 0; c < ncpus; c++)
				walk[k] += v[c];
}

void bpf_unwind_stats(struct bpf_unwind *u, struct kernel_unwind_stats *st)
{
	pthread_mutex_lock(&u->lock);
	*st = u->st;
	pthread_mutex_unlock(&u->lock);
	memset(st->walk, 0, sizeof(st->walk));
	read_walks(u->maps.stats_fd, st->walk);
	if (u->py)
		bpf_python_stats(u->py, &st->python);
}

void bpf_unwind_free(struct bpf_unwind *u)
{
	if (!u)
		return;
	if (u->started) {
		pthread_mutex_lock(&u->lock);
		u->stop = true;
		pthread_cond_signal(&u->wake);
		pthread_mutex_unlock(&u->lock);
		pthread_join(u->thread, NULL);
	}
	if (u->rows)
		munmap(u->rows, (size_t)FXT_UNWIND_ROWS_MAX * sizeof(uint64_t));
	bpf_python_free(u->py);
	free(u->files);
	free(u->proc);
	free(u->line);
	free(u);
}
