// SPDX-License-Identifier: GPL-2.0-only
/*
 * Peer for the convert benchmark: decodes every record of FILE with the
 * streaming reader and does nothing else, so that the cost of reading
 * and the cost of writing JSON can be told apart.
 *
 *   convert_bench_read FILE
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fxt_reader.h"

int main(int argc, char **argv)
{
	struct fxt_reader_options opt = { .expect_magic = true };
	struct fxt_record rec;
	struct fxt_reader *r;
	uint64_t args = 0;
	int fd, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: convert_bench_read FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	r = fxt_reader_open_fd(fd, &opt);
	if (!r)
		return 1;
	while ((ret = fxt_reader_next(r, &rec)) > 0)
		args += rec.nargs;
	printf("%" PRIu64 " records, %" PRIu64 " args\n",
	       fxt_reader_stats(r)->records, args);
	fxt_reader_close(r);
	close(fd);
	return ret < 0;
}
