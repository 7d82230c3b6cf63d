// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost of naming user frames at a trace's stop: LOOKUPS frames
 * (default 100000) spread over FILES shared libraries (default 30: the
 * first ELF files by name of the GLOB, /usr/lib/x86_64-linux-gnu/lib*.so.*),
 * each a file offset turned into an ELF address and named, from a cold cache
 * (every file opened and its symbol table sorted within the figure).
 *
 *   usyms_bench [LOOKUPS [FILES [DIR_GLOB]]]
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "usyms.h"

struct probe {
	size_t file; /* index in paths[] */
	uint64_t offset;
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

/* Up to want regular ELF files of the glob, with their sizes. */
static size_t pick_files(const char *pattern, size_t want, char **paths,
			 uint64_t *sizes)
{
	uint8_t id[USYMS_BUILD_ID_MAX];
	glob_t g;
	size_t i, n = 0;

	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && n < want; i++) {
		struct stat st;
		int r = usyms_read_build_id(g.gl_pathv[i], id, sizeof(id));

		/* Mapped paths are resolved: no symlinks. */
		if ((r < 0 && r != -ENOENT) || lstat(g.gl_pathv[i], &st) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		paths[n] = strdup(g.gl_pathv[i]);
		sizes[n++] = (uint64_t)st.st_size;
	}
	globfree(&g);
	return n;
}

int main(int argc, char **argv)
{
	size_t lookups = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	size_t want = argc > 2 ? strtoul(argv[2], NULL, 0) : 30;
	const char *pattern = argc > 3 ? argv[3] : "/usr/lib/x86_64-linux-gnu/*.so.*";
	char **paths = calloc(want, sizeof(*paths));
	uint64_t *sizes = calloc(want, sizeof(*sizes)), seed = 88172645463325252ull;
	struct probe *probes = calloc(lookups, sizeof(*probes));
	uint32_t *ids = calloc(want, sizeof(*ids));
	size_t nfiles, i, named = 0, placed = 0;
	struct usyms *u;
	uint64_t t0, t1;

	if (!paths || !sizes || !probes || !ids || !lookups || !want)
		return 2;
	nfiles = pick_files(pattern, want, paths, sizes);
	if (!nfiles) {
		fprintf(stderr, "usyms_bench: no ELF file matches %s\n", pattern);
		return 1;
	}
	for (i = 0; i < lookups; i++) {
		size_t f = next_random(&seed) % nfiles;

		probes[i] = (struct probe){ f, next_random(&seed) % sizes[f] };
	}
	if (usyms_new(&u) < 0)
		return 1;
	t0 = now_ns();
	for (i = 0; i < lookups; i++) {
		size_t f = probes[i].file;
		const char *name;
		uint64_t vaddr;

		/* Each file opened once, at its first lookup (timed). */
		if (!ids[f] && usyms_add_path(u, paths[f], &ids[f]) < 0)
			continue;
		if (usyms_file_offset_to_vaddr(u, ids[f], probes[i].offset,
					       &vaddr) < 0)
			continue;
		placed++;
		named += usyms_lookup(u, ids[f], NULL, 0, vaddr, &name) == 0;
	}
	t1 = now_ns();
	usyms_free(u);
	printf("usyms_bench: %zu lookups over %zu files: %zu in loaded segments, %zu named; "
	       "%.1f ms total, %.0f ns per lookup\n", lookups, nfiles, placed, named,
	       (double)(t1 - t0) / 1e6, (double)(t1 - t0) / (double)lookups);
	for (i = 0; i < nfiles; i++)
		free(paths[i]);
	free(ids);
	free(paths);
	free(sizes);
	free(probes);
	return 0;
}
