// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms: "ffffffff816b89f0 T vfs_read" or, for a module,
 * "ffffffffc0201000 t nvme_irq\t[nvme]". The file is read as hostile
 * text: lines are bounded (a longer one is skipped whole), names are
 * kept only when made of printable characters, and the number of
 * symbols is capped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "ksyms.h"
#include "line_read.h"

/* The kernel's KSYM_NAME_LEN is 512; a module name is under 64. */
#define KSYMS_LINE_MAX 640
#define KSYMS_MAX 8000000
/* Kallsyms has no sizes: the last function before a gap in the text
 * (the end of a module, of the core kernel) is taken to end here.
 */
#define KSYMS_LAST_SPAN 65536

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset in pool */
	uint32_t group; /* consecutive symbols of one module share a group */
	uint32_t seq; /* line order, to keep the first of equal addresses */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	char *pool;
	size_t pool_len, pool_cap;
	uint64_t (*ranges)[2];
	size_t nranges;
	uint64_t sched_start, sched_end, etext;
	/* set while parsing */
	bool any_nonzero;
	size_t lines;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct ksyms *, ksyms_free);

static int pool_add(struct ksyms *k, const char *name, const char *mod,
		    uint32_t *off)
{
	size_t need = strlen(name) + (mod ? strlen(mod) + 3 : 0) + 1;

	if (k->pool_len + need > UINT32_MAX)
		return -E2BIG;
	if (k->pool_len + need > k->pool_cap) {
		size_t cap = k->pool_cap ? k->pool_cap * 2 : 1 << 20;
		char *p;

		while (cap < k->pool_len + need)
			cap *= 2;
		p = realloc(k->pool, cap);
		if (!p)
			return -ENOMEM;
		k->pool = p;
		k->pool_cap = cap;
	}
	*off = (uint32_t)k->pool_len;
	if (mod)
		sprintf(k->pool + k->pool_len, "%s [%s]", name, mod);
	else
		strcpy(k->pool + k->pool_len, name);
	k->pool_len += need;
	return 0;
}

static int sym_add(struct ksyms *k, uint64_t addr, const char *name,
		   const char *mod)
{
	uint32_t off;
	int r;

	if (k->n == KSYMS_MAX)
		return -E2BIG;
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 65536;
		struct ksym *s = reallocarray(k->syms, cap, sizeof(*s));

		if (!s)
			return -ENOMEM;
		k->syms = s;
		k->cap = cap;
	}
	r = pool_add(k, name, mod, &off);
	if (r < 0)
		return r;
	k->syms[k->n] = (struct ksym){ .addr = addr, .name = off,
				       .seq = (uint32_t)k->n };
	k->n++;
	return 0;
}

static bool printable_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s >= 0x7f)
			return false;
	return true;
}

static void note_marker(struct ksyms *k, uint64_t addr, const char *name)
{
	if (!strcmp(name, "__sched_text_start"))
		k->sched_start = addr;
	else if (!strcmp(name, "__sched_text_end"))
		k->sched_end = addr;
	else if (!strcmp(name, "_etext"))
		k->etext = addr;
}

/* One line without its newline. Lines that do not parse are skipped. */
static int parse_line(struct ksyms *k, char *line)
{
	char *save = NULL, *a, *type, *name, *mod, *end;
	unsigned long long addr;

	a = strtok_r(line, " \t", &save);
	type = strtok_r(NULL, " \t", &save);
	name = strtok_r(NULL, " \t", &save);
	mod = strtok_r(NULL, " \t", &save);
	if (!a || !type || !name || type[1] || strlen(a) > 16)
		return 0;
	errno = 0;
	addr = strtoull(a, &end, 16);
	if (errno || *end)
		return 0;
	k->lines++;
	if (addr)
		k->any_nonzero = true;
	if (!strchr("tTwW", type[0]) || !addr || !printable_word(name))
		return 0;
	if (mod) {
		size_t len = strlen(mod);

		if (len < 3 || mod[0] != '[' || mod[len - 1] != ']')
			return 0;
		mod[len - 1] = '\0';
		mod++;
		if (!printable_word(mod))
			return 0;
	} else {
		note_marker(k, addr, name);
	}
	return sym_add(k, addr, name, mod);
}

