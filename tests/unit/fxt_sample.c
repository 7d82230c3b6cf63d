// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-sample: writes the unit tests' sample archive (every record kind)
 * to FILE, for tests of the tracectl binary.
 *   fxt-sample FILE                  conforming archive
 *   fxt-sample --nonconforming FILE  plus a record with reserved bits set
 *   fxt-sample --malformed FILE      plus an argument running past its record
 *   fxt-sample --damaged SEED FILE   with 1 to 8 seeded bit flips
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static void append_nonconforming(struct fxt_writer *w)
{
	uint64_t words[2] = { fxt_init_header() | (1ull << 40), 1000000000 };

	fxt_write_raw(w, words, sizeof(words));
}

static void append_malformed(struct fxt_writer *w)
{
	uint64_t words[5] = {
		fxt_event_header(5, FXT_EVENT_INSTANT, 1, 0, 0, 0), 1, 2, 3,
		fxt_arg_header(FXT_ARG_INT64, 3, 0, 0),
	};

	fxt_write_raw(w, words, sizeof(words));
}

static void damage(struct fxt_writer *w, unsigned long seed)
{
	unsigned char *p = (unsigned char *)w->buf;
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	unsigned int i, n;

	for (i = 0, n = 1 + seed % 8; i < n; i++) {
		size_t bit;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bit = x % (w->len * 8);
		p[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc >= 3 ? argv[1] : "";
	const char *path = argv[argc - 1];
	struct fxt_writer w;
	FILE *f;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "Usage: fxt-sample [--nonconforming|--malformed|--damaged SEED] FILE\n");
		return 2;
	}
	fxt_writer_init(&w);
	sample_archive(&w);
	if (!strcmp(mode, "--nonconforming"))
		append_nonconforming(&w);
	else if (!strcmp(mode, "--malformed"))
		append_malformed(&w);
	else if (!strcmp(mode, "--damaged") && argc == 4)
		damage(&w, strtoul(argv[2], NULL, 10));
	else if (*mode)
		return 2;
	f = fopen(path, "wb");
	if (!f || fxt_writer_error(&w) ||
	    fwrite(fxt_writer_data(&w), 1, fxt_writer_size(&w), f) !=
		    fxt_writer_size(&w) ||
	    fclose(f)) {
		perror(path);
		return 1;
	}
	fxt_writer_release(&w);
	return 0;
}
