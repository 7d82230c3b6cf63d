/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the unit tests: a sample archive and a diagnostics log. */
#ifndef FXT_TEST_SUPPORT_H
#define FXT_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "fxt_writer.h"

/*
 * Writes an archive holding every record kind, event type and argument
 * type, with inline and indexed strings and threads, two providers.
 */
void sample_archive(struct fxt_writer *w);
/* Records sample_archive() writes. */
#define SAMPLE_RECORDS 34u

struct diag_entry {
	enum fxt_diag_kind kind;
	uint64_t offset;
	char reason[320];
};

struct diag_log {
	struct diag_entry e[64];
	size_t n;
	size_t dropped;
};

void diag_collect(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		  const char *reason);

/* Reads all of data; returns records decoded, stats copied to *stats. */
size_t read_all(const void *data, size_t len,
		const struct fxt_reader_options *opt,
		struct fxt_reader_stats *stats);

/*
 * A seeded xorshift sequence: set test_rng_state, then each test_rand()
 * gives the next number, the same on every run.
 */
extern uint64_t test_rng_state;
uint64_t test_rand(void);

#endif /* FXT_TEST_SUPPORT_H */
