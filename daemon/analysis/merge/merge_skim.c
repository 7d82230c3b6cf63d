// SPDX-License-Identifier: GPL-2.0-only
/*
 * The first pass of a merge over one input, at the speed of reading it:
 * hops from record header to record header and decodes only the records
 * of fxtraced's own provider (where the host and clock records are), by
 * handing them, with the metadata that selects that provider, to the
 * reader as an archive of their own. The second pass decodes everything
 * and refuses what does not decode; this one only stops at what it cannot
 * hop over (a size 0, an end inside a record).
 *
 * Input that does not start with the magic number record, or whose
 * manager records are past MERGE_SKIM_KEEP_MAX bytes, is left to the
 * reader's own first pass (-EAGAIN).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge_input.h"
#include "merge_skim.h"

#define SKIM_BUFFER (1u << 20)
/* Provider ids named "fxtraced" that the skim follows. */
#define SKIM_MANAGER_IDS_MAX 16u

struct skim {
	int fd;
	uint8_t *buf;
	size_t start, end;	/* unread bytes buf[start, end) */
	uint64_t offset;	/* of buf[start] in the file */
	uint64_t size;		/* of the file */
	uint32_t current;	/* provider id of the records */
	uint32_t manager_ids[SKIM_MANAGER_IDS_MAX];
	unsigned int nmanager_ids;
	uint64_t *keep;		/* the manager's records, after a magic */
	size_t keep_bytes, keep_cap;
};

/* n bytes (<= SKIM_BUFFER) at buf + start: 1, 0 at the end, -errno. */
static int need(struct skim *s, size_t n)
{
	ssize_t got;

	if (s->end - s->start >= n)
		return 1;
	memmove(s->buf, s->buf + s->start, s->end - s->start);
	s->end -= s->start;
	s->start = 0;
	while (s->end < n) {
		got = read(s->fd, s->buf + s->end, SKIM_BUFFER - s->end);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (!got)
			return 0;
		s->end += (size_t)got;
	}
	return 1;
}

static int skip(struct skim *s, uint64_t n)
{
	uint64_t have = s->end - s->start;

	if (n <= have) {
		s->start += n;
	} else {
		if (lseek(s->fd, (off_t)(s->offset + n), SEEK_SET) < 0)
			return -errno;
		s->start = s->end = 0;
	}
	s->offset += n;
	return 0;
}

static bool is_manager(const struct skim *s, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < s->nmanager_ids; i++)
		if (s->manager_ids[i] == id)
			return true;
	return false;
}

/* A provider info record names id afresh: is it the manager's now? */
static int name_provider(struct skim *s, uint64_t h, uint64_t words)
{
	uint32_t id = (uint32_t)FXT_GET(h, FXT_META_PROVIDER_ID);
	uint64_t len = FXT_GET(h, FXT_META_NAME_LEN);
	bool manager = len == strlen(FXT_HOST_CLOCK_PROVIDER) && words > 1 &&
		       !memcmp(s->buf + s->start + 8, FXT_HOST_CLOCK_PROVIDER,
			       len);
	unsigned int i;

	for (i = 0; i < s->nmanager_ids; i++)
		if (s->manager_ids[i] == id)
			s->manager_ids[i] = s->manager_ids[--s->nmanager_ids];
	if (!manager)
		return 0;
	if (s->nmanager_ids == SKIM_MANAGER_IDS_MAX)
		return -EAGAIN;
	s->manager_ids[s->nmanager_ids++] = id;
	return 0;
}

static int keep(struct skim *s, size_t bytes)
{
	size_t cap = s->keep_cap ? s->keep_cap : 64 * 1024;
	uint64_t *k;

	if (s->keep_bytes + bytes > MERGE_SKIM_KEEP_MAX)
		return -EAGAIN;
	while (cap < s->keep_bytes + bytes)
		cap *= 2;
	if (cap != s->keep_cap) {
		k = realloc(s->keep, cap);
		if (!k)
			return -ENOMEM;
		s->keep = k;
		s->keep_cap = cap;
	}
	memcpy((uint8_t *)s->keep + s->keep_bytes, s->buf + s->start, bytes);
	s->keep_bytes += bytes;
	return 0;
}

