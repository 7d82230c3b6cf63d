// SPDX-License-Identifier: GPL-2.0-only
/*
 * A merge's stack records in one id space (merge_stacks.h) and its
 * Perfetto packets rewritten (merge_perfetto.h), word for word and byte
 * for byte: ids moved past the inputs before, id 0 kept, an id past 32
 * bits left out and counted; timestamps, sequence ids, CPUs and pids of
 * a packet rewritten, every other byte copied; packets split over blobs
 * joined; hostile packets and streams counted and left out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fxt/perfetto.h>
#include <fxt/stacks.h>

#include "merge_perfetto.h"
#include "merge_stacks.h"

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ s, (uint32_t)strlen(s) };
}

static void test_ids(void **state)
{
	struct merge_stack_ids a, b;
	uint32_t out;

	(void)state;
	merge_stack_ids_follow(&a, NULL);
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 7, &out));
	assert_int_equal(out, 7);
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 0, &out));
	assert_int_equal(out, 0);
	assert_true(merge_stack_id(&a, MERGE_STACK_STACKS, 3, &out));
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 2, &out));
	assert_int_equal(out, 2);

	merge_stack_ids_follow(&b, &a);
	assert_int_equal(b.base[MERGE_STACK_MAPPINGS], 0);
	assert_int_equal(b.base[MERGE_STACK_FRAMES], 7);
	assert_int_equal(b.base[MERGE_STACK_STACKS], 3);
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 1, &out));
	assert_int_equal(out, 8);
	assert_true(merge_stack_id(&b, MERGE_STACK_STACKS, 1, &out));
	assert_int_equal(out, 4);
	assert_true(merge_stack_id(&b, MERGE_STACK_MAPPINGS, 2, &out));
	assert_int_equal(out, 2);
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 0, &out));
	assert_int_equal(out, 0);
	/* the last id that fits, then past 32 bits: no id, max kept */
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 0xfffffff8u, &out));
	assert_int_equal(out, 0xffffffffu);
	out = 1;
	assert_false(merge_stack_id(&b, MERGE_STACK_FRAMES, 0xfffffff9u, &out));
	assert_false(merge_stack_id(&b, MERGE_STACK_FRAMES, 1ull << 32, &out));
	assert_int_equal(out, 1);
	assert_int_equal(b.max[MERGE_STACK_FRAMES], 0xffffffffu);
	assert_int_equal(b.max[MERGE_STACK_STACKS], 4);
}

/* A table blob record of name with payload words p, into rec/words. */
static void table(struct fxt_record *rec, uint64_t *words, const char *name,
		  const uint64_t *p, size_t n)
{
	size_t len = strlen(name), at = 1 + fxt_words((uint32_t)len);

	memset(rec, 0, sizeof(*rec));
	memset(words, 0, at * 8);
	memcpy(&words[1], name, len);
	memcpy(&words[at], p, n * 8);
	words[0] = fxt_blob_header((uint32_t)(at + n),
				   fxt_string_ref_inline((uint16_t)len),
				   (uint16_t)(n * 8), FXT_BLOB_DATA);
	rec->type = FXT_RECORD_BLOB;
	rec->blob.blob_type = FXT_BLOB_DATA;
	rec->blob.name = str(name);
	rec->words = words;
	rec->size_words = at + n;
}

static void test_frames_table(void **state)
{
	struct fxt_stacks_frame f1 = { .id = 1,
				       .kind = FXT_STACKS_FRAME_USER,
				       .name_len = 1,
				       .mapping_id = 2,
				       .addr = 0x1234,
				       .name = "f" };
	struct fxt_stacks_frame f2 = { .id = 2,
				       .kind = FXT_STACKS_FRAME_KERNEL,
				       .addr = 0x10 };
	uint64_t in[16], want[16], words[32], out[32], *p;
	struct merge_stack_ids m;
	struct fxt_record rec;
	size_t n;

	(void)state;
	p = fxt_stacks_put_frame(in, &f1);
	p = fxt_stacks_put_frame(p, &f2);
	n = (size_t)(p - in);
	table(&rec, words, FXT_STACKS_NAME_FRAMES, in, n);
	merge_stack_ids_follow(&m, NULL);
	m.base[MERGE_STACK_FRAMES] = 10;
	m.base[MERGE_STACK_MAPPINGS] = 5;
	f1.id = 11;
	f1.mapping_id = 7;
	f2.id = 12; /* the kernel's mapping 0 stays 0 */
	p = fxt_stacks_put_frame(want, &f1);
	p = fxt_stacks_put_frame(p, &f2);
	table(&rec, words, FXT_STACKS_NAME_FRAMES, in, n);
	memcpy(out, words, 3 * 8); /* the header and the name: the same */
	memcpy(&out[3], want, n * 8);
	{
		uint64_t got[32];

		assert_int_equal(merge_stack_table(&m, &rec, got), 3 + n);
		assert_memory_equal(got, out, (3 + n) * 8);
	}
	assert_int_equal(m.lost, 0);
	assert_int_equal(m.max[MERGE_STACK_FRAMES], 12);
	assert_int_equal(m.max[MERGE_STACK_MAPPINGS], 7);
}

