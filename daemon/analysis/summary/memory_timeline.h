/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's memory chart, down-sampled as the CPU timeline is
 * (cpu_timeline.h): a fixed row of MEMORY_TIMELINE_COLUMNS time cells
 * whose width doubles (neighbours merged) when the trace outgrows them,
 * and whose start moves back by whole cells for a record earlier than
 * any before it, so memory is bounded whatever the archive holds.
 *
 * Series, each a step function (a value holds from its record to the
 * next of its series): the system's "meminfo" available, cached, dirty
 * and swap_used, and the RSS (file + anon + shmem) of processes. A cell
 * holds the most its series held during it (available: the least), the
 * value carried into it included. A series has cells from its first
 * record's to its latest's, then holds its latest value. A record
 * earlier than its series' latest counts in its own cell only (and fills
 * the cells from it to the series' first, if before).
 *
 * RSS series are kept for MEMORY_TIMELINE_PROCESSES processes at once:
 * past that, a process whose RSS passes the least peak of those kept
 * takes that one's place (its series starts then; counted), so the
 * processes with the largest peaks are kept to the end.
 *
 * Stalls (memory_summary.h's kinds), per kind and cell: the time threads
 * were stalled in the cell, the stalls that began in it, and the longest
 * stall over it with its thread.
 */
#ifndef FXT_MEMORY_TIMELINE_H
#define FXT_MEMORY_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMORY_TIMELINE_COLUMNS 1024u
#define MEMORY_TIMELINE_PROCESSES 256u
/* memory_summary.h's MEMORY_STALLS */
#define MEMORY_TIMELINE_STALLS 3u

enum memory_system {
	MEMORY_AVAILABLE,
	MEMORY_CACHED,
	MEMORY_DIRTY,
	MEMORY_SWAP_USED,
	MEMORY_SYSTEM_SERIES,
};

struct memory_series {
	uint64_t pid;		/* of an RSS series */
	uint64_t peak;		/* of an RSS series: the process's peak RSS */
	uint64_t held;		/* the latest value, held after last_col */
	uint64_t held_ns;	/* its time */
	uint32_t first_col, last_col;	/* the cells recorded */
	bool started;
	bool lowest;		/* cells keep the least value, not the most */
	uint64_t *cells;	/* MEMORY_TIMELINE_COLUMNS */
};

struct memory_stall_cell {
	uint64_t stall_ns;	/* all threads' stalled time in the cell */
	uint64_t longest_ns;	/* the longest stall over the cell */
	uint64_t tid, pid;	/* its thread */
	uint64_t began;		/* stalls that began in the cell */
	bool marked;		/* a stall is over the cell */
};

struct memory_timeline {
	uint64_t t0_ns;		/* start of column 0 */
	uint64_t cell_ns;	/* width of a column */
	uint64_t end_ns;	/* the latest time recorded */
	bool started;
	struct memory_series system[MEMORY_SYSTEM_SERIES];
	struct memory_series *processes;	/* MEMORY_TIMELINE_PROCESSES */
	uint32_t nprocesses;
	uint16_t index[2 * MEMORY_TIMELINE_PROCESSES];	/* slot + 1, 0 free */
	uint64_t least_peak;	/* of those kept; at most the least, when stale */
	uint64_t processes_replaced;
	/* MEMORY_TIMELINE_STALLS rows of MEMORY_TIMELINE_COLUMNS */
	struct memory_stall_cell *stalls;
};

/* All functions: 0 or -ENOMEM (the timeline is then as it was). */
int memory_timeline_system(struct memory_timeline *tl, enum memory_system k,
			   uint64_t ns, uint64_t value);
/* Process pid's RSS is rss at ns, its peak so far peak. */
int memory_timeline_rss(struct memory_timeline *tl, uint64_t pid, uint64_t ns,
			uint64_t rss, uint64_t peak);
/* Thread tid stalled over [begin_ns, end_ns) (an end before: no time). */
int memory_timeline_stall(struct memory_timeline *tl, unsigned int kind,
			  uint64_t tid, uint64_t pid, uint64_t begin_ns,
			  uint64_t end_ns);
/* Something to show at ns (an OOM kill): the cells reach it. */
void memory_timeline_mark(struct memory_timeline *tl, uint64_t ns);
void memory_timeline_free(struct memory_timeline *tl);

/* Process pid's RSS series, NULL when not kept. */
const struct memory_series *
memory_timeline_process(const struct memory_timeline *tl, uint64_t pid);

/* Stall kind's row of cells; NULL when no stall was seen. */
static inline const struct memory_stall_cell *
memory_timeline_stall_row(const struct memory_timeline *tl, unsigned int kind)
{
	return tl->stalls && kind < MEMORY_TIMELINE_STALLS ?
		       &tl->stalls[(size_t)kind * MEMORY_TIMELINE_COLUMNS] :
		       NULL;
}

#endif /* FXT_MEMORY_TIMELINE_H */
