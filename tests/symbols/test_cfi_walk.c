// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfi_walk.h on a live stack: unwind-target (built -O2
 * -fomit-frame-pointer) blocks in read() under main -> level_a ->
 * level_b -> level_c; the test stops it (ptrace), takes its registers,
 * compiles the rows of every executable file it maps (cfi_table.h: the
 * program, Debian's libc, the loader) and walks its stack through its
 * memory. The walk must give libc's read, then level_c, level_b, level_a
 * and main in that order, and end at the outermost frame, _start (its
 * return address undefined), not stop early. The same stack by frame
 * pointers alone is printed beside it (it cannot give that chain: no
 * function in it keeps a frame pointer). Needs ptrace of a child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfi_walk.h"
#include "check.h"
#include "elf_bias.h"
#include "proc_maps_line.h"
#include "unwind_target_ctl.h"

#define MAPS_MAX 64
#define FRAMES_MAX 64
#define SKIP 77

struct mapping {
	uint64_t start, end, bias;	/* file address = pc - bias */
	char path[256];
	struct cfi_table table;
	int built;			/* 0, or cfi_table_build()'s error */
};

struct target {
	struct unwind_target ctl;
	struct mapping maps[MAPS_MAX];
	unsigned int nmaps;
};

static void build_table(struct mapping *m, uint64_t off)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);

	m->built = elf ? elf_bias_of(elf, m->start, off, &m->bias) : -errno;
	if (!m->built)
		m->built = cfi_table_build(elf, &m->table);
	printf("mapping %#" PRIx64 "-%#" PRIx64 " %s: %zu rows (%d)\n",
	       m->start, m->end, m->path, m->table.nrows, m->built);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* The target's executable file mappings, each with its rows. */
static int read_maps(struct target *t)
{
	char path[64], line[PROC_MAPS_LINE_MAX];
	struct proc_maps_line ml;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", t->ctl.pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && t->nmaps < MAPS_MAX) {
		line[strcspn(line, "\n")] = '\0';
		if (proc_maps_line_parse(line, &ml) || !ml.exec ||
		    ml.path[0] != '/')
			continue;
		struct mapping *m = &t->maps[t->nmaps++];

		m->start = ml.start;
		m->end = ml.end;
		snprintf(m->path, sizeof(m->path), "%s", ml.path);
		build_table(m, ml.pgoff);
	}
	fclose(f);
	return 0;
}

static const struct cfi_table *table_at(void *ctx, uint64_t pc,
					uint64_t *file_pc)
{
	struct target *t = ctx;
	unsigned int i;

	for (i = 0; i < t->nmaps; i++) {
		struct mapping *m = &t->maps[i];

		if (pc >= m->start && pc < m->end && !m->built) {
			*file_pc = pc - m->bias;
			return &m->table;
		}
	}
	return NULL;
}

static const struct cfi_table *no_table(void *ctx, uint64_t pc,
					uint64_t *file_pc)
{
	return NULL;
}

static int read_word(void *ctx, uint64_t addr, uint64_t *word)
{
	struct target *t = ctx;
	struct iovec local = { word, 8 }, remote = { (void *)addr, 8 };

	return process_vm_readv(t->ctl.pid, &local, 1, &remote, 1, 0) == 8 ?
		       0 : -EFAULT;
}

/* Which of the program's functions pc is in, or the file it is in. */
static const char *owner(const struct target *t, uint64_t pc)
{
	const char *best = NULL;
	uint64_t best_start = 0;
	unsigned int i;

	for (i = 0; i < UNWIND_TARGET_FNS; i++)
		if (t->ctl.fn[i] <= pc && pc - t->ctl.fn[i] < 2048 &&
		    t->ctl.fn[i] >= best_start) {
			best = unwind_target_fns[i];
			best_start = t->ctl.fn[i];
		}
	for (i = 0; !best && i < t->nmaps; i++)
		if (pc >= t->maps[i].start && pc < t->maps[i].end)
			best = strrchr(t->maps[i].path, '/') + 1;
	return best ? best : "?";
}

static int stop_target(struct target *t, struct cfi_regs *regs)
{
	struct user_regs_struct r;
	int err = unwind_target_stop(&t->ctl, &r);

	if (!err)
		*regs = (struct cfi_regs){ r.rip, r.rsp, r.rbp };
	return err;
}

static const char *const stops[] = { "end", "depth", "unsupported row",
				     "read fault", "bad frame" };

static enum cfi_walk_stop walk(struct target *t, const struct cfi_walk_ops *ops,
			       const struct cfi_regs *regs, const char *how,
			       const char **names, size_t *n)
{
	uint64_t pcs[FRAMES_MAX];
	enum cfi_walk_stop stop;
	size_t i;

	stop = cfi_walk(regs, ops, t, pcs, FRAMES_MAX, n);
	printf("%s: %zu frames, stopped: %s\n", how, *n, stops[stop]);
	for (i = 0; i < *n; i++) {
		names[i] = owner(t, pcs[i]);
		printf("  #%zu %#" PRIx64 " %s\n", i, pcs[i], names[i]);
	}
	return stop;
}

int main(int argc, char **argv)
{
	static struct target t;
	const struct cfi_walk_ops tables = { table_at, read_word };
	const struct cfi_walk_ops fp_only = { no_table, read_word };
	const char *names[FRAMES_MAX], *fp_names[FRAMES_MAX];
	const char *want[] = { "level_c", "level_b", "level_a", "main" };
	enum cfi_walk_stop stop;
	struct cfi_regs regs;
	size_t n, fp_n, i, at;
	unsigned int m;

#ifndef __x86_64__
	printf("skip: the rows are x86-64's\n");
	return SKIP;
#endif
	if (argc != 2)
		return 2;
	elf_version(EV_CURRENT);
	CHECK(!unwind_target_start(argv[1], &t.ctl), "cannot start %s",
	      argv[1]);
	CHECK(t.ctl.fn[0] && t.ctl.fn[3], "the target printed no addresses");
	if (stop_target(&t, &regs)) {
		printf("skip: cannot ptrace the child: %s\n", strerror(errno));
		kill(t.ctl.pid, SIGKILL);
		return SKIP;
	}
	CHECK(!read_maps(&t), "cannot read the target's maps");
	stop = walk(&t, &tables, &regs, "rows", names, &n);
	walk(&t, &fp_only, &regs, "frame pointers alone", fp_names, &fp_n);
	kill(t.ctl.pid, SIGKILL);
	waitpid(t.ctl.pid, NULL, 0);
	CHECK(stop == CFI_WALK_END, "the walk stopped early: %s", stops[stop]);
	CHECK(n > 0 && !strcmp(names[n - 1], "_start"),
	      "the last frame is not _start: %s", n ? names[n - 1] : "none");
	CHECK(n > 0 && !strncmp(names[0], "libc.so", 7),
	      "the first frame is not libc's read: %s", n ? names[0] : "none");
	for (at = 0; at < n && strcmp(names[at], want[0]); at++)
		;
	for (i = 0; i < 4; i++)
		CHECK(at + i < n && !strcmp(names[at + i], want[i]),
		      "frame %zu is %s, not %s", at + i,
		      at + i < n ? names[at + i] : "none", want[i]);
	for (m = 0; m < t.nmaps; m++)
		cfi_table_free(&t.maps[m].table);
	return check_failures ? 1 : 0;
}
