// SPDX-License-Identifier: GPL-2.0-only
/* tracectl: drive the fxtrace manager and read FXT archives. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "fxtrace_config.h"
#include "tracectl.h"
#include "usage_error.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "start", cmd_start, "start a trace" },
	{ "stop", cmd_stop, "stop the trace and write the archive" },
	{ "status", cmd_status, "show the trace state and providers" },
	{ "snapshot", cmd_snapshot, "save what a circular trace holds now; it goes on" },
	{ "record", cmd_record, "trace while a command runs" },
	{ "dump", cmd_dump, "print every record of an FXT file" },
	{ "convert", cmd_convert, "convert an FXT file to Chrome JSON" },
	{ "summary", cmd_summary, "CPU time, wakeup latency and slices of an FXT file" },
	{ "report", cmd_report, "the summary as a self-contained HTML page" },
	{ "why", cmd_why, "the critical path of the slowest instances of a slice" },
	{ "merge", cmd_merge, "merge FXT files of several hosts into one timeline" },
	{ "export", cmd_export, "store archives in ClickHouse (fleet analysis)" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: tracectl COMMAND [OPTIONS]\n\nCommands:\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-9s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fprintf(out,
		"\nExamples:\n"
		"  sudo tracectl start -o trace.fxt --categories net,gfx\n"
		"  sudo tracectl stop\n"
		"  sudo tracectl record -o trace.fxt -- ./my-app\n"
		"  tracectl dump trace.fxt\n"
		"  tracectl convert trace.fxt -o trace.json\n"
		"  tracectl summary trace.fxt\n"
		"  tracectl report trace.fxt -o report.html\n"
		"  tracectl merge web1.fxt web2.fxt -o fleet.fxt\n"
		"  tracectl export -c http://127.0.0.1:8123/ trace.fxt\n"
		"\n'tracectl COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
	char prog[32];
	size_t i;

	if (argc < 2) {
		usage_error("tracectl", "no command given");
		return TRACECTL_EXIT_USAGE;
	}
	/* Each subcommand says what getopt found wrong, in one line. */
	opterr = 0;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return TRACECTL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version"))
		tracectl_version_exit();
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		/* getopt's own errors then start "tracectl CMD:" too. */
		snprintf(prog, sizeof(prog), "tracectl %s", argv[1]);
		argv[1] = prog;
		return subcommands[i].run(argc - 1, argv + 1);
	}
	if (argv[1][0] == '-')
		return tracectl_stray("tracectl", argv[1]);
	usage_error("tracectl", "unknown command '%s'", argv[1]);
	return TRACECTL_EXIT_USAGE;
}
