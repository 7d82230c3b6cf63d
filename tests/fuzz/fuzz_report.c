// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: tracectl summary (the table, and --json with --force) and
 * tracectl report, the commands themselves (linked in), over arbitrary
 * bytes handed over as a memory file. Each exits 0, or 1 for input that
 * is not FXT, saying so; what reaches a terminal (the table, every
 * diagnostic) is safe there; the JSON is strict JSON and the report a
 * whole page. fuzz_summary checks the figures behind them.
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
#include "json_check.h"
#include "memfile.h"
#include "text_check.h"
#include "tracectl.h"

static struct memfile in = { .fd = -1 }, out = { .fd = -1 },
		      err = { .fd = -1 }, page = { .fd = -1 };
static char in_path[64], page_path[64];
static int real_stderr = -1;

static void setup(void)
{
	memfile_open(&in, "fuzz_report.fxt");
	memfile_open(&out, "fuzz_report.out");
	memfile_open(&err, "fuzz_report.err");
	memfile_open(&page, "fuzz_report.html");
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in.fd);
	snprintf(page_path, sizeof(page_path), "/proc/self/fd/%d", page.fd);
	real_stderr = dup(STDERR_FILENO);
	CHECK(real_stderr >= 0 && fflush(stdout) == 0 &&
	      dup2(out.fd, STDOUT_FILENO) >= 0,
	      "standard output to a memory file");
}

/* The command's exit status; its stdout and stderr in out and err. */
static int run(int (*cmd)(int, char **), char **argv)
{
	int argc = 0, status;
	size_t len;

	while (argv[argc])
		argc++;
	memfile_rewind(&out);
	memfile_rewind(&err);
	CHECK(fflush(stdout) == 0 && fflush(stderr) == 0 &&
	      dup2(err.fd, STDERR_FILENO) >= 0, "standard error to a memory file");
	status = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	/* the checks' own messages must reach the real standard error */
	CHECK(dup2(real_stderr, STDERR_FILENO) >= 0, "restoring standard error");
	len = memfile_read(&err);
	check_terminal_text(argv[0], err.text, len);
	CHECK(status == TRACECTL_EXIT_OK ||
	      (status == TRACECTL_EXIT_FAIL &&
	       strstr(err.text, "is not an FXT archive")),
	      "%s failed on a readable file (exit %d): %s", argv[0], status,
	      err.text);
	return status;
}

static void summary_table(void)
{
	char *argv[] = { "summary", in_path, NULL };
	size_t len;

	if (run(cmd_summary, argv))
		return;
	len = memfile_read(&out);
	check_terminal_text("summary table", out.text, len);
}

/* --force reads what is not FXT too: only an empty input fails. */
static void summary_json(void)
{
	char *argv[] = { "summary", "--json", "--force", in_path, NULL };
	size_t len, at = 0;
	const char *error;

	if (run(cmd_summary, argv))
		return;
	len = memfile_read(&out);
	error = json_check(out.text, len, &at);
	CHECK(!error, "summary --json: invalid JSON (%s) at byte %zu", error, at);
}

static void report(void)
{
	char *argv[] = { "report", "-o", page_path, in_path, NULL };
	size_t len;

	memfile_rewind(&page);
	if (run(cmd_report, argv))
		return;
	len = memfile_read(&page);
	CHECK(len && strstr(page.text, "</html>"), "report: not a whole page");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (in.fd < 0)
		setup();
	memfile_rewind(&in);
	CHECK(pwrite(in.fd, data, len, 0) == (ssize_t)len,
	      "writing the input to a memory file");
	summary_table();
	summary_json();
	report();
	return 0;
}
