// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_frames.h on a live, unmodified CPython: Debian's interpreter runs
 * py_frames_target.py (main thread asleep under outer -> middle ->
 * inner, a worker thread waiting under worker -> worker_leaf). With the
 * layout its DWARF gives (py_layout.h; python3.X-dbg) and the runtime's
 * address moved by the interpreter's load bias (from /proc/PID/maps),
 * each thread's frames are read from its memory: the main thread's are
 * inner, middle, outer, <module>, in the script's file, inner's first
 * line where the script has it; the worker's Condition.wait, Event.wait,
 * worker_leaf, worker, then threading's own up to Thread._bootstrap. A
 * thread id of no Python thread is -ESRCH.
 *
 * test_py_frames SCRIPT [PYTHON ELF]: Debian's interpreter, or PYTHON
 * whose runtime and DWARF are in ELF (its libpython: pyenv's 3.12 and
 * 3.13, py_frames.sh).
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
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "check.h"
#include "elf_bias.h"
#include "proc_maps_line.h"
#include "spawn_stdout.h"
#include "py_frames.h"

#define SKIP 77
#define FRAMES_MAX 32

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static int read_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	pid_t pid = *(pid_t *)ctx;
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ?
		       0 : -EFAULT;
}

/* The interpreter's layout from its DWARF: 0, or SKIP without it. */
static int layout_of(const char *python, struct py_layout *l)
{
	Dwfl *dwfl = dwfl_begin(&callbacks);
	Dwfl_Module *mod = dwfl_report_offline(dwfl, "python", python, -1);
	const char *missing = NULL;
	Dwarf_Addr bias;
	Dwarf *dw = NULL;
	int err;

	if (mod && !dwfl_report_end(dwfl, NULL, NULL))
		dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw) {
		printf("skip: %s has no DWARF here (install its -dbg)\n", python);
		dwfl_end(dwfl);
		return SKIP;
	}
	err = py_layout_read(dw, l, &missing);
	CHECK(!err, "layout: %s: %s", missing ? missing : "?", strerror(-err));
	dwfl_end(dwfl);
	return err ? 1 : 0;
}

/* The load bias of python in pid, from its mapping of offset 0. */
static uint64_t load_bias(pid_t pid, const char *python)
{
	char path[64], line[PROC_MAPS_LINE_MAX];
	struct proc_maps_line ml;
	uint64_t bias = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!proc_maps_line_parse(line, &ml) && !ml.pgoff &&
		    !strcmp(ml.path, python)) {
			CHECK(!elf_bias_of_path(python, ml.start, 0, &bias),
			      "%s: no PT_LOAD at offset 0", python);
			break;
		}
	}
	if (f)
		fclose(f);
	return bias;
}

struct target {
	pid_t pid;
	uint32_t main_tid, worker_tid;
};

/* python runs script; its thread ids read once both threads block. */
static int start_target(const char *python, const char *script,
			struct target *t)
{
	char *const argv[] = { (char *)python, (char *)script, NULL };
	FILE *f = spawn_stdout(argv, &t->pid);
	char line[128];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && strcmp(line, "ready\n")) {
		sscanf(line, "main %" SCNu32, &t->main_tid);
		sscanf(line, "worker %" SCNu32, &t->worker_tid);
	}
	fclose(f);
	return t->main_tid && t->worker_tid ? 0 : -EPROTO;
}

/* The line of "def inner(" in the script: where inner's code begins. */
static uint32_t inner_line(const char *script)
{
	FILE *f = fopen(script, "re");
	char line[256];
	uint32_t n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		n++;
		if (!strncmp(line, "def inner(", 10))
			break;
	}
	if (f)
		fclose(f);
	return n;
}

static size_t frames_of(const struct py_layout *l, uint64_t runtime,
			struct target *t, uint32_t tid, const char *who,
			struct py_frame *f)
{
	const struct py_frames_ops ops = { read_mem };
	size_t n = 0, i;
	int err;

	/* time.sleep and Event.wait block: a read never races a change. */
	err = py_frames_read(l, runtime, tid, &ops, &t->pid, f, FRAMES_MAX,
			     &n);
	CHECK(!err, "%s: %s", who, strerror(-err));
	printf("%s thread %" PRIu32 ": %zu frames\n", who, tid, n);
	for (i = 0; i < n; i++)
		printf("  %s (%s:%" PRIu32 ")\n", f[i].qualname, f[i].filename,
		       f[i].firstlineno);
	return n;
}

static void expect(const struct py_frame *f, size_t n, const char *const *want,
		   size_t nwant, const char *who)
{
	size_t i;

	for (i = 0; i < nwant; i++)
		CHECK(i < n && !strcmp(f[i].qualname, want[i]),
		      "%s: frame %zu is %s, not %s", who, i,
		      i < n ? f[i].qualname : "none", want[i]);
}

int main(int argc, char **argv)
{
	static const char *const main_want[] = { "inner", "middle", "outer",
						 "<module>" };
	static const char *const worker_want[] = {
		"Condition.wait", "Event.wait", "worker_leaf", "worker",
		"Thread.run", "Thread._bootstrap_inner", "Thread._bootstrap"
	};
	const struct py_frames_ops ops = { read_mem };
	struct py_frame f[FRAMES_MAX];
	struct py_layout l;
	struct target t = { 0 };
	char python[256], elf[256];
	uint64_t runtime;
	ssize_t len;
	size_t n;
	int r;

	if (argc != 2 && argc != 4)
		return 2;
	if (argc == 4) {
		snprintf(python, sizeof(python), "%s", argv[2]);
		snprintf(elf, sizeof(elf), "%s", argv[3]);
	} else {
		len = readlink("/usr/bin/python3", python, sizeof(python) - 1);
		CHECK(len > 0, "no /usr/bin/python3");
		python[len > 0 ? len : 0] = '\0';
		if (python[0] != '/') { /* python3.11, beside the link */
			memmove(python + 9, python, strlen(python) + 1);
			memcpy(python, "/usr/bin/", 9);
		}
		snprintf(elf, sizeof(elf), "%s", python);
	}
	r = layout_of(elf, &l);
	if (r)
		return r;
	CHECK(!start_target(python, argv[1], &t), "%s did not start", python);
	runtime = l.runtime + load_bias(t.pid, elf);
	n = frames_of(&l, runtime, &t, t.main_tid, "main", f);
	expect(f, n, main_want, 4, "main");
	CHECK(n == 4, "main: %zu frames, not 4", n);
	CHECK(n >= 1 && !strcmp(f[0].filename, argv[1]),
	      "inner's file is %s, not %s", n ? f[0].filename : "none",
	      argv[1]);
	CHECK(n >= 1 && f[0].firstlineno == inner_line(argv[1]),
	      "inner's first line is %" PRIu32 ", not %" PRIu32,
	      n ? f[0].firstlineno : 0, inner_line(argv[1]));
	n = frames_of(&l, runtime, &t, t.worker_tid, "worker", f);
	expect(f, n, worker_want, 7, "worker");
	CHECK(n == 7, "worker: %zu frames, not 7", n);
	CHECK(py_frames_read(&l, runtime, 1, &ops, &t.pid, f, FRAMES_MAX,
			     &n) == -ESRCH,
	      "thread 1 found in the target");
	kill(t.pid, SIGKILL);
	waitpid(t.pid, NULL, 0);
	return check_failures ? 1 : 0;
}
