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
#include <sys/mman.h>
#include <unistd.h>

#define CHECK_ABORTS
#include "check.h"
#include "fuzz_target.h"
#include "fxt_json.h"
#include "fxt_reader.h"
#include "json_check.h"

static int out_fd = -1;
static char *text;
static size_t text_cap;

/* The memory file's whole content, NUL-terminated for the report. */
static size_t read_output(void)
{
	off_t size = lseek(out_fd, 0, SEEK_END);
	ssize_t got;

	CHECK(size >= 0, "lseek on the memory file");
	if ((size_t)size + 1 > text_cap) {
		free(text);
		text_cap = (size_t)size + 1;
		text = malloc(text_cap);
		CHECK(text != NULL, "allocation");
	}
	got = pread(out_fd, text, (size_t)size, 0);
	CHECK(got == size, "reading the memory file back");
	text[size] = 0;
	return (size_t)size;
}

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
	CHECK(ftruncate(out_fd, 0) == 0, "ftruncate on the memory file");
	CHECK(lseek(out_fd, 0, SEEK_SET) == 0, "lseek on the memory file");
	ret = fxt_json_convert(r, out_fd, &jopt, stats);
	CHECK(ret == 0, "conversion of memory input failed");
	out_len = read_output();
	CHECK(stats->bytes_written == out_len,
	      "bytes_written is not the output size");
	error = json_check(text, out_len, &at);
	CHECK(!error, "invalid JSON (%s) at byte %zu of %zu:\n%.*s", error,
	      at, out_len, (int)(out_len - at < 200 ? out_len - at : 200),
	      text + at);
	fxt_reader_close(r);
	free(stats);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (out_fd < 0) {
		out_fd = memfd_create("fuzz_convert.json", MFD_CLOEXEC);
		CHECK(out_fd >= 0, "memfd_create");
	}
	convert_once(data, len, false);
	convert_once(data, len, true);
	return 0;
}
