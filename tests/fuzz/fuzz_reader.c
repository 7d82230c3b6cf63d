// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the FXT reader over arbitrary bytes, as an archive and as
 * a provider buffer, from aligned memory, unaligned memory (the copying
 * path), a FILE and a file descriptor (a memory file: skips seek). Every
 * decoded string and payload is read byte by byte so that ASan sees a
 * pointer outside the input; all sources must agree record for record,
 * and the stats must fit the input's length.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK_ABORTS
#include "check.h"
#include "fuzz_target.h"
#include "fxt_reader.h"
#include "fxt_sniff.h"

struct summary {
	uint64_t records;
	uint64_t digest;
	struct fxt_reader_stats stats;
	bool refused;		/* refuse_not_fxt said it is not FXT */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static uint64_t digest_bytes(uint64_t h, const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t i;

	for (i = 0; i < len; i++)
		h = mix(h, p[i]);
	return h;
}

static uint64_t digest_str(uint64_t h, struct fxt_str s)
{
	CHECK(s.len == 0 || s.data != NULL, "string without data");
	return digest_bytes(mix(h, s.len), s.data, s.len);
}

/* Only the union member of the type: the rest is not defined. */
static uint64_t digest_value(uint64_t h, const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
		return mix(h, (uint64_t)a->value.i32);
	case FXT_ARG_UINT32:
		return mix(h, a->value.u32);
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return mix(h, a->value.u64);
	case FXT_ARG_DOUBLE:
		return digest_bytes(h, &a->value.f64, sizeof(a->value.f64));
	case FXT_ARG_STRING:
		return digest_str(h, a->value.str);
	case FXT_ARG_BOOL:
		return mix(h, a->value.b);
	default:
		return h;
	}
}

static uint64_t digest_args(uint64_t h, const struct fxt_record *rec)
{
	unsigned int i;

	CHECK(rec->nargs <= FXT_MAX_ARGS, "too many arguments");
	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		h = digest_str(mix(h, a->type), a->name);
		h = digest_value(h, a);
	}
	return h;
}

/* The union members that hold pointers into the input. */
static uint64_t digest_record(uint64_t h, const struct fxt_record *rec)
{
	h = mix(mix(mix(h, rec->offset), rec->size_words), rec->type);
	h = digest_bytes(h, rec->words, rec->size_words * 8 > 4096 ?
			 4096 : rec->size_words * 8);
	if (rec->provider)
		h = digest_str(mix(h, rec->provider->id), rec->provider->name);
	switch (rec->type) {
	case FXT_RECORD_METADATA:
		return digest_str(h, rec->metadata.provider_name);
	case FXT_RECORD_STRING:
		return digest_str(h, rec->string.value);
	case FXT_RECORD_EVENT:
		h = digest_str(h, rec->event.category);
		return digest_args(digest_str(h, rec->event.name), rec);
	case FXT_RECORD_BLOB:
		h = digest_str(h, rec->blob.name);
		return digest_bytes(h, rec->blob.payload, rec->blob.payload_len);
	case FXT_RECORD_USERSPACE_OBJECT:
		return digest_args(digest_str(h, rec->userspace_object.name),
				   rec);
	case FXT_RECORD_KERNEL_OBJECT:
		return digest_args(digest_str(h, rec->kernel_object.name), rec);
	case FXT_RECORD_LOG:
		return digest_str(h, rec->log.message);
	case FXT_RECORD_LARGE:
		h = digest_str(h, rec->large_blob.category);
		h = digest_str(h, rec->large_blob.name);
		h = digest_args(h, rec);
		return digest_bytes(h, rec->large_blob.payload,
				    rec->large_blob.payload_len);
	default:
		return digest_args(h, rec);
	}
}

static void diag_check(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		       const char *reason)
{
	const size_t *len = ctx;

	CHECK(offset <= *len, "diagnostic offset past the input");
	CHECK(reason && reason[0], "diagnostic without a reason");
	CHECK(kind <= FXT_DIAG_LIMIT, "diagnostic of no known kind");
}

