// SPDX-License-Identifier: GPL-2.0-only
/*
 * A provider on the real library for the restart tests: --events
 * instant events "test"/"tick" with an int64 argument i = 0, 1, ...
 * (what check-archive counts), "wrote N" on stdout; then, once the file
 * --go names exists (the test has killed the manager meanwhile), --more
 * events with i going on, "wrote-more N"; then it waits to be killed,
 * keeping its buffer for the manager. --pace-us: a pause every 256
 * events, so that streaming saves keep up.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <fxt/provider.h>

static void write_events(unsigned long from, unsigned long to,
			 unsigned long pace_us)
{
	unsigned long i;

	for (i = from; i < to; i++) {
		TRACE_INSTANT("test", "tick", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I64("i", (int64_t)i));
		if (pace_us && i % 256 == 255)
			usleep(pace_us);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
		{ "more", required_argument, NULL, 'm' },
		{ "go", required_argument, NULL, 'g' },
		{ "pace-us", required_argument, NULL, 'p' },
		{}
	};
	unsigned long events = 1000, more = 0, pace_us = 0;
	const char *name = "resume-provider", *go = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			name = optarg;
			break;
		case 'e':
			events = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			more = strtoul(optarg, NULL, 10);
			break;
		case 'g':
			go = optarg;
			break;
		case 'p':
			pace_us = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: resume-provider --name N --events N [--go FILE --more N] [--pace-us U]\n");
			return 2;
		}
	}
	fxt_provider_init(name);
	write_events(0, events, pace_us);
	printf("wrote %lu\n", events);
	fflush(stdout);
	if (go) {
		while (access(go, F_OK) < 0)
			usleep(10000);
		write_events(events, events + more, pace_us);
		printf("wrote-more %lu\n", more);
		fflush(stdout);
	}
	for (;;)
		pause();
}
