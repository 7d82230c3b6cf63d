/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the provider tests: a shared buffer laid out the way the
 * manager lays it out, and reading it back with the project's reader.
 */
#ifndef FXT_PROVIDER_TEST_H
#define FXT_PROVIDER_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>
#include <fxt/provider.h>
#include <fxt/provider_abi.h>

#include "fxt_reader.h"
#include "test_hooks.h"

struct test_buffer {
	int fd;
	uint64_t size;
	struct fxt_buffer_header *hdr;	/* the test's own mapping */
	struct fxt_buffer *b;		/* the library's */
};

/*
 * durable: bytes of the durable area (0: none); half: each rolling half.
 * Sealed against resizing as the manager's are, unless !sealed.
 */
static inline int test_buffer_create(struct test_buffer *t, uint64_t durable,
				     uint64_t half, bool two_halves,
				     bool sealed)
{
	uint64_t off = FXT_BUFFER_HEADER_SIZE;

	t->size = off + durable + half * (two_halves ? 2 : 1);
	t->fd = memfd_create("fxt-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (t->fd < 0 || ftruncate(t->fd, (off_t)t->size) < 0)
		return -errno;
	if (sealed &&
	    fcntl(t->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0)
		return -errno;
	t->hdr = mmap(NULL, t->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      t->fd, 0);
	if (t->hdr == MAP_FAILED)
		return -errno;
	t->hdr->total_size = t->size;
	t->hdr->durable_offset = durable ? off : 0;
	t->hdr->durable_size = durable;
	t->hdr->rolling_offset[0] = off + durable;
	t->hdr->rolling_offset[1] = two_halves ? off + durable + half : 0;
	t->hdr->rolling_size = half;
	/* The smallest chunks: the most chunk boundaries in a test. */
	t->hdr->chunk_size = FXT_BUFFER_CHUNK_MIN;
	return 0;
}

static inline int test_buffer_layout(struct test_buffer *t, uint64_t durable,
				     uint64_t half, bool two_halves)
{
	return test_buffer_create(t, durable, half, two_halves, true);
}

static inline void test_buffer_attach(struct test_buffer *t,
				      enum fxt_buffering_mode mode,
				      const char *categories, int save_fd)
{
	t->b = fxt_test_attach(dup(t->fd), t->size, mode, categories,
			       save_fd);
	assert_non_null(t->b);
}

static inline void test_buffer_free(struct test_buffer *t)
{
	if (t->b)
		fxt_test_detach(t->b);
	munmap(t->hdr, t->size);
	close(t->fd);
}

/*
 * Appends the records of [0, end) of an area to out, by the reader's rule
 * of <fxt/provider_abi.h>: chunk 0 ends at a zero header word, else the
 * walk goes on at the next chunk boundary. Returns the bytes appended.
 */
static inline size_t test_area_records(const uint8_t *area, uint64_t end,
				       uint64_t chunk, uint8_t *out)
{
	uint64_t off = 0;
	size_t n = 0;

	while (off + 8 <= end) {
		uint64_t w, bytes;

		memcpy(&w, area + off, sizeof(w));
		bytes = fxt_record_bytes(w);
		if (!w && chunk) {
			off = fxt_chunk_next(off, chunk);
			continue;
		}
		if (!w || !bytes || bytes > end - off)
			break;
		memcpy(out + n, area + off, bytes);
		n += bytes;
		off += bytes;
	}
	return n;
}

/*
 * The written records in reading order: durable area, then the halves by
 * generation (older first), without the chunks' unused tails. Caller
 * frees.
 */
static inline uint8_t *test_buffer_collect(struct test_buffer *t, size_t *len)
{
	const struct fxt_buffer_header *h = t->hdr;
	const uint8_t *base = (const uint8_t *)h;
	unsigned int first = h->rolling_generation[1] &&
			     h->rolling_generation[1] < h->rolling_generation[0];
	uint8_t *out = malloc(h->durable_end + h->rolling_end[0] +
			      h->rolling_end[1] + 8);
	size_t n = 0;
	unsigned int i;

	assert_non_null(out);
	n += test_area_records(base + h->durable_offset, h->durable_end, 0,
			       out);
	for (i = 0; i < 2; i++) {
		unsigned int half = i ? !first : first;

		if (!h->rolling_generation[half])
			continue;
		n += test_area_records(base + h->rolling_offset[half],
				       h->rolling_end[half], h->chunk_size,
				       out + n);
	}
	*len = n;
	return out;
}

static inline void test_diag_fail(void *ctx, enum fxt_diag_kind kind,
				  uint64_t offset, const char *reason)
{
	(void)ctx;
	fail_msg("reader: %s at offset %llu: %s",
		 kind == FXT_DIAG_MALFORMED ? "malformed" : "nonconforming",
		 (unsigned long long)offset, reason);
}

/* A reader over data that must decode without any diagnostic. */
static inline struct fxt_reader *test_reader(const void *data, size_t len)
{
	struct fxt_reader_options opt = {
		.provider_buffer = true,
		.diag = test_diag_fail,
	};
	struct fxt_reader *r = fxt_reader_open_mem(data, len, &opt);

	assert_non_null(r);
	return r;
}

static inline bool str_is(struct fxt_str s, const char *want)
{
	return s.len == strlen(want) && !memcmp(s.data, want, s.len);
}

#define assert_str(s, want)                                                    \
	do {                                                                   \
		struct fxt_str s_ = (s);                                       \
		if (!str_is(s_, (want)))                                       \
			fail_msg("got \"%.*s\", want \"%s\"", (int)s_.len,      \
				 s_.data, (want));                             \
	} while (0)

#endif /* FXT_PROVIDER_TEST_H */
