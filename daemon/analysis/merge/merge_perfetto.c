// SPDX-License-Identifier: GPL-2.0-only
/* An input's Perfetto blobs rewritten: see merge_perfetto.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/perfetto.h>
#include <fxt/stacks.h>

#include "merge_perfetto.h"

/* A rewritten packet grows by at most 9 bytes per varint it had. */
#define BYTES_MAX (8ull * MERGE_PERFETTO_PACKET_MAX)
#define PACKET_TAG ((uint64_t)PF_TRACE_PACKET << 3 | FXT_PB_LEN)

/* The messages whose fields are rewritten. */
enum pf_msg { M_PACKET, M_PERF, M_STACK, M_TASK, M_OTHER };

/* n more bytes at the end of o: NULL past BYTES_MAX or out of memory. */
static uint8_t *room(struct merge_bytes *o, size_t n)
{
	size_t need = o->len + n, cap = o->cap * 2 > need ? o->cap * 2 : need;
	uint8_t *b = o->b;

	if (n > BYTES_MAX - o->len)
		return NULL;
	if (need > o->cap && !(b = realloc(o->b, cap)))
		return NULL;
	if (need > o->cap) {
		o->b = b;
		o->cap = cap;
	}
	o->len = need;
	return o->b + need - n;
}

static int put(struct merge_bytes *o, const void *data, size_t n)
{
	uint8_t *b = n ? room(o, n) : NULL;

	if (!n) /* an empty blob: nothing to keep */
		return 0;
	if (!b)
		return -ENOMEM;
	memcpy(b, data, n);
	return 0;
}

static int put_varint(struct merge_bytes *o, uint64_t v)
{
	uint8_t tmp[FXT_PB_VARINT_MAX];

	return put(o, tmp, fxt_pb_put_varint(tmp, v));
}

/* The message a length-delimited field holds, if one rewritten. */
static enum pf_msg nested(enum pf_msg m, uint64_t field)
{
	if (m == M_PACKET && field == PF_PACKET_PERF_SAMPLE)
		return M_PERF;
	if (m == M_PACKET && field == PF_PACKET_STACK_SAMPLE)
		return M_STACK;
	if (m == M_STACK && field == PF_STACK_TASK_CONTEXT)
		return M_TASK;
	return M_OTHER;
}

static uint64_t pid32(struct merge_host *h, uint64_t pid)
{
	return (uint32_t)merge_koid(h, pid);
}

/* A varint field's new value: 0, or -EBADMSG if it has none. */
static int map_varint(struct merge_host *h, enum pf_msg m, uint64_t field,
		      uint64_t *v)
{
	if (m == M_PACKET && field == PF_PACKET_TIMESTAMP) {
		*v = merge_clock(h, *v);
	} else if (m == M_PACKET && field == PF_PACKET_SEQUENCE_ID) {
		if (!*v || *v >> MERGE_PERFETTO_SEQ_BITS)
			return -EBADMSG;
		*v |= (uint64_t)h->index << MERGE_PERFETTO_SEQ_BITS;
	} else if (m == M_PERF && field == PF_PERF_CPU) {
		if (*v > UINT32_MAX)
			return -EBADMSG;
		*v = merge_cpu(h, (unsigned int)*v);
		if (*v == UINT32_MAX)
			return -EBADMSG;
	} else if ((m == M_PERF && field == PF_PERF_PID) ||
		   (m == M_PERF && field == PF_PERF_TID) ||
		   (m == M_TASK && field == PF_TASK_PID) ||
		   (m == M_TASK && field == PF_TASK_TID)) {
		*v = pid32(h, *v);
	}
	return 0;
}

static int rewrite(struct merge_host *h, enum pf_msg m, const uint8_t *in,
		   size_t n, struct merge_bytes *out);

/* A length-delimited field of n bytes at in, its tag written: 0/-errno. */
static int rewrite_nested(struct merge_host *h, enum pf_msg sub,
			  const uint8_t *in, size_t n, struct merge_bytes *out)
{
	size_t at = out->len, len;
	int ret;

	if (!room(out, FXT_PB_LEN4_BYTES))
		return -ENOMEM;
	ret = rewrite(h, sub, in, n, out);
	if (ret)
		return ret;
	len = out->len - at - FXT_PB_LEN4_BYTES;
	if (len > FXT_PB_LEN4_MAX)
		return -EBADMSG;
	fxt_pb_put_len4(out->b + at, (uint32_t)len);
	return 0;
}

/* One field at in[*at]: rewritten or copied to out, *at past it. */
static int field(struct merge_host *h, enum pf_msg m, const uint8_t *in,
		 size_t n, size_t *at, struct merge_bytes *out)
{
	size_t start = *at, k;
	uint64_t tag, v;
	int ret;

	k = fxt_pb_get_varint(in + *at, n - *at, &tag);
	if (!k || !(tag >> 3))
		return -EBADMSG;
	*at += k;
	switch (tag & 7) {
	case FXT_PB_VARINT:
		k = fxt_pb_get_varint(in + *at, n - *at, &v);
		if (!k)
			return -EBADMSG;
		*at += k;
		ret = map_varint(h, m, tag >> 3, &v);
		return ret ?: put_varint(out, tag) ?: put_varint(out, v);
	case FXT_PB_FIXED64:
	case FXT_PB_FIXED32:
		k = (tag & 7) == FXT_PB_FIXED64 ? 8 : 4;
		break;
	case FXT_PB_LEN:
		k = fxt_pb_get_varint(in + *at, n - *at, &v);
		if (!k || v > n - *at - k)
			return -EBADMSG;
		*at += k;
		if (nested(m, tag >> 3) != M_OTHER) {
			*at += v;
			return put_varint(out, tag) ?:
				       rewrite_nested(h, nested(m, tag >> 3),
						      in + *at - v, v, out);
		}
		k = v;
		break;
	default: /* groups are deprecated; 6 and 7 are no wire type */
		return -EBADMSG;
	}
	if (k > n - *at)
		return -EBADMSG;
	*at += k;
	return put(out, in + start, *at - start);
}

