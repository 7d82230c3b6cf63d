/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The k-way merge of per-CPU record streams into one timestamp-ordered
 * stream, in bounded memory: one chunk per CPU, refilled by read_cpu.
 */
#ifndef FXT_KERNEL_MERGE_H
#define FXT_KERNEL_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Moves whole records of one CPU into buf; bytes, 0 when empty, -errno. */
typedef ssize_t (*kernel_read_cpu_fn)(void *ctx, unsigned int cpu, void *buf,
				      size_t cap);
/* Takes one whole record; 0 or -errno. */
typedef int (*kernel_emit_fn)(void *ctx, const uint64_t *rec, size_t words);

struct kernel_merge;

/* chunk_bytes: per-CPU read size, a multiple of 8 and >= one record. */
struct kernel_merge *kernel_merge_new(unsigned int ncpus, size_t chunk_bytes);
void kernel_merge_free(struct kernel_merge *m);

/*
 * Emits the records read_cpu yields up to the horizon: records with a
 * timestamp in timestamp order, records without one (kernel objects)
 * just ahead of the next timed record of their CPU, so after every older
 * timed record of the others; those with none after them wait for the
 * next run, or go last in a run with no horizon. A record later than the
 * horizon stays, with all after it on its CPU, for the next run: with
 * the horizon "now", a CPU read early in a run cannot hold records older
 * than those a later-read CPU gave, and runs follow each other in order.
 * A CPU is read at most budget bytes per run, so a busy CPU cannot keep
 * one run going forever. Returns 0 or the first -errno of read_cpu or
 * emit.
 */
int kernel_merge_run(struct kernel_merge *m, kernel_read_cpu_fn read_cpu,
		     void *read_ctx, kernel_emit_fn emit, void *emit_ctx,
		     uint64_t budget, uint64_t horizon);
/* Records skipped because their size field did not fit their chunk. */
uint64_t kernel_merge_malformed(const struct kernel_merge *m);

#endif /* FXT_KERNEL_MERGE_H */
