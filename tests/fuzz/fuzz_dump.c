// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: tracectl dump (cmd_dump() itself, linked in) over arbitrary
 * bytes, as an archive and with --provider-buffer. The input is handed
 * over as a memory file; standard output goes to another one and must be
 * text a terminal can show safely: valid UTF-8, no control characters but
 * the line ends, since the dump escapes whatever the input held.
 */
#define _GNU_SOURCE
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
#include "fxt_reader.h"
#include "tracectl.h"

static int in_fd = -1;
static int out_fd = -1;
static char in_path[64];
static char *text;
static size_t text_cap;

static void setup(void)
{
	in_fd = memfd_create("fuzz_dump.fxt", 0);
	out_fd = memfd_create("fuzz_dump.out", 0);
	CHECK(in_fd >= 0 && out_fd >= 0, "memfd_create");
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	CHECK(fflush(stdout) == 0 && dup2(out_fd, STDOUT_FILENO) >= 0,
	      "standard output to a memory file");
}

static void rewind_fd(int fd)
{
	CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0,
	      "rewinding a memory file");
}

static size_t read_output(void)
{
	off_t size = lseek(out_fd, 0, SEEK_END);

	CHECK(size >= 0, "lseek on the output");
	if ((size_t)size + 1 > text_cap) {
		free(text);
		text_cap = (size_t)size + 1;
		text = malloc(text_cap);
		CHECK(text != NULL, "allocation");
	}
	CHECK(pread(out_fd, text, (size_t)size, 0) == size,
	      "reading the output back");
	text[size] = 0;
	return (size_t)size;
}

static void check_text(size_t len)
{
	size_t i;

	CHECK(fxt_utf8_valid(text, len), "dump output is not valid UTF-8");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		CHECK((c >= 0x20 || c == '\n') && c != 0x7f,
		      "control byte 0x%02x at %zu in: %.*s", c, i,
		      (int)(len - i < 100 ? len - i : 100),
		      text + (i > 50 ? i - 50 : 0));
	}
}

static void dump_once(const char *option)
{
	char *argv[] = { "dump", (char *)option, in_path, NULL };
	int argc = 3, status;

	if (!option) {
		argv[1] = in_path;
		argv[2] = NULL;
		argc = 2;
	}
	rewind_fd(out_fd);
	CHECK(fflush(stdout) == 0, "flushing standard output");
	status = cmd_dump(argc, argv);
	CHECK(fflush(stdout) == 0, "flushing standard output");
	CHECK(status == TRACECTL_EXIT_OK, "dump failed on a readable file");
	check_text(read_output());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (in_fd < 0)
		setup();
	rewind_fd(in_fd);
	CHECK(pwrite(in_fd, data, len, 0) == (ssize_t)len,
	      "writing the input to a memory file");
	dump_once(NULL);
	dump_once("--provider-buffer");
	return 0;
}
