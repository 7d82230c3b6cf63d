/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a session's stack samples are resolved: the kernel's symbols
 * (/proc/kallsyms at start), each process's mappings while the trace
 * runs (mmap_tracker.h) and the files' symbols at the end (usyms.h),
 * bound as a struct profile_resolver. What cannot be had (kallsyms
 * hidden, no perf events) leaves frames unnamed, never a kernel address.
 */
#ifndef FXT_PROFILE_SOURCES_H
#define FXT_PROFILE_SOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit_maps.h"
#include "mmap_tracker.h"
#include "profile_ingest.h"
#include "usyms.h"

struct profile_sources;

struct profile_sources_status {
	int ksyms_error; /* 0, or why kernel frames are "[kernel]" */
	int tracker_error; /* 0, or why user frames are "[unknown]" */
	int usyms_error;
	/* Mapped files not opened: their owner may not read them, and
	 * every other cause (gone, FUSE, not a regular file).
	 */
	uint64_t files_unreadable, files_unopened;
	int files_error; /* the last file's -errno */
	struct usyms_stats usyms;
	struct mmap_tracker_stats maps; /* zeros without the tracker */
	struct jit_maps_stats jit;
};

/* kallsyms: a path ("/proc/kallsyms"); with_user: track mappings. */
int profile_sources_new(const char *kallsyms, bool with_user,
			struct profile_sources **ret);
/*
 * Reads what the mapping tracker has, opening the files new mappings
 * map while their processes live: often, whether the rings are drained
 * or not.
 */
void profile_sources_follow(struct profile_sources *s);
/* The same, before each drain of the rings. */
void profile_sources_refresh(struct profile_sources *s);
void profile_sources_resolver(struct profile_sources *s,
			      struct profile_resolver *r);
void profile_sources_status(const struct profile_sources *s,
			    struct profile_sources_status *st);
/* The symbols' budget, e.g. a deadline for the names written at a stop. */
void profile_sources_set_budget(struct profile_sources *s,
				const struct usyms_budget *b);
/* The kernel's text ranges (none without kallsyms): for checks. */
size_t profile_sources_kernel_ranges(const struct profile_sources *s,
				     const uint64_t (**ranges)[2]);
/*
 * Where the kernel side puts the CPython processes it reads frames of,
 * for their names (NULL: none; owned by s).
 */
struct py_procs *profile_sources_python(struct profile_sources *s);
void profile_sources_free(struct profile_sources *s);

#endif /* FXT_PROFILE_SOURCES_H */