/* A stack naming a frame past 32 bits is left out, the record shrinks. */
static void test_stacks_table_overflow(void **state)
{
	const uint32_t ok[3] = { 1, 2, 3 }, past[1] = { 0x20 };
	const uint32_t moved[3] = { 0xfffffff1u, 0xfffffff2u, 0xfffffff3u };
	uint64_t in[16], words[32], got[32], want[32], *p;
	struct merge_stack_ids m;
	struct fxt_record rec;
	size_t n, keep;

	(void)state;
	p = fxt_stacks_put_stack(in, 1, ok, 3);
	keep = (size_t)(p - in);
	p = fxt_stacks_put_stack(p, 2, past, 1);
	n = (size_t)(p - in);
	table(&rec, words, FXT_STACKS_NAME_STACKS, in, n);
	merge_stack_ids_follow(&m, NULL);
	m.base[MERGE_STACK_FRAMES] = 0xfffffff0u;
	m.base[MERGE_STACK_STACKS] = 100;
	/* "fxtrace:stacks": 14 bytes, 2 words */
	memcpy(want, words, 3 * 8);
	fxt_stacks_put_stack(&want[3], 101, moved, 3);
	want[0] = fxt_blob_header((uint32_t)(3 + keep),
				  fxt_string_ref_inline(14),
				  (uint16_t)(keep * 8), FXT_BLOB_DATA);
	assert_int_equal(merge_stack_table(&m, &rec, got), 3 + keep);
	assert_memory_equal(got, want, (3 + keep) * 8);
	assert_int_equal(m.lost, 1);
	assert_int_equal(m.max[MERGE_STACK_STACKS], 101);

	/* not a table: 0, nothing written */
	rec.blob.name = str("fxtrace:other");
	assert_int_equal(merge_stack_table(&m, &rec, got), 0);
}

static size_t tag(uint8_t *p, uint32_t field, unsigned int wire)
{
	return fxt_pb_put_varint(p, (uint64_t)field << 3 | wire);
}

static size_t vfield(uint8_t *p, uint32_t field, uint64_t v)
{
	size_t n = tag(p, field, FXT_PB_VARINT);

	return n + fxt_pb_put_varint(p + n, v);
}

/* A nested length as the rewrite writes it: 4 bytes. */
static size_t len4(uint8_t *p, size_t len)
{
	fxt_pb_put_len4(p, (uint32_t)len);
	return FXT_PB_LEN4_BYTES;
}

static struct merge_host second_host(void)
{
	struct merge_host h = { .index = 1,
				.clock_mapped = true,
				.cpu_base = 4 };

	h.line = (struct merge_clock_line){ .x0 = 1000,
					    .y0 = 5000,
					    .slope = 1.0 };
	return h;
}

/*
 * A packet with a PerfSample of cpu, pid, tid and callstack 7, and
 * interned data copied as it is, into p: its length. The PerfSample's
 * length in one byte (as the input has it), or four (as rewritten).
 */
