// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader's diagnostics and its providers, each with its tables: see
 * fxt_reader_state.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>

#include "fxt_reader_state.h"

#define PROVIDERS_MAX 4096u

/* ---- diagnostics ---------------------------------------------------- */

__attribute__((format(printf, 4, 5))) void
fxt_reader_diag(struct fxt_reader *r, enum fxt_diag_kind kind,
		uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	switch (kind) {
	case FXT_DIAG_MALFORMED:
		r->stats.malformed++;
		break;
	case FXT_DIAG_NONCONFORMING:
		r->stats.nonconforming++;
		break;
	case FXT_DIAG_UNKNOWN:
		r->stats.unknown_skipped++;
		break;
	case FXT_DIAG_LIMIT:
		break;		/* counted by the caller */
	}
	if (!r->opt.diag)
		return;
	va_start(ap, fmt);
	fxt_reader_vreport(r, kind, offset, fmt, ap);
	va_end(ap);
}

void fxt_reader_vreport(struct fxt_reader *r, enum fxt_diag_kind kind,
			uint64_t offset, const char *fmt, va_list ap)
{
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	r->opt.diag(r->opt.diag_ctx, kind, offset, r->reason);
}

/* ---- providers ------------------------------------------------------ */

static struct provider_state *provider_state_new(struct fxt_reader *r,
						 uint32_t id)
{
	struct provider_state *p, **v;

	if (r->nproviders == r->providers_cap) {
		size_t cap = r->providers_cap ? r->providers_cap * 2 : 8;

		v = realloc(r->providers, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->providers = v;
		r->providers_cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pub.id = id;
	p->pub.name.data = p->name;
	p->pub.ticks_per_second = NS_PER_SECOND;
	r->providers[r->nproviders++] = p;
	return p;
}

void fxt_provider_state_reset(struct provider_state *p)
{
	fxt_tables_reset(&p->tables);
	p->pub.ticks_per_second = NS_PER_SECOND;
}

static struct provider_state *provider_state_find(struct fxt_reader *r,
						  uint32_t id)
{
	size_t i;

	for (i = r->nproviders; i-- > 0;)
		if (r->providers[i]->pub.id == id)
			return r->providers[i];
	return NULL;
}

struct provider_state *fxt_provider_state_get(struct fxt_reader *r,
					      uint32_t id, uint64_t offset)
{
	struct provider_state *p = provider_state_find(r, id);

	if (p)
		return p;
	if (r->nproviders >= PROVIDERS_MAX) {
		if (!r->too_many_providers)
			fxt_reader_diag(r, FXT_DIAG_MALFORMED, offset,
					"more than %u providers: provider %" PRIu32
					" and any later new one share the state of the last",
					PROVIDERS_MAX, id);
		r->too_many_providers = true;
		return r->providers[r->nproviders - 1];
	}
	return provider_state_new(r, id);
}

size_t fxt_reader_provider_count(const struct fxt_reader *r)
{
	return r->nproviders;
}

const struct fxt_provider *fxt_reader_provider(const struct fxt_reader *r,
					       size_t i)
{
	return i < r->nproviders ? &r->providers[i]->pub : NULL;
}