static int read_lines(struct ksyms *k, FILE *f)
{
	char line[KSYMS_LINE_MAX];
	int r;

	while (line_read(f, line, sizeof(line))) {
		r = parse_line(k, line);
		if (r < 0)
			return r;
	}
	return ferror(f) ? -EIO : 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const char *module_of(const struct ksyms *k, const struct ksym *s)
{
	return strchr(k->pool + s->name, '[');
}

/* Whether b starts another stretch of text than a (another module, or
 * past the core kernel's _etext).
 */
static bool group_break(const struct ksyms *k, const struct ksym *a,
			const struct ksym *b)
{
	const char *ma = module_of(k, a), *mb = module_of(k, b);

	if (!ma != !mb || (ma && strcmp(ma, mb)))
		return true;
	return k->etext && a->addr < k->etext && b->addr >= k->etext;
}

/* Sorts, drops later duplicates of an address, and builds the groups
 * and their ranges.
 */
static int index_syms(struct ksyms *k)
{
	size_t i, n = 0;

	qsort(k->syms, k->n, sizeof(*k->syms), cmp_sym);
	for (i = 0; i < k->n; i++)
		if (!n || k->syms[i].addr != k->syms[n - 1].addr)
			k->syms[n++] = k->syms[i];
	k->n = n;
	k->ranges = calloc(n ? n : 1, sizeof(*k->ranges));
	if (!k->ranges)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!i || group_break(k, &k->syms[i - 1], &k->syms[i])) {
			k->ranges[k->nranges][0] = k->syms[i].addr;
			k->nranges++;
		}
		k->syms[i].group = (uint32_t)(k->nranges - 1);
		k->ranges[k->nranges - 1][1] = k->syms[i].addr;
	}
	for (i = 0; i < k->nranges; i++) {
		uint64_t last = k->ranges[i][1], end = last + KSYMS_LAST_SPAN;

		if (end < last)
			end = UINT64_MAX;
		if (k->etext && last < k->etext && end > k->etext)
			end = k->etext;
		if (i + 1 < k->nranges && end > k->ranges[i + 1][0])
			end = k->ranges[i + 1][0];
		k->ranges[i][1] = end;
	}
	return 0;
}

int ksyms_load(const char *path, struct ksyms **ret)
{
	_cleanup_(ksyms_freep) struct ksyms *k = NULL;
	_cleanup_(fclosep) FILE *f = NULL;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	r = read_lines(k, f);
	if (r < 0)
		return r;
	if (k->lines && !k->any_nonzero)
		return -EPERM;
	if (!k->n)
		return -EINVAL;
	r = index_syms(k);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(k);
	return 0;
}

int ksyms_lookup(const struct ksyms *k, uint64_t addr, const char **name,
		 uint64_t *offset)
{
	size_t lo = 0, hi = k->n;
	const struct ksym *s;

	/* The last symbol at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	s = &k->syms[lo - 1];
	if (addr >= k->ranges[s->group][1])
		return -ENOENT;
	*name = k->pool + s->name;
	*offset = addr - s->addr;
	return 0;
}

bool ksyms_in_sched_text(const struct ksyms *k, uint64_t addr)
{
	return k->sched_start && addr >= k->sched_start && addr < k->sched_end;
}

size_t ksyms_ranges(const struct ksyms *k, const uint64_t (**ranges)[2])
{
	*ranges = (const uint64_t(*)[2])k->ranges;
	return k->nranges;
}

size_t ksyms_count(const struct ksyms *k)
{
	return k->n;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->pool);
	free(k->ranges);
	free(k);
}