/* Every field of a message; nesting is at most 3 deep (nested()). */
static int rewrite(struct merge_host *h, enum pf_msg m, const uint8_t *in,
		   size_t n, struct merge_bytes *out)
{
	size_t at = 0;
	int ret = 0;

	while (!ret && at < n)
		ret = field(h, m, in, n, &at, out);
	return ret;
}

int merge_perfetto_packet(struct merge_host *h, const uint8_t *in, size_t n,
			  struct merge_bytes *out)
{
	size_t was = out->len;
	int ret = rewrite(h, M_PACKET, in, n, out);

	if (ret)
		out->len = was;
	return ret;
}

void merge_perfetto_begin(struct merge_perfetto *p, struct merge_host *h)
{
	merge_perfetto_release(p);
	p->h = h;
}

/* The output's blobs of the whole ones in out (all when last). */
static int emit(struct merge_perfetto *p, struct fxt_writer *w, bool last)
{
	static const struct fxt_writer_str name = {
		.data = FXT_STACKS_NAME_PERFETTO,
		.len = sizeof(FXT_STACKS_NAME_PERFETTO) - 1,
	};
	size_t at = 0, n;
	int ret = 0;

	while (!ret && (p->out.len - at >= MERGE_PERFETTO_BLOB_MAX ||
			(last && at < p->out.len))) {
		n = p->out.len - at < MERGE_PERFETTO_BLOB_MAX ?
			    p->out.len - at :
			    MERGE_PERFETTO_BLOB_MAX;
		ret = fxt_write_blob(w, name, FXT_BLOB_PERFETTO, p->out.b + at,
				     n);
		if (!ret)
			p->h->stats.perfetto_blobs_out++;
		at += n;
	}
	/* one move for all the blobs: a large packet is not moved again */
	if (at)
		memmove(p->out.b, p->out.b + at, p->out.len - at);
	p->out.len -= at;
	return ret;
}

/*
 * The packet at in (avail bytes): 0 while it is not whole, its bytes
 * (2 or more) once taken (rewritten, or left out and counted), -ENOMEM,
 * or -EBADMSG when the stream's framing is lost.
 */
static int take_packet(struct merge_perfetto *p, const uint8_t *in,
		       size_t avail)
{
	uint64_t tag, len;
	size_t k1, k2;
	int ret;

	k1 = fxt_pb_get_varint(in, avail, &tag);
	if (!k1)
		return avail < FXT_PB_VARINT_MAX ? 0 : -EBADMSG;
	k2 = fxt_pb_get_varint(in + k1, avail - k1, &len);
	if (tag != PACKET_TAG || (!k2 && avail - k1 >= FXT_PB_VARINT_MAX) ||
	    (k2 && len > MERGE_PERFETTO_PACKET_MAX))
		return -EBADMSG;
	if (!k2 || len > avail - k1 - k2)
		return 0;
	p->pkt.len = 0;
	ret = merge_perfetto_packet(p->h, in + k1 + k2, len, &p->pkt);
	if (ret == -EBADMSG) {
		p->h->stats.perfetto_packets_dropped++;
		return (int)(k1 + k2 + len);
	}
	if (ret || p->pkt.len > FXT_PB_LEN4_MAX)
		return -ENOMEM;
	ret = put_varint(&p->out, PACKET_TAG)	      ?:
		      put_varint(&p->out, p->pkt.len) ?:
		      put(&p->out, p->pkt.b, p->pkt.len);
	if (ret)
		return ret;
	p->h->stats.perfetto_packets++;
	return (int)(k1 + k2 + len);
}

int merge_perfetto_take(struct merge_perfetto *p, struct fxt_writer *w,
			const void *data, size_t len)
{
	size_t at = 0;
	int ret = 0;

	p->h->stats.perfetto_blobs++;
	if (p->lost) {
		p->h->stats.perfetto_blobs_dropped++;
		return 0;
	}
	if (put(&p->in, data, len))
		return -ENOMEM;
	while (at < p->in.len &&
	       (ret = take_packet(p, p->in.b + at, p->in.len - at)) > 0)
		at += (size_t)ret;
	if (at)
		memmove(p->in.b, p->in.b + at, p->in.len - at);
	p->in.len -= at;
	if (ret == -EBADMSG) {
		/* no packet boundary to find again: the rest is left out */
		p->lost = true;
		p->in.len = 0;
		p->h->stats.perfetto_blobs_dropped++;
		ret = 0;
	}
	return ret < 0 ? ret : emit(p, w, false);
}

int merge_perfetto_end(struct merge_perfetto *p, struct fxt_writer *w)
{
	if (p->in.len) /* a packet cut by the input's end */
		p->h->stats.perfetto_packets_dropped++;
	p->in.len = 0;
	return emit(p, w, true);
}

void merge_perfetto_release(struct merge_perfetto *p)
{
	free(p->in.b);
	free(p->out.b);
	free(p->pkt.b);
	memset(p, 0, sizeof(*p));
}
