// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_sysmem.h"

/* "Key:" then a number (and " kB" in meminfo), one per line. */
static bool line_value(const char *p, const char *eol, const char *key,
		       uint64_t *v)
{
	size_t klen = strlen(key);
	uint64_t n = 0;

	if ((size_t)(eol - p) <= klen || memcmp(p, key, klen))
		return false;
	for (p += klen; p < eol && (*p == ' ' || *p == '\t'); p++)
		;
	if (p == eol || !isdigit((unsigned char)*p))
		return false;
	for (; p < eol && isdigit((unsigned char)*p); p++) {
		if (n > (UINT64_MAX >> 10) / 10)
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	*v = n;
	return true;
}

/* For each line, the keys' values; a bit per key found. */
static unsigned int parse_keys(const char *text, size_t len,
			       const char *const *keys, unsigned int nkeys,
			       uint64_t *values)
{
	const char *p = text, *end = text + len, *eol;
	unsigned int found = 0, i;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		for (i = 0; i < nkeys; i++)
			if (line_value(p, eol, keys[i], &values[i]))
				found |= 1u << i;
	}
	return found;
}

unsigned int kernel_sysmem_parse_meminfo(const char *text, size_t len,
					 __u64 bytes[FXT_KMEM_MEMINFO_VALUES])
{
	static const char *const keys[] = {
		"MemAvailable:", "MemFree:", "Cached:", "Dirty:",
		"SwapTotal:", "SwapFree:",
	};
	uint64_t kb[6] = { 0 };
	unsigned int found = parse_keys(text, len, keys, 6, kb), i;

	for (i = 0; i < 4; i++)
		bytes[i] = kb[i] << 10;
	bytes[4] = kb[4] > kb[5] ? (kb[4] - kb[5]) << 10 : 0;
	/* swap_used needs both of its lines. */
	return (found & 0xf) | ((found & 0x30) == 0x30 ? 1u << 4 : 0);
}

unsigned int kernel_sysmem_parse_vmstat(const char *text, size_t len,
					uint64_t counts[FXT_KMEM_VMSTAT_VALUES])
{
	static const char *const keys[] = { "pgmajfault ", "pgpgin ",
					    "pgpgout " };

	return parse_keys(text, len, keys, FXT_KMEM_VMSTAT_VALUES, counts);
}

/* The start of a /proc file, NUL-free; its length or 0. */
static size_t read_proc(const char *proc_root, const char *name, char *buf,
			size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", proc_root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, size);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* vmstat's rates per second since the last sample; false for the first. */
static bool vmstat_rates(struct kernel_sysmem *sm, const char *proc_root,
			 uint64_t now_ns, __u64 *rates)
{
	char text[16384];
	uint64_t counts[FXT_KMEM_VMSTAT_VALUES] = { 0 };
	uint64_t dt = now_ns > sm->last_ns ? now_ns - sm->last_ns : 0;
	size_t len = read_proc(proc_root, "vmstat", text, sizeof(text));
	bool had = sm->have_events && sm->last_ns && dt;
	unsigned int i;

	if (kernel_sysmem_parse_vmstat(text, len, counts) !=
	    (1u << FXT_KMEM_VMSTAT_VALUES) - 1) {
		sm->have_events = false;
		return false;
	}
	for (i = 0; had && i < FXT_KMEM_VMSTAT_VALUES; i++)
		rates[i] = counts[i] >= sm->events[i] ?
				   (uint64_t)((double)(counts[i] - sm->events[i]) *
					      1e9 / (double)dt) :
				   0;
	memcpy(sm->events, counts, sizeof(counts));
	sm->have_events = true;
	return had;
}

static void enqueue(struct kernel_sysmem *sm, const __u64 *w, size_t words)
{
	size_t cap;
	__u64 *q;

	if (sm->head == sm->len)
		sm->head = sm->len = 0;
	if (sm->len + words > KERNEL_SYSMEM_QUEUE_MAX_WORDS) {
		sm->dropped++;
		return;
	}
	if (sm->len + words > sm->cap) {
		cap = sm->cap ? sm->cap * 2 : 1024;
		q = realloc(sm->queue, cap * sizeof(*q));
		if (!q) {
			sm->dropped++;
			return;
		}
		sm->queue = q;
		sm->cap = cap;
	}
	memcpy(sm->queue + sm->len, w, words * sizeof(*w));
	sm->len += words;
	sm->records++;
}

void kernel_sysmem_sample(struct kernel_sysmem *sm, const char *proc_root,
			  uint64_t now_ns)
{
	char text[4096];
	__u64 w[FXT_KMEM_MEMINFO_WORDS];
	__u64 bytes[FXT_KMEM_MEMINFO_VALUES] = { 0 };
	__u64 rates[FXT_KMEM_VMSTAT_VALUES];
	size_t len;

	len = read_proc(proc_root, "meminfo", text, sizeof(text));
	if (kernel_sysmem_parse_meminfo(text, len, bytes)) {
		fxt_kmem_write_meminfo(w, now_ns, bytes);
		enqueue(sm, w, FXT_KMEM_MEMINFO_WORDS);
	}
	if (vmstat_rates(sm, proc_root, now_ns, rates)) {
		fxt_kmem_write_vmstat(w, now_ns, rates);
		enqueue(sm, w, FXT_KMEM_VMSTAT_WORDS);
	}
	sm->last_ns = now_ns;
}

size_t kernel_sysmem_read(struct kernel_sysmem *sm, void *buf, size_t cap)
{
	size_t words = 0, n;

	while (sm->head + words < sm->len) {
		n = (size_t)fxt_record_words(sm->queue[sm->head + words]);
		if ((words + n) * sizeof(__u64) > cap)
			break;
		words += n;
	}
	if (!words)
		return 0;	/* the queue may not exist yet */
	memcpy(buf, sm->queue + sm->head, words * sizeof(__u64));
	sm->head += words;
	return words * sizeof(__u64);
}

void kernel_sysmem_free(struct kernel_sysmem *sm)
{
	free(sm->queue);
	memset(sm, 0, sizeof(*sm));
}
