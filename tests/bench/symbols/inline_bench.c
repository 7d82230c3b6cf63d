// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost of inline frames when naming stacks: STACKS stacks (default
 * 2000) of DEPTH frames (default 16), each frame a random address inside
 * a random function of FILE's symbol table (nm -S), named as the manager
 * names a user frame: usyms_lookup() alone ("symbols"), or with the
 * inline chain it now looks up for every new frame ("inline"). Each run
 * starts cold (a new struct usyms: the file opened, its symbol table
 * sorted, its DWARF read within the figure); RUNS runs (default 5), the
 * median printed, with the frames found inlined and the process's peak
 * RSS (VmHWM): run once per mode to compare the memory.
 *
 *   inline_bench symbols|inline FILE [STACKS [DEPTH [RUNS]]]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "usyms.h"
#include "usyms_inline.h"

#define FUNCS_MAX (1u << 20)
#define RUNS_MAX 32

struct func {
	uint64_t addr, size;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* FILE's functions with a size, from nm -S (a bench: not the manager). */
static size_t read_funcs(const char *path, struct func *f)
{
	char cmd[4200], line[1024], type;
	unsigned long long addr, size;
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (n < FUNCS_MAX && fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %llx %c", &addr, &size, &type) == 3 &&
		    (type == 't' || type == 'T') && size > 1 && addr)
			f[n++] = (struct func){ addr, size };
	pclose(p);
	return n;
}

static long vm_hwm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* One cold run: ns for all the stacks; frames inlined in *inlined. */
static uint64_t run(const char *path, const uint64_t *pcs, size_t n,
		    int with_inline, uint64_t *inlined)
{
	const char *names[USYMS_INLINE_MAX], *name;
	struct usyms *u = NULL;
	uint64_t start = now_ns();
	uint32_t id;
	size_t i;

	*inlined = 0;
	if (usyms_new(&u) < 0 || usyms_add_path(u, path, &id) < 0) {
		fprintf(stderr, "inline_bench: %s: cannot open\n", path);
		exit(1);
	}
	for (i = 0; i < n; i++) {
		usyms_lookup(u, id, NULL, 0, pcs[i], &name);
		if (with_inline &&
		    usyms_inline_chain(u, id, NULL, 0, pcs[i], names,
				       USYMS_INLINE_MAX) > 0)
			(*inlined)++;
	}
	start = now_ns() - start;
	usyms_free(u);
	return start;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

int main(int argc, char **argv)
{
	size_t stacks = argc > 3 ? strtoul(argv[3], NULL, 10) : 2000;
	size_t depth = argc > 4 ? strtoul(argv[4], NULL, 10) : 16;
	size_t runs = argc > 5 ? strtoul(argv[5], NULL, 10) : 5;
	struct func *funcs = calloc(FUNCS_MAX, sizeof(*funcs));
	uint64_t ns[RUNS_MAX], seed = 0x9e3779b97f4a7c15ull, inlined = 0;
	uint64_t *pcs;
	size_t nfuncs, i;
	int with_inline;

	if (argc < 3 ||
	    (strcmp(argv[1], "symbols") && strcmp(argv[1], "inline")) ||
	    !stacks || !depth || !runs || runs > RUNS_MAX) {
		fprintf(stderr, "usage: inline_bench symbols|inline FILE "
				"[STACKS [DEPTH [RUNS]]]\n");
		return 2;
	}
	with_inline = !strcmp(argv[1], "inline");
	nfuncs = funcs ? read_funcs(argv[2], funcs) : 0;
	pcs = calloc(stacks * depth, sizeof(*pcs));
	if (!nfuncs || !pcs) {
		fprintf(stderr, "inline_bench: %s: no functions\n", argv[2]);
		return 1;
	}
	for (i = 0; i < stacks * depth; i++) {
		const struct func *f = &funcs[next_random(&seed) % nfuncs];

		pcs[i] = f->addr + next_random(&seed) % f->size;
	}
	for (i = 0; i < runs; i++)
		ns[i] = run(argv[2], pcs, stacks * depth, with_inline,
			    &inlined);
	qsort(ns, runs, sizeof(*ns), cmp_u64);
	printf("mode=%s functions=%zu stacks=%zu depth=%zu runs=%zu\n"
	       "median_ms=%.1f ns_per_stack=%" PRIu64 " frames_inlined=%" PRIu64
	       " of %zu vm_hwm_kb=%ld\n",
	       argv[1], nfuncs, stacks, depth, runs, ns[runs / 2] / 1e6,
	       ns[runs / 2] / stacks, inlined, stacks * depth, vm_hwm_kb());
	free(pcs);
	free(funcs);
	return 0;
}
