/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:mem records as the kernel side writes them, one definition for
 * the kernel module and the BPF program:
 *
 * - RSS: a counter event "mem.rss" on the process (pid = tgid, tid = the
 *   thread whose change it reports, inline) per kmem:rss_stat worth
 *   writing, counter id 0, with one uint64 argument in bytes named after
 *   the kernel's counter (rss_stat's member): "file", "anon", "swap",
 *   "shmem". Perfetto draws "mem.rss:anon" and so on under the process.
 *   rss_stat fires at every page a process maps or unmaps: a counter is
 *   written only when it moved by a step from its last written value
 *   (fxt_kmem_rss_due()), the first change seen of a process always, and
 *   each counter's last value when the process exits. The manager writes
 *   the values of the processes that exist at start, from /proc.
 *
 * - Stalls: a duration begin and end on the stalled thread, named
 *   "direct_reclaim" (vmscan:mm_vmscan_direct_reclaim_begin/end),
 *   "memcg_reclaim" (a memory cgroup at its limit, _memcg_reclaim_) or
 *   "compaction" (compaction:mm_compaction_begin/end), int32 "order" at
 *   the begin; at the end uint64 "reclaimed" (pages) for reclaim, int32
 *   "status" (the kernel's enum compact_result) for compaction. Begin and
 *   end pairs, as kernel:irq's (include/fxt/kirq.h); an end is written
 *   only when its begin was (struct fxt_kmem_stalls).
 *
 * - OOM kills: an instant "oom_kill" (oom:mark_victim) on the victim's
 *   thread, with uint32 "pid" (its process), string "name" (its command,
 *   inline, at most FXT_SCHED_NAME_MAX bytes) and uint64 "rss" (bytes of
 *   anonymous, file and shmem pages).
 *
 * - System counters, sampled by the manager from /proc/meminfo and
 *   /proc/vmstat on the kernel process (koid 0, counter id 0): "meminfo"
 *   with uint64 "available", "free", "cached", "dirty" and "swap_used"
 *   (bytes), and "vmstat" with uint64 "major_faults", "pgpgin" and
 *   "pgpgout": their rates per second over the last interval (pgpgin and
 *   pgpgout count KiB, as the kernel does).
 *
 * Strings are the kernel provider's indexed strings of include/fxt/kdev.h.
 */
#ifndef FXT_KMEM_H
#define FXT_KMEM_H

#include "fxt.h"
#include "kdev.h"

/* The kernel's rss_stat members (MM_FILEPAGES ... MM_SHMEMPAGES). */
#define FXT_KMEM_RSS_COUNTERS 4u

#define FXT_KMEM_RSS_WORDS 7u
/* Header, timestamp, pid, tid: the words before an event's arguments. */
#define FXT_KMEM_EVENT_WORDS 4u
#define FXT_KMEM_STALL_BEGIN_WORDS 5u
#define FXT_KMEM_RECLAIM_END_WORDS 6u
#define FXT_KMEM_COMPACTION_END_WORDS 5u
/* Where an oom_kill record's name bytes go. */
#define FXT_KMEM_OOM_NAME_WORD 6u
#define FXT_KMEM_OOM_MAX_WORDS (FXT_KMEM_OOM_NAME_WORD + 2 + 2)

/*
 * An RSS counter is written again when it moved by at least 1 MiB or
 * 1/64 of its last written value, whichever is more: a 300 MiB process
 * is seen to within 1.6%, in at most a few hundred records while it
 * grows from nothing.
 */
#define FXT_KMEM_RSS_STEP_MIN (1ull << 20)
#define FXT_KMEM_RSS_STEP_SHIFT 6u

static inline __u64 fxt_kmem_rss_step(__u64 last)
{
	__u64 rel = last >> FXT_KMEM_RSS_STEP_SHIFT;

	return rel > FXT_KMEM_RSS_STEP_MIN ? rel : FXT_KMEM_RSS_STEP_MIN;
}

/* Whether now is worth a record after last (written is 0: none yet). */
static inline int fxt_kmem_rss_due(int written, __u64 last, __u64 now)
{
	__u64 moved = now > last ? now - last : last - now;

	return !written || moved >= fxt_kmem_rss_step(last);
}

/* A page count as the kernel keeps it (may be briefly negative), in bytes. */
static inline __u64 fxt_kmem_pages_bytes(__s64 pages, unsigned int page_shift)
{
	if (pages <= 0)
		return 0;
	if ((__u64)pages > (~0ull >> page_shift))
		return ~0ull;
	return (__u64)pages << page_shift;
}

/* "mem.rss" counter member (0..3, others are not written) in bytes. */
static inline void fxt_kmem_write_rss(__u64 *w, __u64 ts, __u64 pid,
				      __u64 tid, __u32 member, __u64 bytes)
{
	w[0] = fxt_event_header(FXT_KMEM_RSS_WORDS, FXT_EVENT_COUNTER, 1, 0,
				FXT_KDEV_STR_CAT_MEM, FXT_KDEV_STR_MEM_RSS);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
	w[4] = fxt_arg_header(FXT_ARG_UINT64, 2,
			      (__u16)(FXT_KDEV_STR_RSS_FILE +
				      (member & (FXT_KMEM_RSS_COUNTERS - 1))),
			      0);
	w[5] = bytes;
	w[6] = 0;	/* counter id */
}

enum fxt_kmem_stall {
	FXT_KMEM_STALL_DIRECT_RECLAIM,
	FXT_KMEM_STALL_MEMCG_RECLAIM,
	FXT_KMEM_STALL_COMPACTION,
	FXT_KMEM_STALLS,
};

static inline __u16 fxt_kmem_stall_name(unsigned int stall)
{
	return (__u16)(FXT_KDEV_STR_DIRECT_RECLAIM +
		       (stall < FXT_KMEM_STALLS ? stall : 0));
}

static inline void fxt_kmem_write_event(__u64 *w, __u32 words,
					unsigned int type, __u16 name,
					unsigned int nargs, __u64 ts,
					__u64 pid, __u64 tid)
{
	w[0] = fxt_event_header(words, type, nargs, 0, FXT_KDEV_STR_CAT_MEM,
				name);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
}

/* A stall's begin: FXT_KMEM_STALL_BEGIN_WORDS words. */
static inline void fxt_kmem_write_stall_begin(__u64 *w, unsigned int stall,
					      __u64 ts, __u64 pid, __u64 tid,
					      __s32 order)
{
	fxt_kmem_write_event(w, FXT_KMEM_STALL_BEGIN_WORDS,
			     FXT_EVENT_DURATION_BEGIN,
			     fxt_kmem_stall_name(stall), 1, ts, pid, tid);
	w[4] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KDEV_STR_ORDER,
			      (__u32)order);
}

