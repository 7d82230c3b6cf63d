/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the archive checkers (check-kcat, check-kmem) share: the reader's
 * diagnostics printed and counted (any one fails the check).
 */
#ifndef ARCHIVE_CHECK_H
#define ARCHIVE_CHECK_H

#include <inttypes.h>
#include <stdio.h>

#include "fxt_reader.h"

/* ctx: the uint64_t that counts them. */
static inline void archive_check_diag(void *ctx, enum fxt_diag_kind kind,
				      uint64_t offset, const char *reason)
{
	uint64_t *diags = ctx;

	(void)kind;
	fprintf(stderr, "offset 0x%" PRIx64 ": %s\n", offset, reason);
	(*diags)++;
}

#endif /* ARCHIVE_CHECK_H */