static size_t packet(uint8_t *p, uint64_t ts, uint64_t seq, uint64_t cpu,
		     uint64_t pid, bool len4_form)
{
	uint8_t s[32];
	size_t n = 0, sn = 0;

	sn += vfield(s + sn, PF_PERF_CPU, cpu);
	sn += vfield(s + sn, PF_PERF_PID, pid);
	sn += vfield(s + sn, PF_PERF_TID, pid + 1);
	sn += vfield(s + sn, PF_PERF_CALLSTACK_IID, 7);
	n += vfield(p + n, PF_PACKET_TIMESTAMP, ts);
	n += vfield(p + n, PF_PACKET_SEQUENCE_ID, seq);
	n += vfield(p + n, PF_PACKET_SEQUENCE_FLAGS, 2);
	n += tag(p + n, PF_PACKET_INTERNED_DATA, FXT_PB_LEN);
	p[n++] = 3;
	memcpy(p + n, "xyz", 3);
	n += 3;
	n += tag(p + n, PF_PACKET_PERF_SAMPLE, FXT_PB_LEN);
	if (len4_form)
		n += len4(p + n, sn);
	else
		p[n++] = (uint8_t)sn;
	memcpy(p + n, s, sn);
	return n + sn;
}

/* The second host's packet, as its input has it and as rewritten. */
static size_t packet_in(uint8_t *p)
{
	return packet(p, 1500, 1, 1, 100, false);
}

static size_t packet_want(uint8_t *p)
{
	return packet(p, 5500, 1u << 24 | 1, 5, 1u << 22 | 100, true);
}

static void test_packet(void **state)
{
	struct merge_host h = second_host();
	struct merge_bytes out = { 0 };
	uint8_t in[128], want[128];
	size_t n = packet_in(in), wn = packet_want(want);

	(void)state;
	assert_int_equal(merge_perfetto_packet(&h, in, n, &out), 0);
	assert_int_equal(out.len, wn);
	assert_memory_equal(out.b, want, wn);
	assert_int_equal(h.cpu_max, 1);
	free(out.b);
}

static void test_stack_sample(void **state)
{
	struct merge_host h = second_host();
	struct merge_bytes out = { 0 };
	uint8_t in[64], want[64], t[16];
	size_t n = 0, wn = 0, tn;

	(void)state;
	tn = vfield(t, PF_TASK_PID, 9);
	tn += vfield(t + tn, PF_TASK_TID, 10);
	n += tag(in + n, PF_PACKET_STACK_SAMPLE, FXT_PB_LEN);
	in[n++] = (uint8_t)(tn + 2);
	n += tag(in + n, PF_STACK_TASK_CONTEXT, FXT_PB_LEN);
	in[n++] = (uint8_t)tn;
	memcpy(in + n, t, tn);
	n += tn;

	tn = vfield(t, PF_TASK_PID, 1u << 22 | 9);
	tn += vfield(t + tn, PF_TASK_TID, 1u << 22 | 10);
	wn += tag(want + wn, PF_PACKET_STACK_SAMPLE, FXT_PB_LEN);
	wn += len4(want + wn, tn + 5);
	wn += tag(want + wn, PF_STACK_TASK_CONTEXT, FXT_PB_LEN);
	wn += len4(want + wn, tn);
	memcpy(want + wn, t, tn);
	wn += tn;
	assert_int_equal(merge_perfetto_packet(&h, in, n, &out), 0);
	assert_int_equal(out.len, wn);
	assert_memory_equal(out.b, want, wn);
	free(out.b);
}

/* Packets that do not parse: -EBADMSG, out as it was. */
static void test_packet_hostile(void **state)
{
	static const uint8_t cut_varint[] = { 8 << 3, 0x80 };
	static const uint8_t group[] = { 1 << 3 | 3, 0 };
	static const uint8_t long_len[] = { 12 << 3 | 2, 5, 1 };
	static const uint8_t field0[] = { 0, 1 };
	static const uint8_t nested_cut[] = { 0x92, 0x04, 2, 0x08, 0x80 };
	struct merge_host h = second_host();
	struct merge_bytes out = { 0 };
	uint8_t seq[16];

	(void)state;
	assert_int_equal(merge_perfetto_packet(&h, cut_varint,
					       sizeof(cut_varint), &out),
			 -EBADMSG);
	assert_int_equal(merge_perfetto_packet(&h, group, sizeof(group), &out),
			 -EBADMSG);
	assert_int_equal(merge_perfetto_packet(&h, long_len, sizeof(long_len),
					       &out),
			 -EBADMSG);
	assert_int_equal(merge_perfetto_packet(&h, field0, sizeof(field0),
					       &out),
			 -EBADMSG);
	assert_int_equal(merge_perfetto_packet(&h, nested_cut,
					       sizeof(nested_cut), &out),
			 -EBADMSG);
	/* a sequence id that would run into the next host's */
	assert_int_equal(merge_perfetto_packet(
				 &h, seq,
				 vfield(seq, PF_PACKET_SEQUENCE_ID, 1u << 24),
				 &out),
			 -EBADMSG);
	assert_int_equal(merge_perfetto_packet(
				 &h, seq, vfield(seq, PF_PACKET_SEQUENCE_ID, 0),
				 &out),
			 -EBADMSG);
	assert_int_equal(out.len, 0);
	free(out.b);
}