static inline __u32 fxt_kmem_stall_end_words(unsigned int stall)
{
	return stall == FXT_KMEM_STALL_COMPACTION ?
		       FXT_KMEM_COMPACTION_END_WORDS :
		       FXT_KMEM_RECLAIM_END_WORDS;
}

/*
 * A stall's end, fxt_kmem_stall_end_words() words: result is the pages
 * reclaimed, or compaction's status.
 */
static inline void fxt_kmem_write_stall_end(__u64 *w, unsigned int stall,
					    __u64 ts, __u64 pid, __u64 tid,
					    __u64 result)
{
	fxt_kmem_write_event(w, fxt_kmem_stall_end_words(stall),
			     FXT_EVENT_DURATION_END,
			     fxt_kmem_stall_name(stall), 1, ts, pid, tid);
	if (stall == FXT_KMEM_STALL_COMPACTION) {
		w[4] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KDEV_STR_STATUS,
				      (__u32)result);
		return;
	}
	w[4] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_KDEV_STR_RECLAIMED, 0);
	w[5] = result;
}

/*
 * The stalls of one thread whose begin was written: its end is written
 * exactly then. A begin lost to a full ring loses its end, and a stall
 * entered before the trace started writes none.
 */
struct fxt_kmem_stalls {
	__u32 begun;	/* bit s: the begin of stall s was written */
};

