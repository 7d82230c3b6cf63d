/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The Fuchsia Trace Format (FXT) record layout, defined once for the
 * kernel module, BPF programs, the manager, tracectl and libprovider.
 *
 * Spec: shared/spec/fxt-format.md (current revision). Older revisions
 * only matter to the reader; their layouts are here too where they differ.
 *
 * Words are little-endian 64-bit values. Fields are [shift, shift+width).
 * No libc: only <linux/types.h>, which the kernel, clang -target bpf and
 * userspace (linux-libc-dev) all provide.
 */
#ifndef FXT_FXT_H
#define FXT_FXT_H

#ifndef FXT_NO_LINUX_TYPES
#include <linux/types.h>
#endif

#define FXT_WORD_BYTES 8u

/* Record types: header word [0..3]. */
enum fxt_record_type {
	FXT_RECORD_METADATA = 0,
	FXT_RECORD_INITIALIZATION = 1,
	FXT_RECORD_STRING = 2,
	FXT_RECORD_THREAD = 3,
	FXT_RECORD_EVENT = 4,
	FXT_RECORD_BLOB = 5,
	FXT_RECORD_USERSPACE_OBJECT = 6,
	FXT_RECORD_KERNEL_OBJECT = 7,
	FXT_RECORD_SCHEDULING = 8,
	FXT_RECORD_LOG = 9,
	FXT_RECORD_LARGE = 15,
};

/* Metadata types: metadata header [16..19]. */
enum fxt_metadata_type {
	FXT_METADATA_PROVIDER_INFO = 1,
	FXT_METADATA_PROVIDER_SECTION = 2,
	FXT_METADATA_PROVIDER_EVENT = 3,
	FXT_METADATA_TRACE_INFO = 4,
};

/* Provider event ids: provider event metadata [52..55]. */
enum fxt_provider_event {
	FXT_PROVIDER_EVENT_BUFFER_OVERFLOW = 0,
	/*
	 * fxtrace's own, past the spec's: the manager was restarted during
	 * the trace and recovered this provider's records (provider id 0:
	 * the trace as a whole). Readers that know only the spec's ids
	 * skip it.
	 */
	FXT_PROVIDER_EVENT_RECOVERED = 8,
};

/* Trace info types: trace info metadata [20..23]. */
enum fxt_trace_info_type {
	FXT_TRACE_INFO_MAGIC_NUMBER = 0,
};

#define FXT_MAGIC_NUMBER 0x16547846u
/* The whole magic number record as one word (spec, "Magic number record"). */
#define FXT_MAGIC_RECORD 0x0016547846040010ull

/* Event types: event header [16..19], current numbering. */
enum fxt_event_type {
	FXT_EVENT_INSTANT = 0,
	FXT_EVENT_COUNTER = 1,
	FXT_EVENT_DURATION_BEGIN = 2,
	FXT_EVENT_DURATION_END = 3,
	FXT_EVENT_DURATION_COMPLETE = 4,
	FXT_EVENT_ASYNC_BEGIN = 5,
	FXT_EVENT_ASYNC_INSTANT = 6,
	FXT_EVENT_ASYNC_END = 7,
	FXT_EVENT_FLOW_BEGIN = 8,
	FXT_EVENT_FLOW_STEP = 9,
	FXT_EVENT_FLOW_END = 10,
};
#define FXT_EVENT_TYPE_MAX FXT_EVENT_FLOW_END

/*
 * Instant event scope. The spec text gives instant events no scope field;
 * we write it as a string argument "scope" ("process", "global"). Fuchsia's
 * trace-engine instead appends one word holding these values after the
 * arguments: readers accept both. Neither means thread scope.
 */
enum fxt_instant_scope {
	FXT_SCOPE_THREAD = 0,
	FXT_SCOPE_PROCESS = 1,
	FXT_SCOPE_GLOBAL = 2,
};

