// SPDX-License-Identifier: GPL-2.0-only
/* An archive's host and clock records: see host_clock.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "host_clock.h"

static const struct fxt_arg *arg_of(const struct fxt_record *rec,
				    const char *name, enum fxt_arg_type type)
{
	const struct fxt_arg *a = fxt_record_arg(rec, name, strlen(name));

	return a && a->type == type ? a : NULL;
}

/* dst (size bytes) gets the string argument name, or "" if unfit. */
static void copy_field(char *dst, size_t size, const struct fxt_record *rec,
		       const char *name)
{
	const struct fxt_arg *a = arg_of(rec, name, FXT_ARG_STRING);
	const unsigned char *s;
	uint32_t i;

	dst[0] = '\0';
	if (!a || a->value.str.len >= size)
		return;
	s = (const unsigned char *)a->value.str.data;
	for (i = 0; i < a->value.str.len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return;
	memcpy(dst, a->value.str.data, a->value.str.len);
	dst[a->value.str.len] = '\0';
}

static int take_host(struct fxt_host_clock *hc, const struct fxt_record *rec)
{
	if (hc->has_host)
		return 1;
	copy_field(hc->machine_id, sizeof(hc->machine_id), rec,
		   FXT_HOST_ARG_MACHINE_ID);
	copy_field(hc->boot_id, sizeof(hc->boot_id), rec, FXT_HOST_ARG_BOOT_ID);
	copy_field(hc->hostname, sizeof(hc->hostname), rec,
		   FXT_HOST_ARG_HOSTNAME);
	copy_field(hc->kernel, sizeof(hc->kernel), rec, FXT_HOST_ARG_KERNEL);
	copy_field(hc->trace_id, sizeof(hc->trace_id), rec,
		   FXT_HOST_ARG_TRACE_ID);
	hc->has_host = true;
	return 1;
}

static int take_clock(struct fxt_host_clock *hc, const struct fxt_record *rec)
{
	const struct fxt_arg *b =
		arg_of(rec, FXT_CLOCK_ARG_BOOTTIME, FXT_ARG_UINT64);
	const struct fxt_arg *m =
		arg_of(rec, FXT_CLOCK_ARG_MONOTONIC, FXT_ARG_UINT64);
	const struct fxt_arg *r =
		arg_of(rec, FXT_CLOCK_ARG_REALTIME, FXT_ARG_UINT64);
	const struct fxt_arg *e =
		arg_of(rec, FXT_CLOCK_ARG_ERROR_NS, FXT_ARG_UINT64);
	const struct fxt_arg *at =
		arg_of(rec, FXT_CLOCK_ARG_AT, FXT_ARG_STRING);
	struct fxt_clock_reading reading;

	if (!b || !m || !r || !e || !at)
		return 0;
	reading = (struct fxt_clock_reading){
		.boottime = b->value.u64,
		.monotonic = m->value.u64,
		.realtime = r->value.u64,
		.error_ns = e->value.u64,
	};
	if (fxt_str_is(at->value.str, FXT_CLOCK_AT_START)) {
		if (!hc->has_start)
			hc->start = reading;
		hc->has_start = true;
		return 1;
	}
	if (fxt_str_is(at->value.str, FXT_CLOCK_AT_STOP)) {
		hc->stop = reading;
		hc->has_stop = true;
		return 1;
	}
	return 0;
}

/* An instant of the manager's provider and category. */
static bool is_manager_instant(const struct fxt_record *rec)
{
	return rec->type == FXT_RECORD_EVENT &&
	       rec->event.type == FXT_EVENT_INSTANT && rec->provider &&
	       fxt_str_is(rec->provider->name, FXT_HOST_CLOCK_PROVIDER) &&
	       fxt_str_is(rec->event.category, FXT_HOST_CLOCK_CATEGORY);
}

int fxt_host_clock_take(struct fxt_host_clock *hc, const struct fxt_record *rec)
{
	if (!is_manager_instant(rec))
		return 0;
	if (fxt_str_is(rec->event.name, FXT_HOST_NAME))
		return take_host(hc, rec);
	if (fxt_str_is(rec->event.name, FXT_CLOCK_NAME))
		return take_clock(hc, rec);
	return 0;
}

int fxt_host_merge_take(struct fxt_merge_input *in,
			const struct fxt_record *rec)
{
	if (!is_manager_instant(rec) ||
	    !fxt_str_is(rec->event.name, FXT_MERGE_NAME))
		return 0;
	copy_field(in->host, sizeof(in->host), rec, FXT_MERGE_ARG_HOST);
	copy_field(in->trace_id, sizeof(in->trace_id), rec,
		   FXT_MERGE_ARG_TRACE_ID);
	return 1;
}

int fxt_host_merge_cpus_take(struct fxt_merge_cpus *c,
			     const struct fxt_record *rec)
{
	const struct fxt_arg *base, *cpus;

	if (!is_manager_instant(rec) ||
	    !fxt_str_is(rec->event.name, FXT_MERGE_CPUS_NAME))
		return 0;
	copy_field(c->host, sizeof(c->host), rec, FXT_MERGE_ARG_HOST);
	base = arg_of(rec, FXT_MERGE_ARG_CPU_BASE, FXT_ARG_UINT64);
	cpus = arg_of(rec, FXT_MERGE_ARG_CPUS, FXT_ARG_UINT64);
	c->cpu_base = base && cpus ? base->value.u64 : 0;
	c->cpus = base && cpus ? cpus->value.u64 : 0;
	return 1;
}

int fxt_host_clock_scan(const char *path, struct fxt_host_clock *hc)
{
	return fxt_host_clock_scan_with(path, hc, NULL, NULL);
}

int fxt_host_clock_scan_with(const char *path, struct fxt_host_clock *hc,
			     int (*also)(void *ctx,
					 const struct fxt_record *rec),
			     void *ctx)
{
	const struct fxt_reader_options opt = {
		.expect_magic = true,
		.refuse_not_fxt = true,
	};
	struct fxt_reader *reader;
	struct fxt_record rec;
	bool found = false;
	int fd, r;

	memset(hc, 0, sizeof(*hc));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	reader = fxt_reader_open_fd(fd, &opt);
	if (!reader) {
		close(fd);
		return -ENOMEM;
	}
	while ((r = fxt_reader_next(reader, &rec)) > 0) {
		if (fxt_host_clock_take(hc, &rec))
			found = true;
		else if (also && (r = also(ctx, &rec)) < 0)
			break;
	}
	if (!r && fxt_reader_not_fxt(reader))
		r = -EBADMSG;
	fxt_reader_close(reader);
	close(fd);
	if (r < 0)
		return r;
	return found ? 0 : -ENODATA;
}

/*
 * y of x on the line through (x0, y0) with slope dy / dx (dx > 0): the
 * product of two 64-bit magnitudes fits 128 bits, the sum saturates.
 */
static uint64_t line_at(uint64_t x, uint64_t x0, uint64_t y0, uint64_t dx,
			uint64_t dy)
{
	bool ahead = x >= x0;
	uint64_t d = ahead ? x - x0 : x0 - x;
	unsigned __int128 m = ((unsigned __int128)d * dy + dx / 2) / dx;

	if (ahead)
		return m > UINT64_MAX - y0 ? UINT64_MAX : y0 + (uint64_t)m;
	return m > y0 ? 0 : y0 - (uint64_t)m;
}

/* Both readings, the stop after the start on both clocks. */
static bool has_line(const struct fxt_host_clock *hc)
{
	return hc->has_start && hc->has_stop &&
	       hc->stop.boottime > hc->start.boottime &&
	       hc->stop.realtime > hc->start.realtime;
}

static const struct fxt_clock_reading *anchor(const struct fxt_host_clock *hc)
{
	if (hc->has_start)
		return &hc->start;
	return hc->has_stop ? &hc->stop : NULL;
}

uint64_t fxt_host_clock_to_realtime(const struct fxt_host_clock *hc,
				    uint64_t boottime_ns)
{
	const struct fxt_clock_reading *a = anchor(hc);

	if (!a)
		return boottime_ns;
	if (!has_line(hc))
		return line_at(boottime_ns, a->boottime, a->realtime, 1, 1);
	return line_at(boottime_ns, a->boottime, a->realtime,
		       hc->stop.boottime - a->boottime,
		       hc->stop.realtime - a->realtime);
}

uint64_t fxt_host_clock_from_realtime(const struct fxt_host_clock *hc,
				      uint64_t realtime_ns)
{
	const struct fxt_clock_reading *a = anchor(hc);

	if (!a)
		return realtime_ns;
	if (!has_line(hc))
		return line_at(realtime_ns, a->realtime, a->boottime, 1, 1);
	return line_at(realtime_ns, a->realtime, a->boottime,
		       hc->stop.realtime - a->realtime,
		       hc->stop.boottime - a->boottime);
}

bool fxt_host_clock_drift_ppm(const struct fxt_host_clock *hc, double *ppm)
{
	double db, dr;

	if (!has_line(hc))
		return false;
	db = (double)(hc->stop.boottime - hc->start.boottime);
	dr = (double)(hc->stop.realtime - hc->start.realtime);
	*ppm = (dr - db) / db * 1e6;
	return true;
}
