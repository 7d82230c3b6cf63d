// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy is byte for byte (an FXT archive is a sequence of records:
 * a provider section appended after it is read as one more provider);
 * the events are written with inline strings and threads, so that they
 * depend on no table of the archive.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fxt_writer.h"
#include "why_annotate.h"

#define COPY_CHUNK (1u << 20)

static int copy_archive(int in_fd, int out_fd)
{
	static char buf[COPY_CHUNK];
	ssize_t n, done, k;

	if (lseek(in_fd, 0, SEEK_SET) < 0)
		return -errno;
	for (;;) {
		n = read(in_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		for (done = 0; done < n; done += k) {
			k = write(out_fd, buf + done, (size_t)(n - done));
			if (k < 0 && errno == EINTR)
				k = 0;
			else if (k <= 0)
				return k < 0 ? -errno : -EIO;
		}
	}
}

struct hop {
	uint64_t tid, pid;
	uint64_t start_ns, end_ns;
	uint64_t ns;
};

static struct hop hop_of(const struct why_report *r, const struct why_tree *t,
			 uint32_t node, size_t k)
{
	const struct why_node *n = &t->nodes[node];
	struct hop h = { k ? n->tid : t->tid, 0, k ? n->first_ns : t->start_ns,
			 k ? n->last_ns : t->end_ns, n->ns };
	struct thread_names nm;

	trace_summary_names(r->summary, h.tid, 0, &nm);
	h.pid = nm.pid;
	return h;
}

static struct fxt_writer_event event_on(const struct hop *h, uint64_t ts,
					const char *name,
					const struct fxt_arg_in *args,
					unsigned int nargs)
{
	return (struct fxt_writer_event){
		.ts = ts,
		.thread = fxt_wthread(h->pid, h->tid),
		.category = fxt_wstr("why"),
		.name = fxt_wstr(name),
		.args = args,
		.nargs = nargs,
	};
}

/* The slice and the instant of hop k (0: the interval itself). */
static void put_hop(struct fxt_writer *w, const struct why_report *r,
		    const struct why_tree *t, const struct hop *h, size_t k)
{
	uint64_t wall = t->end_ns - t->start_ns;
	double share = wall ? (double)h->ns / (double)wall : 0;
	struct fxt_arg_in args[3] = {
		fxt_warg_uint64(fxt_wstr("hop"), k),
		fxt_warg_uint64(fxt_wstr("held_up_ns"), h->ns),
		fxt_warg_double(fxt_wstr("share"), share),
	};
	struct fxt_writer_event ev;
	char name[96];

	if (k)
		snprintf(name, sizeof(name), "why: hop %zu, %.1f%% of the interval",
			 k, share * 100);
	else
		snprintf(name, sizeof(name), "why: %s",
			 r->slice ? r->slice : "the interval");
	ev = event_on(h, h->start_ns, name, args, 3);
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &ev, h->end_ns);
	ev = event_on(h, h->start_ns, name, args, 3);
	fxt_write_instant(w, &ev, FXT_SCOPE_THREAD);
}

static void put_tree(struct fxt_writer *w, const struct why_report *r,
		     const struct why_tree *t, size_t instance)
{
	uint32_t hops[WHY_DEPTH_MAX + 1];
	size_t k, n = why_path_hops(t, hops, WHY_DEPTH_MAX + 1);
	struct fxt_writer_event ev;
	struct hop prev, h;
	uint64_t id;

	for (k = 0; k < n; k++) {
		h = hop_of(r, t, hops[k], k);
		put_hop(w, r, t, &h, k);
		if (k) {
			id = WHY_FLOW_ID_BASE | (uint64_t)instance << 16 | k;
			ev = event_on(&prev, h.start_ns, "why", NULL, 0);
			fxt_write_event(w, FXT_EVENT_FLOW_BEGIN, &ev, id);
			ev = event_on(&h, h.start_ns, "why", NULL, 0);
			fxt_write_event(w, FXT_EVENT_FLOW_END, &ev, id);
		}
		prev = h;
	}
}

int why_annotate(int in_fd, int out_fd, const struct why_report *r,
		 uint32_t provider_id)
{
	struct fxt_writer w;
	size_t i;
	int err = copy_archive(in_fd, out_fd);

	if (err)
		return err;
	fxt_writer_init_fd(&w, out_fd);
	fxt_write_provider_info(&w, provider_id, WHY_ANNOTATE_PROVIDER,
				strlen(WHY_ANNOTATE_PROVIDER));
	fxt_write_provider_section(&w, provider_id);
	fxt_write_init(&w, 1000000000ull);
	for (i = 0; i < r->ntrees && i < 0xffff; i++)
		put_tree(&w, r, &r->trees[i], i);
	err = fxt_writer_flush(&w);
	if (!err)
		err = fxt_writer_error(&w);
	fxt_writer_release(&w);
	return err;
}
