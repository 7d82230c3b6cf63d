// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JIT's perf map (perf_map.h): lines parsed by hand (strtoull would
 * take a sign, spaces and a value past 2^64 clamped), entries sorted at
 * the end, the overlaps resolved once so that a lookup is one search.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "perf_map.h"

struct perf_map_entry {
	uint64_t start, end; /* end exclusive; start < end */
	uint32_t seq; /* the line's order among the entries */
	char *name;
};

struct perf_map {
	struct perf_map_entry *e;
	size_t n, cap;
	uint32_t seq; /* the next entry's, or a moved one's */
	struct perf_map_stats st;
};

int perf_map_new(struct perf_map **ret)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : -ENOMEM;
}

void perf_map_free(struct perf_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->e[i].name);
	free(m->e);
	free(m);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A hex number at *s (an optional 0x), then one space; false if none. */
static bool hex_field(const char **s, const char *end, uint64_t *v)
{
	const char *p = *s;
	int d;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	*v = 0;
	if (p == end || hex_digit(*p) < 0)
		return false;
	for (; p < end && (d = hex_digit(*p)) >= 0; p++) {
		if (*v >> 60)
			return false; /* past 2^64 */
		*v = *v << 4 | (uint64_t)d;
	}
	if (p == end || *p != ' ')
		return false;
	*s = p + 1;
	return true;
}

/* name (len bytes) as printable ASCII, every other byte as \xNN. */
static char *name_escape(const char *s, size_t len)
{
	char *out = malloc(len * 4 + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			*o++ = (char)c;
		else
			o += sprintf(o, "\\x%02x", c);
	}
	*o = '\0';
	return out;
}

int perf_map_add(struct perf_map *m, uint64_t start, uint64_t size,
		 const char *name, size_t len)
{
	struct perf_map_entry *e;

	if (!size || start > UINT64_MAX - size) {
		m->st.malformed++;
		return -EINVAL;
	}
	if (len >= PERF_MAP_LINE_MAX) {
		m->st.too_long++;
		return -E2BIG;
	}
	if (m->n == PERF_MAP_ENTRIES_MAX) {
		m->st.over_entries++;
		return -ENOSPC;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;

		e = realloc(m->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->e = e;
		m->cap = cap;
	}
	e = &m->e[m->n];
	e->name = name_escape(name, len);
	if (!e->name)
		return -ENOMEM;
	e->start = start;
	e->end = start + size;
	e->seq = m->seq++;
	return (int)m->n++;
}

int perf_map_move(struct perf_map *m, size_t idx, uint64_t from, uint64_t to,
		  uint64_t size)
{
	struct perf_map_entry *e;

	if (idx >= m->n || m->e[idx].start != from)
		return -ENOENT;
	if (!size || to > UINT64_MAX - size)
		return -EINVAL;
	e = &m->e[idx];
	e->start = to;
	e->end = to + size;
	/* Where it is now is newer than what was there before. */
	e->seq = m->seq++;
	return 0;
}

/* One line, without its newline. */
static int parse_line(struct perf_map *m, const char *s, size_t len)
{
	const char *end = s + len;
	uint64_t start, size;
	int err;

	if (len >= PERF_MAP_LINE_MAX) {
		m->st.too_long++;
		return 0;
	}
	if (memchr(s, '\0', len) || !hex_field(&s, end, &start) ||
	    !hex_field(&s, end, &size) || s == end) {
		m->st.malformed++;
		return 0;
	}
	/* Size 0 or past 2^64: counted there, the next lines still read. */
	err = perf_map_add(m, start, size, s, (size_t)(end - s));
	return err == -ENOMEM ? err : 0;
}

int perf_map_parse(struct perf_map *m, const char *buf, size_t len)
{
	const char *end = buf + len, *nl;
	int err = 0;

	while (!err && buf < end && (nl = memchr(buf, '\n', end - buf))) {
		err = parse_line(m, buf, (size_t)(nl - buf));
		buf = nl + 1;
	}
	return err;
}

static int by_start(const void *a, const void *b)
{
	const struct perf_map_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int perf_map_finish(struct perf_map *m)
{
	size_t i, kept = 0;

	if (m->n) /* none yet: no array (qsort wants one) */
		qsort(m->e, m->n, sizeof(*m->e), by_start);
	/* Of two overlapping entries, the later line's stays. */
	for (i = 0; i < m->n; i++) {
		struct perf_map_entry e = m->e[i];

		while (kept && m->e[kept - 1].end > e.start &&
		       m->e[kept - 1].seq < e.seq) {
			free(m->e[--kept].name);
			m->st.overlaps++;
		}
		if (kept && m->e[kept - 1].end > e.start) {
			free(e.name);
			m->st.overlaps++;
			continue;
		}
		m->e[kept++] = e;
	}
	m->n = kept;
	m->st.entries = kept;
	m->st.memory = kept * sizeof(*m->e);
	for (i = 0; i < kept; i++)
		m->st.memory += strlen(m->e[i].name) + 1;
	return 0;
}

int perf_map_read_file(struct perf_map *m, int fd, char **ret, size_t *len)
{
	_cleanup_free_ char *buf = NULL;
	size_t cap = 1u << 16;
	char probe;
	ssize_t r;

	*len = 0;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	while (*len < PERF_MAP_BYTES_MAX) {
		if (*len == cap) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				return -ENOMEM;
			buf = b;
			cap *= 2;
		}
		r = pread(fd, buf + *len, cap - *len, (off_t)*len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		*len += (size_t)r;
	}
	*ret = TAKE_PTR(buf);
	if (*len < PERF_MAP_BYTES_MAX || pread(fd, &probe, 1, (off_t)*len) != 1)
		return 0;
	m->st.over_bytes++;
	return 1;
}

int perf_map_read_fd(struct perf_map *m, int fd)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int err = perf_map_read_file(m, fd, &buf, &len);

	if (err >= 0)
		err = perf_map_parse(m, buf, len);
	return err < 0 ? err : perf_map_finish(m);
}

int perf_map_lookup(const struct perf_map *m, uint64_t addr, const char **name)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->e[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= m->e[lo - 1].end)
		return -ENOENT;
	*name = m->e[lo - 1].name;
	return 0;
}

void perf_map_stats(const struct perf_map *m, struct perf_map_stats *st)
{
	*st = m->st;
}
