// SPDX-License-Identifier: GPL-2.0-only
/* One writer per archive: see export_claim.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "export_claim.h"

/* The newest generation's claims, as read back in the order appended. */
struct claim_state {
	uint32_t generation; /* 0: never claimed */
	char winner[33]; /* its first claim's writer */
	bool live; /* not expired */
	bool released; /* by its winner */
};

int export_claims_create(struct ch_client *ch)
{
	char sql[320];

	snprintf(sql, sizeof(sql),
		 "CREATE TABLE IF NOT EXISTS %s.claims (trace_id "
		 "FixedString(32), generation UInt32, "
		 "claimant FixedString(32), released UInt8, "
		 "claimed_at DateTime, expires_at DateTime) ENGINE = Log",
		 ch->database);
	return ch_exec(ch, sql, NULL, 0, 1);
}

static int new_claimant(struct export_claim *c)
{
	unsigned char r[16];
	unsigned int i;

	if (getrandom(r, sizeof(r), 0) != sizeof(r))
		return -EIO;
	for (i = 0; i < sizeof(r); i++)
		snprintf(c->claimant + 2 * i, 3, "%02x", r[i]);
	return 0;
}

/* One line of the answer: "generation claimant released live". */
static int parse_line(const char *line, struct claim_state *st)
{
	unsigned int released, live;
	uint32_t generation;
	char claimant[33];

	if (sscanf(line, "%" SCNu32 "\t%32[0-9a-f]\t%u\t%u", &generation,
		   claimant, &released, &live) != 4)
		return -EREMOTEIO;
	st->generation = generation;
	if (!released && !st->winner[0]) {
		memcpy(st->winner, claimant, sizeof(claimant));
		st->live = live;
	} else if (released && !strcmp(claimant, st->winner)) {
		st->released = true;
	}
	return 0;
}

static int read_state(struct ch_client *ch, const char *trace_id,
		      struct claim_state *st)
{
	char sql[512];
	const char *line;
	int ret;

	memset(st, 0, sizeof(*st));
	snprintf(sql, sizeof(sql),
		 "SELECT generation, claimant, released, "
		 "toUInt8(expires_at > now()) FROM %s.claims WHERE trace_id = "
		 "'%s' AND generation = (SELECT max(generation) FROM %s.claims "
		 "WHERE trace_id = '%s') SETTINGS max_threads = 1",
		 ch->database, trace_id, ch->database, trace_id);
	ret = ch_exec(ch, sql, NULL, 0, 1);
	if (ret)
		return ret;
	if (ch->answer_len >= CH_ANSWER_MAX - 1) {
		snprintf(ch->error, sizeof(ch->error),
			 "too many claims on trace %s", trace_id);
		return -EREMOTEIO;
	}
	for (line = ch->answer; *line; line = strchr(line, '\n') + 1) {
		if (!strchr(line, '\n') || parse_line(line, st)) {
			snprintf(ch->error, sizeof(ch->error),
				 "unexpected answer to the claims on trace %s",
				 trace_id);
			return -EREMOTEIO;
		}
	}
	return 0;
}

static int append(struct ch_client *ch, const char *trace_id,
		  const struct export_claim *c, uint32_t generation,
		  int released, long lease_s)
{
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "INSERT INTO %s.claims (trace_id, generation, claimant, "
		 "released, claimed_at, expires_at) SELECT toFixedString('%s', "
		 "32), toUInt32(%" PRIu32 "), toFixedString('%s', 32), "
		 "toUInt8(%d), now(), now() + %ld",
		 ch->database, trace_id, generation, c->claimant, released,
		 lease_s);
	return ch_exec(ch, sql, NULL, 0, 1);
}

int export_claim_take(struct ch_client *ch, const char *trace_id, long lease_s,
		      struct export_claim *c)
{
	struct claim_state st;
	uint32_t next;
	int ret;

	memset(c, 0, sizeof(*c));
	if (new_claimant(c)) {
		snprintf(ch->error, sizeof(ch->error), "no random claim id");
		return -EIO;
	}
	ret = read_state(ch, trace_id, &st);
	if (ret)
		return ret;
	if (st.winner[0] && st.live && !st.released)
		return 0;
	next = st.generation + 1;
	ret = append(ch, trace_id, c, next, 0, lease_s);
	if (!ret)
		ret = read_state(ch, trace_id, &st);
	if (ret)
		return ret;
	if (st.generation != next || strcmp(st.winner, c->claimant))
		return 0;
	c->generation = next;
	return 1;
}

int export_claim_release(struct ch_client *ch, const char *trace_id,
			 const struct export_claim *c)
{
	return append(ch, trace_id, c, c->generation, 1, 0);
}
