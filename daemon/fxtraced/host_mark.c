// SPDX-License-Identifier: GPL-2.0-only
/* The host and clock records: see host_mark.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "fxt_writer.h"
#include "host_clock_write.h"
#include "host_mark.h"
#include "trace_id.h"

struct host_identity {
	char machine_id[FXT_HOST_MACHINE_ID_LEN + 1];
	char boot_id[FXT_HOST_BOOT_ID_LEN + 1];
	struct utsname uts;
};

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void host_clock_read(struct fxt_clock_reading *out)
{
	uint64_t before, after, width, best = UINT64_MAX;
	struct fxt_clock_reading r;
	unsigned int i;

	*out = (struct fxt_clock_reading){ 0 };
	for (i = 0; i < FXT_CLOCK_TRIES; i++) {
		before = clock_ns(CLOCK_BOOTTIME);
		r.monotonic = clock_ns(CLOCK_MONOTONIC);
		r.realtime = clock_ns(CLOCK_REALTIME);
		after = clock_ns(CLOCK_BOOTTIME);
		width = after >= before ? after - before : UINT64_MAX;
		if (width >= best)
			continue;
		best = width;
		r.boottime = before + width / 2;
		r.error_ns = width - width / 2;
		*out = r;
	}
}

/*
 * dst gets the first line of path when it is exactly len characters of
 * a kind the file holds (hex digits and dashes), else "".
 */
static void read_id(const char *path, char *dst, size_t len)
{
	char buf[64];
	ssize_t n;
	int fd;

	dst[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < (ssize_t)len || (n > (ssize_t)len && buf[len] != '\n'))
		return;
	buf[len] = '\0';
	if (strspn(buf, "0123456789abcdef-") != len)
		return;
	memcpy(dst, buf, len + 1);
}

static void host_identity_read(struct host_identity *h)
{
	read_id("/etc/machine-id", h->machine_id, FXT_HOST_MACHINE_ID_LEN);
	read_id("/proc/sys/kernel/random/boot_id", h->boot_id,
		FXT_HOST_BOOT_ID_LEN);
	if (uname(&h->uts))
		memset(&h->uts, 0, sizeof(h->uts));
}

static struct fxt_writer_str uts_field(const char *field)
{
	return fxt_wstr_len(field, strnlen(field, FXT_HOST_NAME_MAX));
}

static int write_host(struct fxt_writer *w, const struct host_identity *h,
		      const char *trace_id, uint64_t ts)
{
	const struct fxt_host_fields f = {
		.machine_id = fxt_wstr(h->machine_id),
		.boot_id = fxt_wstr(h->boot_id),
		.hostname = uts_field(h->uts.nodename),
		.kernel = uts_field(h->uts.release),
		.trace_id = fxt_wstr(trace_id),
	};

	return fxt_host_write(w, &f, ts);
}

/* w's records into a section of provider id, committed. */
static int write_section(struct archive *a, uint32_t id,
			 const struct fxt_writer *w)
{
	bool visited = false;
	int r;

	r = fxt_writer_error(w);
	if (r < 0)
		return r;
	r = archive_begin_section(a, id, FXT_HOST_CLOCK_PROVIDER, &visited,
				  true);
	if (r < 0)
		return r;
	r = archive_write(a, fxt_writer_data(w), fxt_writer_size(w));
	if (r < 0) {
		/* The section begun stays: an empty one, harmless. */
		(void)archive_commit(a, id, 0);
		return r;
	}
	return archive_commit(a, id, w->records);
}

int host_mark_start(struct archive *a, uint32_t id, const char *trace_id,
		    const struct fxt_clock_reading *start)
{
	char random_id[FXT_HOST_TRACE_ID_LEN + 1];
	struct host_identity h;
	struct fxt_writer w;
	int r;

	if (!trace_id) {
		r = trace_id_new(random_id);
		if (r < 0)
			return r;
		trace_id = random_id;
	}
	host_identity_read(&h);
	fxt_writer_init(&w);
	(void)write_host(&w, &h, trace_id, start->boottime);
	(void)fxt_clock_write(&w, FXT_CLOCK_AT_START, start);
	r = write_section(a, id, &w);
	fxt_writer_release(&w);
	return r;
}

int host_mark_stop(struct archive *a, uint32_t id)
{
	struct fxt_clock_reading stop;
	struct fxt_writer w;
	int r;

	host_clock_read(&stop);
	fxt_writer_init(&w);
	(void)fxt_clock_write(&w, FXT_CLOCK_AT_STOP, &stop);
	r = write_section(a, id, &w);
	fxt_writer_release(&w);
	return r;
}