/* Argument types: argument header [0..3]. */
enum fxt_arg_type {
	FXT_ARG_NULL = 0,
	FXT_ARG_INT32 = 1,
	FXT_ARG_UINT32 = 2,
	FXT_ARG_INT64 = 3,
	FXT_ARG_UINT64 = 4,
	FXT_ARG_DOUBLE = 5,
	FXT_ARG_STRING = 6,
	FXT_ARG_POINTER = 7,
	FXT_ARG_KOID = 8,
	FXT_ARG_BOOL = 9,
};
#define FXT_ARG_TYPE_MAX FXT_ARG_BOOL

/* Scheduling record types: scheduling header [60..63]. */
enum fxt_sched_type {
	FXT_SCHED_LEGACY_CONTEXT_SWITCH = 0,
	FXT_SCHED_CONTEXT_SWITCH = 1,
	FXT_SCHED_THREAD_WAKEUP = 2,
};

/* Thread states (ZX_THREAD_STATE_*). */
enum fxt_thread_state {
	FXT_THREAD_NEW = 0,
	FXT_THREAD_RUNNING = 1,
	FXT_THREAD_SUSPENDED = 2,
	FXT_THREAD_BLOCKED = 3,
	FXT_THREAD_DYING = 4,
	FXT_THREAD_DEAD = 5,
};

/* Blob types: blob header [48..55]. */
enum fxt_blob_type {
	FXT_BLOB_DATA = 1,
	FXT_BLOB_LAST_BRANCH = 2,
	FXT_BLOB_PERFETTO = 3,
};

/* Large record types [36..39] and large blob formats [40..43]. */
enum fxt_large_type {
	FXT_LARGE_BLOB = 0,
};

enum fxt_large_blob_format {
	FXT_LARGE_BLOB_WITH_METADATA = 0,
	FXT_LARGE_BLOB_NO_METADATA = 1,
};

/* ZX_OBJ_TYPE_* used in kernel object records. */
enum fxt_zx_obj_type {
	FXT_ZX_OBJ_PROCESS = 1,
	FXT_ZX_OBJ_THREAD = 2,
};

/* String refs: 0 = empty, MSB clear = table index, MSB set = inline length. */
#define FXT_STRING_REF_EMPTY 0u
#define FXT_STRING_REF_INLINE 0x8000u
#define FXT_STRING_INDEX_MAX 0x7fffu
#define FXT_STRING_LEN_MAX 32000u
/* Thread refs: 0 = inline koids, else table index 1..255. */
#define FXT_THREAD_REF_INLINE 0u
#define FXT_THREAD_INDEX_MAX 0xffu

#define FXT_MAX_ARGS 15u
#define FXT_RECORD_MAX_WORDS 0xfffu
#define FXT_LARGE_RECORD_MAX_WORDS 0xffffffffull

/* Field positions: FXT_<RECORD>_<FIELD>_SHIFT / _WIDTH. */
#define FXT_HDR_TYPE_SHIFT 0
#define FXT_HDR_TYPE_WIDTH 4
#define FXT_HDR_SIZE_SHIFT 4
#define FXT_HDR_SIZE_WIDTH 12
#define FXT_LARGE_SIZE_SHIFT 4
#define FXT_LARGE_SIZE_WIDTH 32
#define FXT_LARGE_TYPE_SHIFT 36
#define FXT_LARGE_TYPE_WIDTH 4
#define FXT_LARGE_BLOB_FORMAT_SHIFT 40
#define FXT_LARGE_BLOB_FORMAT_WIDTH 4

#define FXT_META_TYPE_SHIFT 16
#define FXT_META_TYPE_WIDTH 4
#define FXT_META_PROVIDER_ID_SHIFT 20
#define FXT_META_PROVIDER_ID_WIDTH 32
#define FXT_META_NAME_LEN_SHIFT 52
#define FXT_META_NAME_LEN_WIDTH 8
#define FXT_META_EVENT_ID_SHIFT 52
#define FXT_META_EVENT_ID_WIDTH 4
#define FXT_META_TRACE_INFO_TYPE_SHIFT 20
#define FXT_META_TRACE_INFO_TYPE_WIDTH 4
#define FXT_META_MAGIC_SHIFT 24
#define FXT_META_MAGIC_WIDTH 32

