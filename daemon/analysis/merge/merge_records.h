/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The second pass of a merge, one record at a time: each input's records
 * written to the merged archive with their times on the output's clock
 * (1 tick = 1 ns), koids, CPUs and provider ids renumbered, process and
 * provider names prefixed with the host's (merge_host.h). Records are
 * rewritten word by word where only numbers change; a process's kernel
 * object and a provider's info record are encoded anew, with the name
 * inline.
 */
#ifndef FXT_MERGE_RECORDS_H
#define FXT_MERGE_RECORDS_H

#include <stdint.h>

#include "fxt_reader.h"
#include "fxt_writer.h"
#include "merge_host.h"
#include "merge_perfetto.h"

struct merge_out {
	struct fxt_writer w;
	uint64_t *scratch;	/* the record being rewritten */
	uint64_t scratch_words;
	uint32_t next_provider;	/* the output's next provider id, from 1 */
	uint32_t mark_provider; /* its own section's (merge_mark.h) */
	struct merge_perfetto perfetto; /* the input's Perfetto stream */
};

/*
 * Before an input's records: its provider 0 (the records before its first
 * provider section), named after the host, at 1 tick = 1 ns. 0 or -errno.
 */
int merge_out_begin_host(struct merge_out *o, struct merge_host *h);
/*
 * rec of input h to the output: 0, -EBADMSG if its words disagree with
 * what the reader decoded, -E2BIG if a renumbered CPU does not fit the
 * CPU field (-ERANGE: a legacy context switch's 8 bits), -ENOSPC past
 * MERGE_PROVIDERS_MAX providers, -ENOMEM, or the writer's error.
 */
int merge_out_record(struct merge_out *o, struct merge_host *h,
		     const struct fxt_record *rec);
/* After an input's last record: the rest of its Perfetto stream. */
int merge_out_end_host(struct merge_out *o);
void merge_out_release(struct merge_out *o);

#endif /* FXT_MERGE_RECORDS_H */
