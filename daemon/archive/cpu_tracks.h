/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What runs on each CPU, for drawing scheduling records as slices.
 * One small entry per CPU number seen (at most 65536: the record's CPU
 * field is 16 bits), so memory is bounded by the machine, not the trace.
 */
#ifndef FXT_CPU_TRACKS_H
#define FXT_CPU_TRACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader.h"

struct cpu_state {
	uint64_t start_ns;	/* switch-in of the running thread */
	uint64_t tid;
	uint64_t pid;		/* 0 if unknown */
	int32_t weight;
	uint8_t prio;
	bool has_weight;
	bool has_prio;
	bool running;		/* a thread other than idle is on the CPU */
	bool named;		/* its "CPU n" metadata was written */
};

struct cpu_tracks {
	struct cpu_state *cpu;
	unsigned int count;	/* entries allocated */
};

#define CPU_TRACKS_MAX 65536u

/* The state of CPU n, grown on demand; NULL on ENOMEM or n too big. */
struct cpu_state *cpu_tracks_get(struct cpu_tracks *t, unsigned int n);
void cpu_tracks_free(struct cpu_tracks *t);

/*
 * The thread a context switch record puts on the CPU, from ns. running
 * stays false for the idle thread (tid 0, or weight INT32_MIN); the
 * caller ends the stretch that was running first.
 */
void cpu_state_switch_in(struct cpu_state *cpu, const struct fxt_record *rec,
			 uint64_t ns);

#endif /* FXT_CPU_TRACKS_H */
