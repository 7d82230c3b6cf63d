/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Why stack samples were lost or their stacks cut short, as the manager
 * counts it: one stable name per reason, for tracectl status while a
 * trace runs (the control protocol's FXT_CTL_PROVIDER_LOSS rows), the
 * archive (the record below) and what reads it (summary, report).
 *
 * The record: a blob record (type 5) of blob type FXT_BLOB_DATA named
 * FXT_STACK_LOSSES_NAME (the kernel provider's indexed string
 * FXT_KDEV_STR_STACK_LOSSES of include/fxt/kdev.h), written once in the
 * kernel section at the end of a stop (after "fxtrace:symbols", so the
 * names' losses are in), and at the end of each snapshot's kernel
 * section (its own walks' counts). Its payload is a list of entries, each:
 *
 *   word 0   bits [0, 8): the name's length n, 1..FXT_STACK_LOSSES_NAME_MAX
 *            (the other bits 0)
 *   word 1   the count
 *   then     the n name bytes, padded with zeros to whole words
 *
 * The manager writes every counter of enum fxt_stack_loss, zeros too, in
 * that order. Readers match entries by name, skip names they do not know
 * (a later manager may count more), add the counts of a name met again
 * (an archive of tracectl merge holds one record per input), saturating,
 * and take an entry that does not fit its record as the end of it.
 *
 * All words little-endian 64-bit.
 */
#ifndef FXT_STACKS_LOSSES_H
#define FXT_STACKS_LOSSES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fxt.h"
#include "kdev.h"

#define FXT_STACK_LOSSES_NAME "fxtrace:stack_losses"
#define FXT_STACK_LOSSES_STR FXT_KDEV_STR_STACK_LOSSES
#define FXT_STACK_LOSSES_NAME_MAX 63u

/*
 * The reasons. Walks that stop early say why (the stack is kept, cut
 * there): a depth limit, a user stack not readable, a frameless leaf's
 * caller not found, a junk word. Samples lost whole: full rings or the
 * manager's bounds. Frames left unnamed: their mapping not known, or
 * its file not read.
 */
enum fxt_stack_loss {
	/* kernel:sample / kernel:offcpu records lost (rings, bounds) */
	FXT_STACK_LOSS_SAMPLES_DROPPED,
	FXT_STACK_LOSS_OFFCPU_DROPPED,
	/* kernel stacks of FXT_KSAMPLE_KERNEL_MAX frames: maybe cut */
	FXT_STACK_LOSS_KERNEL_DEPTH_LIMIT,
	/* user walks that reached FXT_KSAMPLE_USER_MAX frames: maybe cut */
	FXT_STACK_LOSS_USER_DEPTH_LIMIT,
	/* user stacks whose words at the stack pointer were not readable */
	FXT_STACK_LOSS_USER_READ_FAULT,
	/* frameless user leaves whose caller's return address was not read */
	FXT_STACK_LOSS_LEAF_CALLER_UNREAD,
	/* walks ended at a kernel-half word above a frameless leaf */
	FXT_STACK_LOSS_JUNK_FRAME_WORD,
	/* mappings not kept (over the tracker's caps, or malformed) */
	FXT_STACK_LOSS_MAPPINGS_DROPPED,
	/* mapping records the kernel dropped (PERF_RECORD_LOST) */
	FXT_STACK_LOSS_MAPPINGS_LOST,
	/* mapped files left unnamed: not readable by their process's owner */
	FXT_STACK_LOSS_UNNAMED_UNREADABLE,
	/* ... not opened (gone, FUSE, not a regular file) */
	FXT_STACK_LOSS_UNNAMED_UNOPENED,
	/* ... a symbol section over the bound */
	FXT_STACK_LOSS_UNNAMED_TOO_LARGE,
	/* ... past the symbols' budget (bytes or time) */
	FXT_STACK_LOSS_UNNAMED_OVER_BUDGET,
	/*
	 * User walks by frame pointers alone: the process's unwinding
	 * tables not written yet (include/fxt/unwind.h)
	 */
	FXT_STACK_LOSS_UNWIND_NO_TABLE,
	/* walks with tables stopped at a rule they do not follow */
	FXT_STACK_LOSS_UNWIND_UNSUPPORTED,
	/* ... at a stack word not readable */
	FXT_STACK_LOSS_UNWIND_READ_FAULT,
	/* ... at a stack pointer that did not grow */
	FXT_STACK_LOSS_UNWIND_BAD_FRAME,
	/* mapped files left without tables: the tables' memory full */
	FXT_STACK_LOSS_UNWIND_TABLES_FULL,
	/*
	 * Python frames (include/fxt/pyframes.h): walks cut at the record's
	 * room or the frames' bound; stopped at a word not readable; frames
	 * whose code object's names could not be read ("[python]")
	 */
	FXT_STACK_LOSS_PYTHON_DEPTH_LIMIT,
	FXT_STACK_LOSS_PYTHON_READ_FAULT,
	FXT_STACK_LOSS_PYTHON_UNNAMED,
	FXT_STACK_LOSS_COUNT,
};

/* Index i holds the name of reason i. */
#define FXT_STACK_LOSS_NAMES                                               \
	{                                                                  \
		"samples_dropped", "offcpu_dropped", "kernel_depth_limit", \
			"user_depth_limit", "user_read_fault",             \
			"leaf_caller_unread", "junk_frame_word",           \
			"mappings_dropped", "mappings_lost",               \
			"unnamed_unreadable", "unnamed_unopened",          \
			"unnamed_too_large", "unnamed_over_budget",        \
			"unwind_no_table", "unwind_unsupported",           \
			"unwind_read_fault", "unwind_bad_frame",           \
			"unwind_tables_full", "python_depth_limit",        \
			"python_read_fault", "python_unnamed"              \
	}

#define FXT_STACK_LOSSES_LEN_SHIFT 0
#define FXT_STACK_LOSSES_LEN_WIDTH 8

/* One entry as read: name points into the record (not NUL-ended). */
struct fxt_stack_loss_entry {
	const char *name;
	uint8_t name_len;
	uint64_t count;
};

static inline size_t fxt_stack_loss_entry_words(size_t name_len)
{
	return 2 + fxt_words((__u32)name_len);
}

/* The name of reason i (< FXT_STACK_LOSS_COUNT). */
static inline const char *fxt_stack_loss_name(unsigned int i)
{
	static const char *const names[FXT_STACK_LOSS_COUNT] =
		FXT_STACK_LOSS_NAMES;

	return names[i];
}

/* The reason of a name, or -1 for a name not known. */
static inline int fxt_stack_loss_lookup(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		if (strlen(fxt_stack_loss_name(i)) == len &&
		    !memcmp(fxt_stack_loss_name(i), name, len))
			return (int)i;
	return -1;
}

/* The payload's words with every reason. */
static inline size_t fxt_stack_losses_payload_words(void)
{
	size_t i, n = 0;

	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		n += fxt_stack_loss_entry_words(
			strlen(fxt_stack_loss_name((unsigned int)i)));
	return n;
}

/*
 * The whole record (header, then every reason's entry) into p, room for
 * 1 + fxt_stack_losses_payload_words() words; returns the words written.
 */
static inline size_t
fxt_stack_losses_put(uint64_t *p, const uint64_t counts[FXT_STACK_LOSS_COUNT])
{
	size_t words = 1 + fxt_stack_losses_payload_words(), at = 1;
	unsigned int i;

	p[0] = fxt_blob_header((__u32)words, FXT_STACK_LOSSES_STR,
			       (__u16)((words - 1) * FXT_WORD_BYTES),
			       FXT_BLOB_DATA);
	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++) {
		const char *name = fxt_stack_loss_name(i);
		size_t len = strlen(name), nw = fxt_words((__u32)len);

		p[at] = FXT_SET(len, FXT_STACK_LOSSES_LEN);
		p[at + 1] = counts[i];
		p[at + 1 + nw] = 0;
		memcpy(&p[at + 2], name, len);
		at += 2 + nw;
	}
	return at;
}

/*
 * One entry from avail payload words at p: the words used, or 0 when it
 * does not fit (the rest of the payload is then not to be read).
 */
static inline size_t fxt_stack_losses_get(const uint64_t *p, size_t avail,
					  struct fxt_stack_loss_entry *e)
{
	size_t words;

	if (avail < 2 || p[0] >> FXT_STACK_LOSSES_LEN_WIDTH)
		return 0;
	e->name_len = (uint8_t)FXT_GET(p[0], FXT_STACK_LOSSES_LEN);
	if (!e->name_len || e->name_len > FXT_STACK_LOSSES_NAME_MAX)
		return 0;
	words = fxt_stack_loss_entry_words(e->name_len);
	if (words > avail)
		return 0;
	e->count = p[1];
	e->name = (const char *)(p + 2);
	return words;
}

#endif /* FXT_STACKS_LOSSES_H */
