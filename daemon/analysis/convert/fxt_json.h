/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FXT -> Chrome JSON Trace Event Format, streaming.
 *
 * Reads the archive once, record by record, and writes events as they
 * come: memory stays bounded whatever the input size (fixed name cache,
 * per-CPU state, one output buffer). Metadata known only at the end
 * (providers, buffer overflows) goes after traceEvents.
 */
#ifndef FXT_JSON_H
#define FXT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "stack_profile.h"
#include "stack_tables.h"

/* The synthetic process holding one thread ("CPU n", tid n) per CPU. */
#define FXT_JSON_CPUS_PID 0x7fffffffu
/* The synthetic process holding the kernel's block requests. */
#define FXT_JSON_BLOCK_PID 0x7ffffffeu

/* Providers whose buffer overflows are counted one by one. */
#define FXT_JSON_MAX_DROP_PROVIDERS 256u

struct fxt_json_options {
	/* Plain array instead of the object format (no metadata then). */
	bool json_array;
	/* Output buffer size; 0 takes the default (4 MiB). */
	size_t buffer_size;
	/* Called every few thousand records with the input bytes read. */
	void (*progress)(void *ctx, uint64_t bytes_read);
	void *progress_ctx;
};

struct fxt_json_drops {
	uint32_t provider_id;
	uint64_t buffer_overflows;
};

struct fxt_json_stats {
	uint64_t records;	/* read from the input */
	uint64_t events;	/* JSON events written */
	uint64_t unconverted;	/* records with nothing to show (unknown) */
	uint64_t buffer_overflows;	/* all providers */
	size_t ndrops;
	struct fxt_json_drops drops[FXT_JSON_MAX_DROP_PROVIDERS];
	uint64_t bytes_written;
	bool output_failed;	/* the error returned came from the output */
	/* what the stack records lost (stack_losses.h says it) */
	struct stack_table_stats stack_tables;
	struct stack_profile_stats stack_profile;
};

/*
 * Converts everything r yields and writes the JSON document to out_fd.
 * Returns 0, or -errno: the reader's I/O error, the output's write error,
 * -ENOMEM, or -EMEDIUMTYPE when the reader refused the input as not FXT
 * (nothing is written then). The document is complete (valid JSON) only
 * on 0.
 */
int fxt_json_convert(struct fxt_reader *r, int out_fd,
		     const struct fxt_json_options *opt,
		     struct fxt_json_stats *stats);

#endif /* FXT_JSON_H */