static inline void fxt_kmem_stall_enter(struct fxt_kmem_stalls *t,
					unsigned int stall, int written)
{
	__u32 bit = 1u << (stall & 31);

	t->begun = written ? t->begun | bit : t->begun & ~bit;
}

/* Whether the end of stall is to be written. */
static inline int fxt_kmem_stall_exit(struct fxt_kmem_stalls *t,
				      unsigned int stall)
{
	__u32 bit = 1u << (stall & 31);
	int begun = !!(t->begun & bit);

	t->begun &= ~bit;
	return begun;
}

static inline __u32 fxt_kmem_oom_words(__u32 name_len)
{
	return FXT_KMEM_OOM_NAME_WORD + fxt_words(name_len) + 2;
}

/*
 * "oom_kill" on the victim: writes all but the name's bytes, which the
 * caller has at w + FXT_KMEM_OOM_NAME_WORD, padded with zeros to a whole
 * word (name_len at most FXT_SCHED_NAME_MAX).
 */
static inline void fxt_kmem_write_oom(__u64 *w, __u64 ts, __u64 pid,
				      __u64 tid, __u32 name_len,
				      __u64 rss_bytes)
{
	__u32 words = fxt_kmem_oom_words(name_len);
	__u16 ref = name_len ? fxt_string_ref_inline((__u16)name_len) : 0;

	fxt_kmem_write_event(w, words, FXT_EVENT_INSTANT,
			     FXT_KDEV_STR_OOM_KILL, 3, ts, pid, tid);
	w[4] = fxt_kdev_uint32_arg(FXT_KDEV_STR_PID, (__u32)pid);
	w[5] = fxt_arg_header(FXT_ARG_STRING, 1 + fxt_words(name_len),
			      FXT_KDEV_STR_NAME, ref);
	w[words - 2] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_KDEV_STR_RSS, 0);
	w[words - 1] = rss_bytes;
}

#define FXT_KMEM_MEMINFO_VALUES 5u
#define FXT_KMEM_VMSTAT_VALUES 3u
#define FXT_KMEM_MEMINFO_WORDS \
	(FXT_KMEM_EVENT_WORDS + 2 * FXT_KMEM_MEMINFO_VALUES + 1)
#define FXT_KMEM_VMSTAT_WORDS \
	(FXT_KMEM_EVENT_WORDS + 2 * FXT_KMEM_VMSTAT_VALUES + 1)

/* A counter on the kernel process of n uint64 values named from first. */
static inline void fxt_kmem_write_system(__u64 *w, __u16 name, __u64 ts,
					 __u16 first, const __u64 *values,
					 unsigned int n)
{
	unsigned int i;

	fxt_kmem_write_event(w, FXT_KMEM_EVENT_WORDS + 2 * n + 1,
			     FXT_EVENT_COUNTER, name, n, ts,
			     FXT_KDEV_KERNEL_KOID, FXT_KDEV_KERNEL_KOID);
	for (i = 0; i < n; i++) {
		w[FXT_KMEM_EVENT_WORDS + 2 * i] =
			fxt_arg_header(FXT_ARG_UINT64, 2, (__u16)(first + i), 0);
		w[FXT_KMEM_EVENT_WORDS + 2 * i + 1] = values[i];
	}
	w[FXT_KMEM_EVENT_WORDS + 2 * n] = 0;	/* counter id */
}

/* "meminfo": available, free, cached, dirty, swap_used, in that order. */
static inline void fxt_kmem_write_meminfo(__u64 *w, __u64 ts,
					  const __u64 *bytes)
{
	fxt_kmem_write_system(w, FXT_KDEV_STR_MEMINFO, ts,
			      FXT_KDEV_STR_AVAILABLE, bytes,
			      FXT_KMEM_MEMINFO_VALUES);
}

/* "vmstat": major_faults, pgpgin, pgpgout per second, in that order. */
static inline void fxt_kmem_write_vmstat(__u64 *w, __u64 ts,
					 const __u64 *rates)
{
	fxt_kmem_write_system(w, FXT_KDEV_STR_VMSTAT, ts,
			      FXT_KDEV_STR_MAJOR_FAULTS, rates,
			      FXT_KMEM_VMSTAT_VALUES);
}

#endif /* FXT_KMEM_H */
