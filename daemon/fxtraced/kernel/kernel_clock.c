// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's clock and the manager's time namespace: the offset, and
 * where the times of the kernel side's records are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/fxt.h>
#include <fxt/ksample.h>
#include <fxt/sched.h>

#include "cleanup.h"
#include "kernel_clock.h"

#define OFFSETS_MAX 512
#define NS_PER_S 1000000000ll

/* "<seconds> <nanoseconds>" at p (up to the line's end) in ns. */
static int parse_offset(const char *p, int64_t *ns)
{
	long long sec;
	unsigned long nsec;
	char *end;

	errno = 0;
	sec = strtoll(p, &end, 10);
	if (errno || end == p || sec > INT64_MAX / NS_PER_S - 1 ||
	    sec < INT64_MIN / NS_PER_S + 1)
		return -EINVAL;
	p = end;
	nsec = strtoul(p, &end, 10);
	if (errno || end == p || nsec >= NS_PER_S)
		return -EINVAL;
	*ns = (int64_t)sec * NS_PER_S + (int64_t)nsec;
	return 0;
}

int kernel_clock_parse_offsets(const char *text, size_t len,
			       int64_t *boottime_ns)
{
	static const char key[] = "boottime";
	char buf[OFFSETS_MAX + 1];
	const char *line;

	if (len > OFFSETS_MAX)
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (line = buf; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, sizeof(key) - 1) &&
		    (line[sizeof(key) - 1] == ' ' ||
		     line[sizeof(key) - 1] == '\t'))
			return parse_offset(line + sizeof(key) - 1,
					    boottime_ns);
	}
	return -EINVAL;
}

int kernel_clock_read_offset(const char *path, int64_t *boottime_ns)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	char text[OFFSETS_MAX];
	ssize_t n;

	*boottime_ns = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	n = read(fd, text, sizeof(text));
	if (n < 0)
		return -errno;
	return kernel_clock_parse_offsets(text, (size_t)n, boottime_ns);
}

size_t kernel_record_ts_word(const uint64_t *rec, size_t words)
{
	switch (FXT_GET(rec[0], FXT_HDR_TYPE)) {
	case FXT_RECORD_EVENT:
	case FXT_RECORD_SCHEDULING:
	case FXT_RECORD_LOG:
		return 1;
	case FXT_RECORD_LARGE:
		return words > FXT_KSAMPLE_TS_WORD &&
				       fxt_ksample_is(rec[0], rec[1]) ?
			       FXT_KSAMPLE_TS_WORD :
			       0;
	default:
		return 0;
	}
}

/* A sched_latency instant (fxt_sched_write_latency()): its last word. */
static bool is_latency(const uint64_t *rec, size_t words)
{
	return words == FXT_SCHED_LATENCY_WORDS &&
	       FXT_GET(rec[0], FXT_HDR_TYPE) == FXT_RECORD_EVENT &&
	       FXT_GET(rec[0], FXT_EVENT_TYPE) == FXT_EVENT_INSTANT &&
	       FXT_GET(rec[0], FXT_EVENT_CATEGORY) == FXT_SCHED_STR_CAT_SCHED &&
	       FXT_GET(rec[0], FXT_EVENT_NAME) == FXT_SCHED_STR_LATENCY;
}

void kernel_clock_shift(uint64_t *buf, size_t words, int64_t offset_ns)
{
	size_t pos = 0, n, at;

	if (!offset_ns)
		return;
	while (pos < words) {
		n = (size_t)(fxt_record_bytes(buf[pos]) / FXT_WORD_BYTES);
		if (!n || n > words - pos)
			return;
		at = kernel_record_ts_word(buf + pos, n);
		if (at && at < n)
			buf[pos + at] += (uint64_t)offset_ns;
		if (is_latency(buf + pos, n))
			buf[pos + n - 1] += (uint64_t)offset_ns;
		pos += n;
	}
}
