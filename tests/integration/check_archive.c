// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks an archive written by fxtraced, independently of the reader
 * under test elsewhere: the magic number first, well-formed records
 * end to end, every section introduced by provider info, an
 * initialization record in each user section before its events, no
 * metadata from providers. Prints one line per provider:
 *   NAME events=N init=N overflow=N sched=N imin=A imax=B distinct=D
 *        tmax=T ievents=E breaks=K backs=B recovered=N
 * (i: the proto-provider's event argument; T: the newest timestamp of an
 * event or scheduling record, ticks; E: events with an i; K: how often an
 * i is not the one before plus 1, B: how often it is not above it), then
 * "trace recovered=N" (the trace-wide marks of a restarted manager), and
 * exits 1 on any violation.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/fxt.h>

#define MAX_PROVIDERS 64
#define MAX_I (1u << 22)

struct prov {
	uint32_t id;
	char name[256];
	uint64_t events, init, overflow, sched, kobj, strings;
	uint64_t imin, imax, distinct;
	uint64_t tmax;
	uint64_t ievents, breaks, backs, ilast;
	uint64_t recovered;
	unsigned char *seen;
};

static uint64_t trace_recovered;

static struct prov provs[MAX_PROVIDERS];
static unsigned int nprovs;

static __attribute__((noreturn)) void fail(const char *why, long off)
{
	fprintf(stderr, "check-archive: %s at byte %ld\n", why, off);
	exit(1);
}

static struct prov *find(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < nprovs; i++)
		if (provs[i].id == id)
			return &provs[i];
	return NULL;
}

static void metadata(const uint64_t *w, uint64_t n, struct prov **cur,
		     long off)
{
	unsigned int type = FXT_GET(w[0], FXT_META_TYPE);
	uint32_t id = FXT_GET(w[0], FXT_META_PROVIDER_ID);
	struct prov *p;

	switch (type) {
	case FXT_METADATA_PROVIDER_INFO: {
		size_t len = FXT_GET(w[0], FXT_META_NAME_LEN);

		if (find(id) || nprovs == MAX_PROVIDERS)
			fail("provider info repeated for one id", off);
		if (n != 1 + fxt_words(len))
			fail("provider info size", off);
		p = &provs[nprovs++];
		p->id = id;
		memcpy(p->name, &w[1], len);
		p->imin = UINT64_MAX;
		*cur = p;
		return;
	}
	case FXT_METADATA_PROVIDER_SECTION:
		*cur = find(id);
		if (!*cur)
			fail("provider section before provider info", off);
		return;
	case FXT_METADATA_PROVIDER_EVENT:
		if (FXT_GET(w[0], FXT_META_EVENT_ID) ==
		    FXT_PROVIDER_EVENT_RECOVERED && id == 0) {
			trace_recovered++;
			return;
		}
		p = find(id);
		if (!p)
			fail("provider event for an unknown provider", off);
		if (FXT_GET(w[0], FXT_META_EVENT_ID) ==
		    FXT_PROVIDER_EVENT_RECOVERED)
			p->recovered++;
		else
			p->overflow++;
		return;
	case FXT_METADATA_TRACE_INFO:
		fail("trace info record after the start", off);
		return;
	default:
		fail("unknown metadata type", off);
	}
}

/* The proto-provider's event: thread ref 1, refs 1/2, one int64 arg. */
static void event(struct prov *p, const uint64_t *w, uint64_t n, long off)
{
	uint64_t i;

	p->events++;
	if (!p->init && strcmp(p->name, "kernel"))
		fail("event before the section's initialization record", off);
	if (n != 4 || FXT_GET(w[0], FXT_EVENT_NARGS) != 1 ||
	    FXT_GET(w[2], FXT_ARG_TYPE) != FXT_ARG_INT64)
		return;
	i = w[3];
	if (p->ievents && i != p->ilast + 1)
		p->breaks++;
	if (p->ievents++ && i <= p->ilast)
		p->backs++;
	p->ilast = i;
	if (i < p->imin)
		p->imin = i;
	if (i > p->imax)
		p->imax = i;
	if (i < MAX_I) {
		if (!p->seen)
			p->seen = calloc(MAX_I / 8, 1);
		if (!(p->seen[i / 8] & (1u << (i % 8)))) {
			p->seen[i / 8] |= 1u << (i % 8);
			p->distinct++;
		}
	}
}

int main(int argc, char **argv)
{
	static uint64_t w[1u << 16];
	struct prov *cur = NULL;
	long off = 8;
	unsigned int i;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: check-archive FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	if (fread(w, 8, 1, f) != 1 || w[0] != FXT_MAGIC_RECORD)
		fail("no magic number record first", 0);
	while (fread(w, 8, 1, f) == 1) {
		unsigned int type = FXT_GET(w[0], FXT_HDR_TYPE);
		uint64_t n = fxt_record_words(w[0]);

		if (n == 0 || n > sizeof(w) / 8)
			fail("record of size 0 or too large", off);
		if (fread(w + 1, 8, n - 1, f) != n - 1)
			fail("truncated record", off);
		if (type == FXT_RECORD_METADATA) {
			metadata(w, n, &cur, off);
		} else if (!cur) {
			fail("record outside any provider section", off);
		} else if (type == FXT_RECORD_INITIALIZATION) {
			if (n != 2 || w[1] != 1000000000ull)
				fail("initialization record is not 1e9 ticks/s", off);
			cur->init++;
		} else if (type == FXT_RECORD_EVENT) {
			event(cur, w, n, off);
			if (n > 1 && w[1] > cur->tmax)
				cur->tmax = w[1];
		} else if (type == FXT_RECORD_SCHEDULING) {
			cur->sched++;
			if (n > 1 && w[1] > cur->tmax)
				cur->tmax = w[1];
		} else if (type == FXT_RECORD_KERNEL_OBJECT) {
			cur->kobj++;
		} else if (type == FXT_RECORD_STRING) {
			cur->strings++;
		}
		off += (long)n * 8;
	}
	for (i = 0; i < nprovs; i++) {
		struct prov *p = &provs[i];

		printf("%s events=%llu init=%llu overflow=%llu sched=%llu kobj=%llu strings=%llu imin=%lld imax=%llu distinct=%llu tmax=%llu ievents=%llu breaks=%llu backs=%llu recovered=%llu\n",
		       p->name, (unsigned long long)p->events,
		       (unsigned long long)p->init,
		       (unsigned long long)p->overflow,
		       (unsigned long long)p->sched,
		       (unsigned long long)p->kobj,
		       (unsigned long long)p->strings,
		       p->imin == UINT64_MAX ? -1LL : (long long)p->imin,
		       (unsigned long long)p->imax,
		       (unsigned long long)p->distinct,
		       (unsigned long long)p->tmax,
		       (unsigned long long)p->ievents,
		       (unsigned long long)p->breaks,
		       (unsigned long long)p->backs,
		       (unsigned long long)p->recovered);
	}
	printf("trace recovered=%llu\n", (unsigned long long)trace_recovered);
	return 0;
}
