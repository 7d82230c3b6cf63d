// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader's input: see fxt_reader_input.h.
 *
 * Input arrives in big chunks into one read buffer; a record is decoded in
 * place once all of its words are in the buffer. The buffer grows only to
 * hold the largest record seen (32760 bytes for normal records, up to
 * max_large_record_bytes for large ones). Memory input that is 8-byte
 * aligned is decoded where it lies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxt_reader_input.h"

static ssize_t source_read(struct fxt_reader *r, uint8_t *dst, size_t len)
{
	size_t n;
	ssize_t got;

	switch (r->kind) {
	case SOURCE_MEM_COPY:
		n = r->mem_len - r->mem_pos;
		if (n > len)
			n = len;
		memcpy(dst, r->mem + r->mem_pos, n);
		r->mem_pos += n;
		return (ssize_t)n;
	case SOURCE_FD:
		do {
			got = read(r->fd, dst, len);
		} while (got < 0 && errno == EINTR);
		return got < 0 ? -errno : got;
	case SOURCE_FILE:
		n = fread(dst, 1, len, r->file);
		if (!n && ferror(r->file))
			return -EIO;
		return (ssize_t)n;
	case SOURCE_MEM:
		break;
	}
	return 0;
}

/* Makes room for need bytes from start, moving data to the front. */
static int make_room(struct fxt_reader *r, size_t need)
{
	size_t have = r->end - r->start;
	uint8_t *buf;
	size_t cap;

	if (r->cap - r->start >= need && r->cap - r->end >= READ_CHUNK / 4)
		return 0;
	if (r->start) {
		memmove(r->buf, r->buf + r->start, have);
		r->buf_offset += r->start;
		r->start = 0;
		r->end = have;
	}
	if (r->cap >= need)
		return 0;
	cap = r->cap;
	while (cap < need)
		cap *= 2;
	buf = realloc(r->buf, cap);
	if (!buf)
		return -ENOMEM;
	r->buf = buf;
	r->cap = cap;
	return 0;
}

int fxt_input_fill_more(struct fxt_reader *r, size_t need)
{
	ssize_t got;
	int err;

	if (r->kind == SOURCE_MEM || r->eof)
		return 0;
	err = make_room(r, need);
	if (err)
		return err;
	while (r->end - r->start < need) {
		got = source_read(r, r->buf + r->end, r->cap - r->end);
		if (got < 0)
			return (int)got;
		if (!got) {
			r->eof = true;
			return 0;
		}
		r->end += (size_t)got;
	}
	return 1;
}

/* A regular file that ends inside the record being skipped. */
static void skip_to_end(struct fxt_reader *r, uint64_t pos, uint64_t size)
{
	uint64_t rest = size > pos ? size - pos : 0;

	if (lseek(r->fd, 0, SEEK_END) < 0)
		return;
	r->buf_offset += rest;
	r->stats.bytes += rest;
}

int fxt_input_skip(struct fxt_reader *r, uint64_t bytes)
{
	uint64_t buffered = r->end - r->start;
	uint64_t left;
	ssize_t got;

	if (bytes <= buffered) {
		consume(r, bytes);
		return 1;
	}
	consume(r, buffered);
	left = bytes - buffered;
	r->buf_offset += r->end;
	r->start = r->end = 0;
	if (r->kind == SOURCE_MEM || r->kind == SOURCE_MEM_COPY) {
		size_t avail = r->kind == SOURCE_MEM ? 0 : r->mem_len - r->mem_pos;

		if (left > avail) {
			r->stats.bytes += avail;
			r->mem_pos = r->mem_len;
			return 0;
		}
		r->mem_pos += left;
		r->buf_offset += left;
		r->stats.bytes += left;
		return 1;
	}
	if (r->kind == SOURCE_FD) {
		struct stat st;
		off_t pos = lseek(r->fd, 0, SEEK_CUR);

		if (pos >= 0 && !fstat(r->fd, &st) && S_ISREG(st.st_mode)) {
			if ((uint64_t)pos + left > (uint64_t)st.st_size) {
				/* consumed to the end, as when reading it */
				skip_to_end(r, (uint64_t)pos, (uint64_t)st.st_size);
				return 0;
			}
			if (lseek(r->fd, (off_t)left, SEEK_CUR) >= 0) {
				r->buf_offset += left;
				r->stats.bytes += left;
				return 1;
			}
		}
	}
	while (left) {
		size_t n = left < r->cap ? (size_t)left : r->cap;

		got = source_read(r, r->buf, n);
		if (got < 0)
			return (int)got;
		if (!got)
			return 0;
		left -= (uint64_t)got;
		r->buf_offset += (uint64_t)got;
		r->stats.bytes += (uint64_t)got;
	}
	return 1;
}