#define FXT_STRING_INDEX_SHIFT 16
#define FXT_STRING_INDEX_WIDTH 15
#define FXT_STRING_LEN_SHIFT 32
#define FXT_STRING_LEN_WIDTH 15

#define FXT_THREAD_INDEX_SHIFT 16
#define FXT_THREAD_INDEX_WIDTH 8

#define FXT_EVENT_TYPE_SHIFT 16
#define FXT_EVENT_TYPE_WIDTH 4
#define FXT_EVENT_NARGS_SHIFT 20
#define FXT_EVENT_NARGS_WIDTH 4
#define FXT_EVENT_THREAD_SHIFT 24
#define FXT_EVENT_THREAD_WIDTH 8
#define FXT_EVENT_CATEGORY_SHIFT 32
#define FXT_EVENT_CATEGORY_WIDTH 16
#define FXT_EVENT_NAME_SHIFT 48
#define FXT_EVENT_NAME_WIDTH 16

#define FXT_BLOB_NAME_SHIFT 16
#define FXT_BLOB_NAME_WIDTH 16
#define FXT_BLOB_SIZE_SHIFT 32
#define FXT_BLOB_SIZE_WIDTH 15
#define FXT_BLOB_TYPE_SHIFT 48
#define FXT_BLOB_TYPE_WIDTH 8

#define FXT_UOBJ_PROCESS_SHIFT 16
#define FXT_UOBJ_PROCESS_WIDTH 8
#define FXT_UOBJ_NAME_SHIFT 24
#define FXT_UOBJ_NAME_WIDTH 16
#define FXT_UOBJ_NARGS_SHIFT 40
#define FXT_UOBJ_NARGS_WIDTH 4

#define FXT_KOBJ_TYPE_SHIFT 16
#define FXT_KOBJ_TYPE_WIDTH 8
#define FXT_KOBJ_NAME_SHIFT 24
#define FXT_KOBJ_NAME_WIDTH 16
#define FXT_KOBJ_NARGS_SHIFT 40
#define FXT_KOBJ_NARGS_WIDTH 4

#define FXT_SCHED_TYPE_SHIFT 60
#define FXT_SCHED_TYPE_WIDTH 4
#define FXT_SCHED_NARGS_SHIFT 16
#define FXT_SCHED_NARGS_WIDTH 4
#define FXT_SCHED_CPU_SHIFT 20
#define FXT_SCHED_CPU_WIDTH 16
#define FXT_SCHED_OUT_STATE_SHIFT 36
#define FXT_SCHED_OUT_STATE_WIDTH 4

/* Legacy context switch (scheduling type 0; 2018/2021 revisions). */
#define FXT_LEGACY_CS_CPU_SHIFT 16
#define FXT_LEGACY_CS_CPU_WIDTH 8
#define FXT_LEGACY_CS_OUT_STATE_SHIFT 24
#define FXT_LEGACY_CS_OUT_STATE_WIDTH 4
#define FXT_LEGACY_CS_OUT_THREAD_SHIFT 28
#define FXT_LEGACY_CS_OUT_THREAD_WIDTH 8
#define FXT_LEGACY_CS_IN_THREAD_SHIFT 36
#define FXT_LEGACY_CS_IN_THREAD_WIDTH 8
#define FXT_LEGACY_CS_OUT_PRIO_SHIFT 44
#define FXT_LEGACY_CS_OUT_PRIO_WIDTH 8
#define FXT_LEGACY_CS_IN_PRIO_SHIFT 52
#define FXT_LEGACY_CS_IN_PRIO_WIDTH 8

#define FXT_LOG_LEN_SHIFT 16
#define FXT_LOG_LEN_WIDTH 15
#define FXT_LOG_THREAD_SHIFT 32
#define FXT_LOG_THREAD_WIDTH 8

