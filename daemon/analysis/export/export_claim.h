/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One writer per archive, in ClickHouse's own terms: exports that race
 * for a trace id (a --watch and a manual run, two hosts) each append a
 * claim to the "claims" table, a Log table: appended under its lock, read
 * back in the order appended (max_threads = 1), never merged, so every
 * reader sees the same first claim. The first claim of a generation
 * wins; the others wait for the winner. A claim holds until its writer
 * releases it (the export done or failed) or it expires: its writer gives
 * up by then (the archive's time limit), so a crashed export is taken
 * over by a claim of the next generation, which replaces its rows.
 */
#ifndef FXT_EXPORT_CLAIM_H
#define FXT_EXPORT_CLAIM_H

#include <stdint.h>

#include "clickhouse_http.h"

/* A claim outlives its writer's deadline by this much. */
#define EXPORT_CLAIM_SLACK_SECONDS 60

struct export_claim {
	char claimant[33]; /* random, 32 hex digits */
	uint32_t generation; /* the one claimed, once won */
};

/* The claims table where absent: 0 or a clickhouse_http.h error. */
int export_claims_create(struct ch_client *ch);

/*
 * Claims trace_id (a checked id) for lease_s seconds: 1 won (c holds
 * the claim), 0 held by another writer (try again later), or a
 * clickhouse_http.h error, -EIO (no random claimant id).
 */
int export_claim_take(struct ch_client *ch, const char *trace_id, long lease_s,
		      struct export_claim *c);

/* Gives up a won claim: 0 or a clickhouse_http.h error. */
int export_claim_release(struct ch_client *ch, const char *trace_id,
			 const struct export_claim *c);

#endif /* FXT_EXPORT_CLAIM_H */
