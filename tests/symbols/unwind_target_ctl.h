/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind-target (unwind_target.c) started, its functions' addresses
 * read from what it prints, and stopped with ptrace where it blocks in
 * read(): for the tests that walk its stack (test_cfi_walk.c through its
 * memory, test_copy_unwind.c through a copy as the module takes it).
 */
#ifndef FXT_TESTS_UNWIND_TARGET_CTL_H
#define FXT_TESTS_UNWIND_TARGET_CTL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn_stdout.h"

static const char *const unwind_target_fns[] = { "level_a", "level_b",
						 "level_c", "main", "_start" };
#define UNWIND_TARGET_FNS (sizeof(unwind_target_fns) / sizeof(char *))

struct unwind_target {
	pid_t pid;
	uint64_t fn[UNWIND_TARGET_FNS]; /* as unwind_target_fns names them */
};

/* Starts the target; its function addresses read, it blocks in read(). */
static inline int unwind_target_start(const char *exe, struct unwind_target *t)
{
	char *const argv[] = { (char *)exe, NULL };
	char line[128], name[32];
	FILE *f = spawn_stdout(argv, &t->pid);
	void *p;
	size_t i;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "blocked\n"))
			break;
		if (sscanf(line, "%31[^=]=%p", name, &p) != 2)
			continue;
		for (i = 0; i < UNWIND_TARGET_FNS; i++)
			if (!strcmp(name, unwind_target_fns[i]))
				t->fn[i] = (uint64_t)(uintptr_t)p;
	}
	fclose(f);
	return 0;
}

/*
 * Stopped where it blocks: in the read system call (waited for by its
 * wchan, a stop that lands before it would be in stdio), its registers
 * in *r. -errno when it cannot be traced.
 */
static inline int unwind_target_stop(struct unwind_target *t,
				     struct user_regs_struct *r)
{
	char wchan[64] = "";
	int status, tries;

	for (tries = 0; tries < 600 && strcmp(wchan, "anon_pipe_read") &&
			strcmp(wchan, "pipe_read");
	     tries++) {
		char path[64];
		FILE *f;

		usleep(50000);
		snprintf(path, sizeof(path), "/proc/%d/wchan", t->pid);
		f = fopen(path, "re");
		if (f) {
			if (!fgets(wchan, sizeof(wchan), f))
				wchan[0] = '\0';
			fclose(f);
		}
	}
	if (ptrace(PTRACE_SEIZE, t->pid, 0, 0) ||
	    ptrace(PTRACE_INTERRUPT, t->pid, 0, 0))
		return -errno;
	if (waitpid(t->pid, &status, 0) != t->pid)
		return -errno;
	if (ptrace(PTRACE_GETREGS, t->pid, 0, r))
		return -errno;
	printf("stopped in %s: ip %#llx sp %#llx bp %#llx\n", wchan, r->rip,
	       r->rsp, r->rbp);
	return 0;
}

#endif /* FXT_TESTS_UNWIND_TARGET_CTL_H */
