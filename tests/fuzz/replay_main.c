// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in for libFuzzer when a target is built without it (gcc, or the
 * normal build): feeds the target every regular file named on the
 * command line or found in a directory named there, one call per file,
 * in sorted order. A crash, sanitizer report, abort or an input that runs
 * for over INPUT_SECONDS_MAX (a hang) fails the run; the corpora thus
 * become a deterministic regression test.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_target.h"

/*
 * Inputs are at most 64 KiB: a sanitizer build on a loaded machine
 * takes a second or two. Far past that is a loop that does not end.
 */
#define INPUT_SECONDS_MAX 60u

static const char *current_input;

static void on_alarm(int sig)
{
	static const char msg[] = "replay: still running after the per-input "
				  "time limit (a hang): ";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)!write(STDERR_FILENO, current_input, strlen(current_input));
	(void)!write(STDERR_FILENO, "\n", 1);
	abort();
}

static int replay_file(const char *path, unsigned long *count)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *bigger = realloc(data, cap ? cap * 2 : 65536);

			if (!bigger) {
				fprintf(stderr, "replay: out of memory for %s\n", path);
				free(data);
				fclose(f);
				return -1;
			}
			data = bigger;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	/* the exact length, so that ASan catches a read past the input */
	data = realloc(data, len ? len : 1);
	current_input = path;
	alarm(INPUT_SECONDS_MAX);
	LLVMFuzzerTestOneInput(data, len);
	alarm(0);
	free(data);
	(*count)++;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int replay_path(const char *path, unsigned long *count)
{
	struct dirent **names;
	struct stat st;
	int i, n, ret = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path, count);
	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		fprintf(stderr, "replay: cannot list %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		char child[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(child, sizeof(child), "%s/%s", path,
				 names[i]->d_name);
			if (replay_path(child, count))
				ret = -1;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, ret = 0;

	signal(SIGALRM, on_alarm);
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...: runs the fuzz target "
				"once on every file\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i], &count))
			ret = 1;
	if (!count) {
		fprintf(stderr, "replay: no input files found; give a corpus\n");
		return 1;
	}
	/* stdout may belong to the target (the dump writes there) */
	fprintf(stderr, "replay: %lu inputs, no crash\n", count);
	return ret;
}