static void read_summary(struct fxt_reader *r, size_t len, struct summary *s)
{
	struct fxt_record rec;
	size_t i;
	int ret;

	CHECK(r != NULL, "reader allocation");
	memset(s, 0, sizeof(*s));
	s->digest = 0xcbf29ce484222325ull;
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		CHECK(rec.size_words >= 1, "record of no words");
		CHECK(rec.offset % 8 == 0, "unaligned record offset");
		CHECK(rec.offset + rec.size_words * 8 <= len,
		      "record past the input");
		s->digest = digest_record(s->digest, &rec);
		s->records++;
	}
	CHECK(ret == 0, "I/O error on memory input");
	for (i = 0; i < fxt_reader_provider_count(r); i++)
		s->digest = digest_str(s->digest, fxt_reader_provider(r, i)->name);
	s->stats = *fxt_reader_stats(r);
	s->refused = fxt_reader_not_fxt(r) != NULL;
	CHECK(!s->refused || (!s->records && fxt_reader_not_fxt(r)[0]),
	      "refused input, yet records or no reason");
	CHECK(s->stats.records == s->records, "record count");
	CHECK(s->stats.bytes <= len, "consumed more than the input");
	CHECK(s->records * 8 <= len, "more records than words");
	fxt_reader_close(r);
}

static void same(const struct summary *a, const struct summary *b,
		 const char *what)
{
	CHECK(a->records == b->records && a->digest == b->digest &&
	      a->stats.malformed == b->stats.malformed &&
	      a->stats.nonconforming == b->stats.nonconforming &&
	      a->stats.truncated == b->stats.truncated &&
	      a->stats.bytes == b->stats.bytes, "%s", what);
}

static int memory_file(const uint8_t *data, size_t len)
{
	static int fd = -1;

	if (fd < 0)
		fd = memfd_create("fuzz_reader.fxt", 0);
	CHECK(fd >= 0 && ftruncate(fd, 0) == 0 &&
	      pwrite(fd, data, len, 0) == (ssize_t)len &&
	      lseek(fd, 0, SEEK_SET) == 0, "input to a memory file");
	return fd;
}

/*
 * Refusing what is not FXT: an input is refused whole, or read as
 * without refusal; from memory and from a file alike, when the file's
 * start that is judged is the whole input.
 */
static void read_refusing(const uint64_t *words, const uint8_t *data,
			  size_t len, const struct fxt_reader_options *opt,
			  const struct summary *plain)
{
	struct fxt_reader_options refusing = *opt;
	struct summary mem, fd;

	refusing.refuse_not_fxt = true;
	read_summary(fxt_reader_open_mem(words, len, &refusing), len, &mem);
	if (!mem.refused)
		same(plain, &mem, "an input taken as FXT read differently");
	read_summary(fxt_reader_open_fd(memory_file(data, len), &refusing),
		     len, &fd);
	if (len < FXT_SNIFF_BYTES)
		CHECK(mem.refused == fd.refused,
		      "memory and fd input judged differently");
}

static void read_every_way(const uint8_t *data, size_t len,
			   bool provider_buffer)
{
	struct fxt_reader_options opt = {
		.expect_magic = !provider_buffer,
		.provider_buffer = provider_buffer,
		.diag = diag_check,
		.diag_ctx = &len,
		/* small enough that a skipped record can fit in the input */
		.max_large_record_bytes = provider_buffer ? 1 << 20 : 512,
	};
	struct summary aligned, unaligned, file, fd;
	uint64_t *words = malloc(len + 8);
	uint8_t *odd = malloc(len + 1);
	FILE *f;

	CHECK(words && odd, "allocation");
	memcpy(words, data, len);
	read_summary(fxt_reader_open_mem(words, len, &opt), len, &aligned);
	memcpy(odd + 1, data, len);
	read_summary(fxt_reader_open_mem(odd + 1, len, &opt), len, &unaligned);
	same(&aligned, &unaligned, "aligned and unaligned memory differ");
	f = fmemopen(words, len ? len : 1, "rb");
	CHECK(f != NULL, "fmemopen");
	if (!len)
		(void)fgetc(f);
	read_summary(fxt_reader_open_file(f, &opt), len, &file);
	same(&aligned, &file, "memory and FILE input differ");
	fclose(f);
	read_summary(fxt_reader_open_fd(memory_file(data, len), &opt), len,
		     &fd);
	same(&aligned, &fd, "memory and fd input differ");
	if (!provider_buffer)
		read_refusing(words, data, len, &opt, &aligned);
	free(odd);
	free(words);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	read_every_way(data, len, false);
	read_every_way(data, len, true);
	return 0;
}
