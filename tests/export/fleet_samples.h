/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stack samples of a fleet_gen host (include/fxt/stacks.h), as the
 * manager's kernel provider writes them, for the samples table and the
 * "functions burning CPU everywhere" query of docs/fleet.md. Per event
 * i, on pid 100 tid 101, CPU 0:
 *   - an on-CPU sample (period 10 ms) in hot_loop under main, but in
 *     parse_request on hosts of INDEX >= 2 when i % 5 == 0;
 *   - when i % 10 == 0, an off-CPU sample blocked 2 us in the kernel's
 *     schedule under wait_for_db.
 * The user frames are named by symbols written after every sample (as
 * the manager writes them at stop): readers must collect tables first.
 */
#ifndef FLEET_SAMPLES_H
#define FLEET_SAMPLES_H

#include <stdint.h>

#include "fxt_writer.h"

/* The kernel provider (its id), its strings and stack tables. */
void fleet_samples_begin(struct fxt_writer *w, uint16_t provider);
/* The samples of event i at trace time ts, on a host of this index. */
void fleet_samples_event(struct fxt_writer *w, uint16_t provider,
			 unsigned int host_index, unsigned int i, uint64_t ts);
/* The symbols, last. */
void fleet_samples_end(struct fxt_writer *w, uint16_t provider);

#endif /* FLEET_SAMPLES_H */
