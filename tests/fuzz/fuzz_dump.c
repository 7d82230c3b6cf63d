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
#include <unistd.h>

#define CHECK_ABORTS
#include "check.h"
#include "fuzz_target.h"
#include "fxt_reader.h"
#include "memfile.h"
#include "text_check.h"
#include "tracectl.h"

static struct memfile in = { .fd = -1 }, out = { .fd = -1 };
static char in_path[64];


static void setup(void)
{
	memfile_open(&in, "fuzz_dump.fxt");
	memfile_open(&out, "fuzz_dump.out");
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in.fd);
	CHECK(fflush(stdout) == 0 && dup2(out.fd, STDOUT_FILENO) >= 0,
	      "standard output to a memory file");
}

static void dump_once(const char *option)
{
	static const char not_fxt[] = "summary: 0 records";
	char *argv[] = { "dump", (char *)option, in_path, NULL };
	int argc = 3, status;
	size_t len;

	if (!option) {
		argv[1] = in_path;
		argv[2] = NULL;
		argc = 2;
	}
	memfile_rewind(&out);
	CHECK(fflush(stdout) == 0, "flushing standard output");
	status = cmd_dump(argc, argv);
	CHECK(fflush(stdout) == 0, "flushing standard output");
	len = memfile_read(&out);
	/* Only a file without any FXT (no magic, no record) is an error. */
	CHECK(status == TRACECTL_EXIT_OK ||
	      (status == TRACECTL_EXIT_FAIL && !option &&
	       memmem(out.text, len, not_fxt, strlen(not_fxt))),
	      "dump failed on a readable file");
	check_terminal_text("dump output", out.text, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (in.fd < 0)
		setup();
	memfile_rewind(&in);
	CHECK(pwrite(in.fd, data, len, 0) == (ssize_t)len,
	      "writing the input to a memory file");
	dump_once(NULL);
	dump_once("--provider-buffer");
	return 0;
}