/* Large blob format header word (second word of a type 15 record). */
#define FXT_LBLOB_CATEGORY_SHIFT 0
#define FXT_LBLOB_CATEGORY_WIDTH 16
#define FXT_LBLOB_NAME_SHIFT 16
#define FXT_LBLOB_NAME_WIDTH 16
#define FXT_LBLOB_NARGS_SHIFT 32
#define FXT_LBLOB_NARGS_WIDTH 4
#define FXT_LBLOB_THREAD_SHIFT 36
#define FXT_LBLOB_THREAD_WIDTH 8

#define FXT_ARG_TYPE_SHIFT 0
#define FXT_ARG_TYPE_WIDTH 4
#define FXT_ARG_SIZE_SHIFT 4
#define FXT_ARG_SIZE_WIDTH 12
#define FXT_ARG_NAME_SHIFT 16
#define FXT_ARG_NAME_WIDTH 16
#define FXT_ARG_VALUE32_SHIFT 32
#define FXT_ARG_VALUE32_WIDTH 32
#define FXT_ARG_STRING_VALUE_SHIFT 32
#define FXT_ARG_STRING_VALUE_WIDTH 16

static inline __u64 fxt_mask(unsigned int width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* Place v in a field; bits of v beyond the width are dropped. */
static inline __u64 fxt_field(__u64 v, unsigned int shift, unsigned int width)
{
	return (v & fxt_mask(width)) << shift;
}

static inline __u64 fxt_get(__u64 word, unsigned int shift, unsigned int width)
{
	return (word >> shift) & fxt_mask(width);
}

#define FXT_SET(v, F) fxt_field((v), F##_SHIFT, F##_WIDTH)
#define FXT_GET(w, F) fxt_get((w), F##_SHIFT, F##_WIDTH)

/* Words taken by a byte stream padded to 8 bytes. */
static inline __u32 fxt_words(__u32 bytes)
{
	return (bytes + FXT_WORD_BYTES - 1) / FXT_WORD_BYTES;
}

/* Words of a record from its header word, large records included. */
static inline __u64 fxt_record_words(__u64 header)
{
	if (FXT_GET(header, FXT_HDR_TYPE) == FXT_RECORD_LARGE)
		return FXT_GET(header, FXT_LARGE_SIZE);
	return FXT_GET(header, FXT_HDR_SIZE);
}

static inline __u64 fxt_record_bytes(__u64 header)
{
	return fxt_record_words(header) * FXT_WORD_BYTES;
}

static inline __u16 fxt_string_ref_inline(__u16 len)
{
	return (__u16)(FXT_STRING_REF_INLINE | (len & FXT_STRING_INDEX_MAX));
}

static inline int fxt_string_ref_is_inline(__u16 ref)
{
	return (ref & FXT_STRING_REF_INLINE) != 0;
}

/* Words an inline string of a string ref adds to its record. */
static inline __u32 fxt_string_ref_words(__u16 ref)
{
	return fxt_string_ref_is_inline(ref) ?
		       fxt_words(ref & FXT_STRING_INDEX_MAX) : 0;
}

static inline __u64 fxt_record_header(unsigned int type, __u32 size_words)
{
	return FXT_SET(type, FXT_HDR_TYPE) | FXT_SET(size_words, FXT_HDR_SIZE);
}

static inline __u64 fxt_large_header(unsigned int large_type, __u64 size_words)
{
	return FXT_SET(FXT_RECORD_LARGE, FXT_HDR_TYPE) |
	       FXT_SET(size_words, FXT_LARGE_SIZE) |
	       FXT_SET(large_type, FXT_LARGE_TYPE);
}

static inline __u64 fxt_magic_record(void)
{
	return fxt_record_header(FXT_RECORD_METADATA, 1) |
	       FXT_SET(FXT_METADATA_TRACE_INFO, FXT_META_TYPE) |
	       FXT_SET(FXT_TRACE_INFO_MAGIC_NUMBER, FXT_META_TRACE_INFO_TYPE) |
	       FXT_SET(FXT_MAGIC_NUMBER, FXT_META_MAGIC);
}

/* Provider info: header, then the name stream (name_len <= 255). */
static inline __u64 fxt_provider_info_header(__u32 provider_id,
					     __u32 name_len)
{
	return fxt_record_header(FXT_RECORD_METADATA, 1 + fxt_words(name_len)) |
	       FXT_SET(FXT_METADATA_PROVIDER_INFO, FXT_META_TYPE) |
	       FXT_SET(provider_id, FXT_META_PROVIDER_ID) |
	       FXT_SET(name_len, FXT_META_NAME_LEN);
}

static inline __u64 fxt_provider_section_header(__u32 provider_id)
{
	return fxt_record_header(FXT_RECORD_METADATA, 1) |
	       FXT_SET(FXT_METADATA_PROVIDER_SECTION, FXT_META_TYPE) |
	       FXT_SET(provider_id, FXT_META_PROVIDER_ID);
}

static inline __u64 fxt_provider_event_header(__u32 provider_id,
					      unsigned int event_id)
{
	return fxt_record_header(FXT_RECORD_METADATA, 1) |
	       FXT_SET(FXT_METADATA_PROVIDER_EVENT, FXT_META_TYPE) |
	       FXT_SET(provider_id, FXT_META_PROVIDER_ID) |
	       FXT_SET(event_id, FXT_META_EVENT_ID);
}

/* Initialization: header, then the ticks-per-second word. */
static inline __u64 fxt_init_header(void)
{
	return fxt_record_header(FXT_RECORD_INITIALIZATION, 2);
}

/* String record: header, then the string stream. */
static inline __u64 fxt_string_header(__u16 index, __u16 len)
{
	return fxt_record_header(FXT_RECORD_STRING, 1 + fxt_words(len)) |
	       FXT_SET(index, FXT_STRING_INDEX) | FXT_SET(len, FXT_STRING_LEN);
}

/* Thread record: header, process koid, thread koid. */
static inline __u64 fxt_thread_header(__u8 index)
{
	return fxt_record_header(FXT_RECORD_THREAD, 3) |
	       FXT_SET(index, FXT_THREAD_INDEX);
}

static inline __u64 fxt_event_header(__u32 size_words, unsigned int event_type,
				     unsigned int nargs, __u8 thread_ref,
				     __u16 category_ref, __u16 name_ref)
{
	return fxt_record_header(FXT_RECORD_EVENT, size_words) |
	       FXT_SET(event_type, FXT_EVENT_TYPE) |
	       FXT_SET(nargs, FXT_EVENT_NARGS) |
	       FXT_SET(thread_ref, FXT_EVENT_THREAD) |
	       FXT_SET(category_ref, FXT_EVENT_CATEGORY) |
	       FXT_SET(name_ref, FXT_EVENT_NAME);
}

static inline __u64 fxt_blob_header(__u32 size_words, __u16 name_ref,
				    __u16 payload_len, unsigned int blob_type)
{
	return fxt_record_header(FXT_RECORD_BLOB, size_words) |
	       FXT_SET(name_ref, FXT_BLOB_NAME) |
	       FXT_SET(payload_len, FXT_BLOB_SIZE) |
	       FXT_SET(blob_type, FXT_BLOB_TYPE);
}

/*
 * Userspace and kernel object records (record_type): one layout. The
 * byte at FXT_UOBJ_PROCESS, which is FXT_KOBJ_TYPE, holds the thread ref
 * of a userspace object's process, or a kernel object's type.
 */
static inline __u64 fxt_object_header(unsigned int record_type,
				      __u32 size_words,
				      unsigned int process_or_type,
				      __u16 name_ref, unsigned int nargs)
{
	return fxt_record_header(record_type, size_words) |
	       FXT_SET(process_or_type, FXT_KOBJ_TYPE) |
	       FXT_SET(name_ref, FXT_KOBJ_NAME) |
	       FXT_SET(nargs, FXT_KOBJ_NARGS);
}

/* Context switch: header, timestamp, outgoing tid, incoming tid, args. */
static inline __u64 fxt_context_switch_header(__u32 size_words,
					      unsigned int nargs,
					      unsigned int cpu,
					      unsigned int out_state)
{
	return fxt_record_header(FXT_RECORD_SCHEDULING, size_words) |
	       FXT_SET(nargs, FXT_SCHED_NARGS) | FXT_SET(cpu, FXT_SCHED_CPU) |
	       FXT_SET(out_state, FXT_SCHED_OUT_STATE) |
	       FXT_SET(FXT_SCHED_CONTEXT_SWITCH, FXT_SCHED_TYPE);
}

/* Thread wakeup: header, timestamp, woken tid, args. */
static inline __u64 fxt_thread_wakeup_header(__u32 size_words,
					     unsigned int nargs,
					     unsigned int cpu)
{
	return fxt_record_header(FXT_RECORD_SCHEDULING, size_words) |
	       FXT_SET(nargs, FXT_SCHED_NARGS) | FXT_SET(cpu, FXT_SCHED_CPU) |
	       FXT_SET(FXT_SCHED_THREAD_WAKEUP, FXT_SCHED_TYPE);
}

/* Legacy context switch (2018/2021): header, timestamp, inline koids. */
static inline __u64 fxt_legacy_context_switch_header(
	__u32 size_words, unsigned int cpu, unsigned int out_state,
	__u8 out_thread_ref, __u8 in_thread_ref, __u8 out_prio, __u8 in_prio)
{
	return fxt_record_header(FXT_RECORD_SCHEDULING, size_words) |
	       FXT_SET(cpu, FXT_LEGACY_CS_CPU) |
	       FXT_SET(out_state, FXT_LEGACY_CS_OUT_STATE) |
	       FXT_SET(out_thread_ref, FXT_LEGACY_CS_OUT_THREAD) |
	       FXT_SET(in_thread_ref, FXT_LEGACY_CS_IN_THREAD) |
	       FXT_SET(out_prio, FXT_LEGACY_CS_OUT_PRIO) |
	       FXT_SET(in_prio, FXT_LEGACY_CS_IN_PRIO);
}

/* Log: header, timestamp, [pid, tid], message stream. */
static inline __u64 fxt_log_header(__u32 size_words, __u16 msg_len,
				   __u8 thread_ref)
{
	return fxt_record_header(FXT_RECORD_LOG, size_words) |
	       FXT_SET(msg_len, FXT_LOG_LEN) |
	       FXT_SET(thread_ref, FXT_LOG_THREAD);
}

static inline __u64 fxt_large_blob_header(__u64 size_words,
					  unsigned int format)
{
	return fxt_large_header(FXT_LARGE_BLOB, size_words) |
	       FXT_SET(format, FXT_LARGE_BLOB_FORMAT);
}

static inline __u64 fxt_large_blob_format_word(__u16 category_ref,
					       __u16 name_ref,
					       unsigned int nargs,
					       __u8 thread_ref)
{
	return FXT_SET(category_ref, FXT_LBLOB_CATEGORY) |
	       FXT_SET(name_ref, FXT_LBLOB_NAME) |
	       FXT_SET(nargs, FXT_LBLOB_NARGS) |
	       FXT_SET(thread_ref, FXT_LBLOB_THREAD);
}

/* Argument header; value32 is the int32/uint32/bool/string-ref payload. */
static inline __u64 fxt_arg_header(unsigned int type, __u32 size_words,
				   __u16 name_ref, __u32 value32)
{
	return FXT_SET(type, FXT_ARG_TYPE) | FXT_SET(size_words, FXT_ARG_SIZE) |
	       FXT_SET(name_ref, FXT_ARG_NAME) |
	       FXT_SET(value32, FXT_ARG_VALUE32);
}

/* Words of an argument whose name (and string value) are given as refs. */
static inline __u32 fxt_arg_words(unsigned int type, __u16 name_ref,
				  __u16 string_value_ref)
{
	__u32 words = 1 + fxt_string_ref_words(name_ref);

	switch (type) {
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		return words + 1;
	case FXT_ARG_STRING:
		return words + fxt_string_ref_words(string_value_ref);
	default:
		return words;
	}
}

#endif /* FXT_FXT_H */