/* The payload of the blob record at w (words), its length in *len. */
static const uint8_t *blob_payload(const uint64_t *w, size_t *len)
{
	assert_non_null(w); /* no record written: an empty writer */
	assert_int_equal(FXT_GET(w[0], FXT_HDR_TYPE), FXT_RECORD_BLOB);
	assert_int_equal(FXT_GET(w[0], FXT_BLOB_TYPE), FXT_BLOB_PERFETTO);
	/* the name inline: "perfetto", one word */
	assert_int_equal(FXT_GET(w[0], FXT_BLOB_NAME),
			 fxt_string_ref_inline(8));
	assert_memory_equal(&w[1], "perfetto", 8);
	*len = (size_t)FXT_GET(w[0], FXT_BLOB_SIZE);
	return (const uint8_t *)&w[2];
}

/* A packet split over two blobs comes out whole, rewritten, in one. */
static void test_stream(void **state)
{
	struct merge_host h = second_host();
	struct merge_perfetto p = { 0 };
	uint8_t in[160], want[160];
	size_t n = 0, wn = 0, len;
	struct fxt_writer w;
	const uint8_t *got;

	(void)state;
	in[n++] = PF_TRACE_PACKET << 3 | FXT_PB_LEN;
	in[n] = (uint8_t)packet_in(in + n + 1);
	n += 1 + in[n];
	want[wn++] = PF_TRACE_PACKET << 3 | FXT_PB_LEN;
	want[wn] = (uint8_t)packet_want(want + wn + 1);
	wn += 1 + want[wn];
	fxt_writer_init(&w);
	merge_perfetto_begin(&p, &h);
	assert_int_equal(merge_perfetto_take(&p, &w, in, 3), 0);
	assert_int_equal(merge_perfetto_take(&p, &w, in + 3, n - 3), 0);
	assert_int_equal(fxt_writer_size(&w), 0); /* less than a blob */
	assert_int_equal(merge_perfetto_end(&p, &w), 0);
	assert_int_equal(fxt_writer_size(&w), (2 + fxt_words(wn)) * 8);
	got = blob_payload(fxt_writer_data(&w), &len);
	assert_int_equal(len, wn);
	assert_memory_equal(got, want, wn);
	assert_int_equal(h.stats.perfetto_blobs, 2);
	assert_int_equal(h.stats.perfetto_blobs_out, 1);
	assert_int_equal(h.stats.perfetto_packets, 1);
	assert_int_equal(h.stats.perfetto_packets_dropped, 0);
	merge_perfetto_release(&p);
	fxt_writer_release(&w);
}

/*
 * A packet larger than a blob record holds (interned data copied as it
 * is) goes out whole, cut in blobs of MERGE_PERFETTO_BLOB_MAX bytes.
 */
