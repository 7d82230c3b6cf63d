/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The names a JIT gives its code, for the user frames no file-backed
 * mapping holds: each sampled process's /tmp/perf-PID.map
 * (daemon/symbols/perf_map.h) and its jitdump (jitdump.h: a file
 * jit-PID.dump anywhere, which the JIT maps executable so that it can be
 * found in its /proc/PID/maps; looked up first), PID as the process
 * knows itself in its own pid namespace, in its own root and mount
 * namespace, opened as its owner could (proc_open.h: no symlink, no
 * device or FIFO) and only when that owner (or root) owns it.
 *
 * When it is read: when the process's samples need it, as the rings are
 * drained while the trace runs and the process lives (a process often
 * exits before the stop); again when it has grown, at most every
 * JIT_MAPS_RECHECK_NS per process (a JIT appends as it compiles), which
 * includes the drain at the stop. The last map read of a process that
 * has exited names its samples drained later; a live process whose file
 * is gone (its pid taken again) has its old map dropped.
 *
 * A JIT writes its jitdump through a buffer (Node.js: 2 MiB), often
 * whole only as it exits: the jitdump opened is kept open (at most
 * JIT_MAPS_FDS_MAX of them), read a last time once its process has
 * exited, and jit_maps_name_late() names at the end what could not be
 * named while the trace ran.
 */
#ifndef FXT_JIT_MAPS_H
#define FXT_JIT_MAPS_H

#include <stdint.h>

#include "jitdump.h"
#include "perf_map.h"

/* Processes whose maps are kept at most; later ones are not named. */
#define JIT_MAPS_PROCS_MAX 4096u
/*
 * What the maps kept may hold in all (perf_map_stats's memory): one
 * file's bound times many processes would be far more. A map read past
 * it is not kept (the process's last one stays), counted.
 */
#define JIT_MAPS_MEMORY_DEFAULT (256ull << 20)
#define JIT_MAPS_RECHECK_NS (200ull * 1000 * 1000)
/* Jitdumps kept open at most, for their last read. */
#define JIT_MAPS_FDS_MAX 64u

struct jit_maps_stats {
	uint64_t read; /* perf maps read, each time */
	uint64_t dumps_read; /* jitdumps read, each time */
	uint64_t dumps_refused; /* of refused: jitdumps */
	uint64_t refused; /* not the owner's, a symlink, not a regular file */
	uint64_t unopened; /* other causes (-ENOENT aside) */
	int error; /* the last refusal's -errno */
	uint64_t over_procs; /* processes past JIT_MAPS_PROCS_MAX */
	uint64_t over_memory; /* maps read but not kept: over the memory */
	uint64_t memory; /* the maps kept hold now */
	struct perf_map_stats lines; /* of every read (a jitdump's entries too) */
	struct jitdump_stats dump; /* of every jitdump read, added up */
};

struct jit_maps;

/* proc: "/proc"; memory_max: 0 for JIT_MAPS_MEMORY_DEFAULT. */
int jit_maps_new(const char *proc, uint64_t memory_max, struct jit_maps **ret);

/*
 * The JIT's name of pc in pid (valid until the next call); -ENOENT.
 * pc is a return address's byte before it for a caller's frame.
 */
int jit_maps_name(struct jit_maps *j, uint32_t pid, uint64_t pc,
		  const char **name);

/*
 * The same at the end (the stop's names), for a pc jit_maps_name() could
 * not name: pid's files are read again once whatever the interval, a
 * jitdump from its fd kept when the process has exited.
 */
int jit_maps_name_late(struct jit_maps *j, uint32_t pid, uint64_t pc,
		       const char **name);

void jit_maps_stats(const struct jit_maps *j, struct jit_maps_stats *st);

void jit_maps_free(struct jit_maps *j);

#endif /* FXT_JIT_MAPS_H */
