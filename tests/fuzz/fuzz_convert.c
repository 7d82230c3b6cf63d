// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: FXT -> Chrome JSON over arbitrary bytes. The document is
 * written to a memory file through the smallest output buffer (so every
 * flush boundary is crossed), in object and in array format, and must
 * then be strict JSON: a converter that returns 0 promises a complete,
 * valid document whatever the input held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_ABORTS
#include "check.h"
#include "fuzz_target.h"
#include "fxt_json.h"
#include "fxt_reader.h"
#include "json_check.h"
#include "memfile.h"

static struct memfile out = { .fd = -1 };


static void convert_once(const uint8_t *data, size_t len, bool json_array)
{
	struct fxt_reader_options ropt = {
		.expect_magic = true,
		/* small enough that a skipped record can fit in the input */
		.max_large_record_bytes = json_array ? 512 : 1 << 20,
	};
	struct fxt_json_options jopt = {
		.json_array = json_array,
		.buffer_size = 1,	/* raised to the writer's minimum */
	};
	struct fxt_json_stats *stats = calloc(1, sizeof(*stats));
	struct fxt_reader *r = fxt_reader_open_mem(data, len, &ropt);
	const char *error;
	size_t out_len, at = 0;
	int ret;

	CHECK(stats && r, "allocation");
	memfile_rewind(&out);
	ret = fxt_json_convert(r, out.fd, &jopt, stats);
	CHECK(ret == 0, "conversion of memory input failed");
	out_len = memfile_read(&out);
	CHECK(stats->bytes_written == out_len, "bytes_written is not the output size");
	error = json_check(out.text, out_len, &at);
	if (error) {
		fprintf(stderr, "fuzz_convert: invalid JSON (%s) at byte %zu of %zu:\n%.*s\n",
			error, at, out_len, (int)(out_len - at < 200 ? out_len - at : 200),
			out.text + at);
		abort();
	}
	fxt_reader_close(r);
	free(stats);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (out.fd < 0)
		memfile_open(&out, "fuzz_convert.json");
	convert_once(data, len, false);
	convert_once(data, len, true);
	return 0;
}