static void test_stream_split(void **state)
{
	enum { BODY = 70000 };
	struct merge_host h = second_host();
	struct merge_perfetto p = { 0 };
	static uint8_t in[BODY + 16], got[BODY + 16];
	size_t n = 0, at = 0, len, words, i;
	struct fxt_writer w;
	const uint64_t *rec;

	(void)state;
	in[n++] = PF_TRACE_PACKET << 3 | FXT_PB_LEN;
	n += fxt_pb_put_varint(in + n, BODY);
	n += tag(in + n, PF_PACKET_INTERNED_DATA, FXT_PB_LEN);
	n += fxt_pb_put_varint(in + n, BODY - 4);
	for (i = n; i < 4 + BODY; i++) /* after the packet's 4 bytes */
		in[i] = (uint8_t)i;
	n = 4 + BODY;
	fxt_writer_init(&w);
	merge_perfetto_begin(&p, &h);
	for (i = 0; i < n; i += 4000)
		assert_int_equal(merge_perfetto_take(&p, &w, in + i,
						     n - i < 4000 ? n - i :
								    4000),
				 0);
	assert_int_equal(merge_perfetto_end(&p, &w), 0);
	rec = fxt_writer_data(&w);
	for (i = 0; i < 3; i++) {
		const uint8_t *b = blob_payload(rec, &len);

		assert_int_equal(len, i < 2 ? MERGE_PERFETTO_BLOB_MAX :
					      n - 2 * MERGE_PERFETTO_BLOB_MAX);
		memcpy(got + at, b, len);
		at += len;
		words = (size_t)FXT_GET(rec[0], FXT_HDR_SIZE);
		rec += words;
	}
	assert_ptr_equal((const void *)rec,
			 (const uint8_t *)fxt_writer_data(&w) +
				 fxt_writer_size(&w));
	assert_int_equal(at, n);
	assert_memory_equal(got, in, n);
	assert_int_equal(h.stats.perfetto_blobs_out, 3);
	merge_perfetto_release(&p);
	fxt_writer_release(&w);
}

/*
 * A packet that does not parse is left out, the next one kept; a stream
 * that is not a Trace loses the rest, counted blob by blob; a packet cut
 * by the input's end is counted; a length past the bound is refused
 * before any of it is kept.
 */
static void test_stream_hostile(void **state)
{
	static const uint8_t bad_packet[] = { 0x0a, 2, 1 << 3 | 3, 0 };
	static const uint8_t good_packet[] = { 0x0a, 2, 13 << 3, 2 };
	static const uint8_t not_trace[] = { 2 << 3 | 2, 0 };
	static const uint8_t huge[] = { 0x0a, 0x81, 0x80, 0x80, 0x08 };
	struct merge_host h = second_host();
	struct merge_perfetto p = { 0 };
	struct fxt_writer w;
	const uint8_t *got;
	size_t len;

	(void)state;
	fxt_writer_init(&w);
	merge_perfetto_begin(&p, &h);
	/* an empty blob: nothing, no error */
	assert_int_equal(merge_perfetto_take(&p, &w, NULL, 0), 0);
	assert_int_equal(
		merge_perfetto_take(&p, &w, bad_packet, sizeof(bad_packet)), 0);
	assert_int_equal(merge_perfetto_take(&p, &w, good_packet,
					     sizeof(good_packet)),
			 0);
	assert_int_equal(
		merge_perfetto_take(&p, &w, not_trace, sizeof(not_trace)), 0);
	assert_int_equal(merge_perfetto_take(&p, &w, good_packet,
					     sizeof(good_packet)),
			 0);
	assert_int_equal(merge_perfetto_end(&p, &w), 0);
	got = blob_payload(fxt_writer_data(&w), &len);
	assert_int_equal(len, sizeof(good_packet));
	assert_memory_equal(got, good_packet, sizeof(good_packet));
	assert_int_equal(h.stats.perfetto_blobs, 5);
	assert_int_equal(h.stats.perfetto_packets, 1);
	assert_int_equal(h.stats.perfetto_packets_dropped, 1);
	assert_int_equal(h.stats.perfetto_blobs_dropped, 2);
	fxt_writer_release(&w);

	memset(&h.stats, 0, sizeof(h.stats));
	fxt_writer_init(&w);
	merge_perfetto_begin(&p, &h);
	assert_int_equal(merge_perfetto_take(&p, &w, good_packet, 3), 0);
	assert_int_equal(merge_perfetto_end(&p, &w), 0);
	assert_int_equal(fxt_writer_size(&w), 0);
	assert_int_equal(h.stats.perfetto_packets_dropped, 1);

	merge_perfetto_begin(&p, &h);
	assert_int_equal(merge_perfetto_take(&p, &w, huge, sizeof(huge)), 0);
	assert_int_equal(h.stats.perfetto_blobs_dropped, 1);
	assert_int_equal(p.in.len, 0);
	merge_perfetto_release(&p);
	fxt_writer_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_frames_table),
		cmocka_unit_test(test_stacks_table_overflow),
		cmocka_unit_test(test_packet),
		cmocka_unit_test(test_stack_sample),
		cmocka_unit_test(test_packet_hostile),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_stream_split),
		cmocka_unit_test(test_stream_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