/* The record at buf + start, whole there: kept if it is the manager's. */
static int skim_record(struct skim *s, uint64_t h, uint64_t words)
{
	uint32_t id = (uint32_t)FXT_GET(h, FXT_META_PROVIDER_ID);
	int ret;

	switch (FXT_GET(h, FXT_HDR_TYPE)) {
	case FXT_RECORD_METADATA:
		switch (FXT_GET(h, FXT_META_TYPE)) {
		case FXT_METADATA_PROVIDER_INFO:
			ret = name_provider(s, h, words);
			if (ret)
				return ret;
			s->current = id;
			break;
		case FXT_METADATA_PROVIDER_SECTION:
			s->current = id;
			break;
		default:	/* provider events, trace info: not its */
			return 0;
		}
		break;
	case FXT_RECORD_LARGE:
		return 0;
	default:
		break;
	}
	return is_manager(s, s->current) ? keep(s, words * FXT_WORD_BYTES) : 0;
}

static int skim_records(struct skim *s, const struct merge_host *h,
			struct fxt_merge_problem *problem)
{
	uint64_t hdr, words;
	int ret;

	while ((ret = need(s, FXT_WORD_BYTES)) > 0) {
		memcpy(&hdr, s->buf + s->start, sizeof(hdr));
		words = fxt_record_words(hdr);
		if (!words)
			return merge_problem(problem, -EBADMSG, h->index, true,
					     s->offset,
					     "malformed: record header 0x%016" PRIx64 " has size 0",
					     hdr);
		if (words > (s->size - s->offset) / FXT_WORD_BYTES)
			break;
		if (FXT_GET(hdr, FXT_HDR_TYPE) != FXT_RECORD_LARGE) {
			ret = need(s, words * FXT_WORD_BYTES);
			if (ret <= 0)
				break;
			ret = skim_record(s, hdr, words);
			if (ret)
				return ret;
		}
		ret = skip(s, words * FXT_WORD_BYTES);
		if (ret)
			break;
	}
	if (ret < 0)
		return merge_problem(problem, ret, h->index, true, s->offset,
				     "read error: %s", strerror(-ret));
	if (s->offset != s->size)
		return merge_problem(problem, -EBADMSG, h->index, true,
				     s->offset,
				     "malformed: input ends inside a record");
	return 0;
}

/* The kept records, read as an archive: the host and clock records. */
static int take_kept(const struct skim *s, struct merge_host *h)
{
	struct fxt_reader *r = fxt_reader_open_mem(s->keep, s->keep_bytes,
						   NULL);
	struct fxt_record rec;

	if (!r)
		return -ENOMEM;
	while (fxt_reader_next(r, &rec) > 0)
		fxt_host_clock_take(&h->hc, &rec);
	fxt_reader_close(r);
	return 0;
}

int merge_skim(struct merge_host *h, struct fxt_merge_problem *problem)
{
	struct skim s = { .fd = h->fd };
	const uint64_t magic = FXT_MAGIC_RECORD;
	struct stat st;
	int ret;

	if (fstat(h->fd, &st) || lseek(h->fd, 0, SEEK_SET))
		return merge_problem(problem, -errno, h->index, false, 0,
				     "cannot read it: %s", strerror(errno));
	s.size = (uint64_t)st.st_size;
	s.buf = malloc(SKIM_BUFFER);
	if (!s.buf)
		return merge_problem(problem, -ENOMEM, h->index, false, 0,
				     "out of memory");
	ret = need(&s, FXT_WORD_BYTES);
	if (ret > 0 && !memcmp(s.buf, &magic, sizeof(magic)))
		ret = keep(&s, FXT_WORD_BYTES) ?: skip(&s, FXT_WORD_BYTES) ?:
		      skim_records(&s, h, problem) ?: take_kept(&s, h);
	else if (ret >= 0)
		ret = -EAGAIN;	/* not as fxtraced writes: the reader's pass */
	if (ret && ret != -EAGAIN && !problem->set)
		merge_problem(problem, ret, h->index, false, 0, "%s",
			      strerror(-ret));
	free(s.buf);
	free(s.keep);
	return ret;
}
