/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The manager <-> provider contract: socket messages and the layout of the
 * shared trace buffer. Not for applications: they use <fxt/provider.h>.
 *
 * Socket: AF_UNIX SOCK_SEQPACKET, default FXT_MANAGER_SOCKET, overridden by
 * $FXTRACE_SOCKET. Every message starts with struct fxt_msg_header; a peer
 * drops a connection whose version it does not speak. Controllers
 * (tracectl) use the same framing with their own message types
 * (FXT_MSG_CTL_*), defined by the manager.
 */
#ifndef FXT_PROVIDER_ABI_H
#define FXT_PROVIDER_ABI_H

#ifndef FXT_NO_LINUX_TYPES
#include <linux/types.h>
#endif

#include <fxt/ring.h>

#define FXT_MANAGER_SOCKET "/run/fxtrace/manager.sock"
#define FXT_SOCKET_ENV "FXTRACE_SOCKET"

#define FXT_PROTO_MAGIC 0x46585450u /* "PTXF" on the wire: "FXTP" */
/* 2: the buffer is written in per-thread chunks (FXT_BUFFER_VERSION 2). */
#define FXT_PROTO_VERSION 2u

struct fxt_msg_header {
	__u32 magic;
	__u16 version;
	__u16 type;	/* enum fxt_msg_type */
	__u32 length;	/* whole message, header included */
	__u32 reserved;
};

enum fxt_msg_type {
	/* provider -> manager */
	FXT_MSG_PROVIDER_HELLO = 1, /* struct fxt_msg_provider_hello */
	FXT_MSG_PROVIDER_STARTED = 2, /* ack of START */
	FXT_MSG_PROVIDER_STOPPED = 3, /* ack of STOP: buffer is final */
	FXT_MSG_PROVIDER_SAVE = 4, /* streaming: struct fxt_msg_save */
	/*
	 * Instead of HELLO, by a provider whose manager went away during a
	 * trace: struct fxt_msg_provider_resume + SCM_RIGHTS its buffer's
	 * memfd. A restarted manager that resumes the trace takes the
	 * buffer back (and later sends STOP as usual); otherwise it sends
	 * TERMINATE, and the provider is a new one.
	 */
	FXT_MSG_PROVIDER_RESUME = 5,
	/*
	 * struct fxt_msg_trigger, while tracing: the application asks for a
	 * snapshot (fxt_trigger()). The manager ignores names it was not
	 * armed with (tracectl start --trigger); nothing is answered.
	 */
	FXT_MSG_PROVIDER_TRIGGER = 6,
	/* manager -> provider */
	FXT_MSG_BUFFER = 16, /* struct fxt_msg_buffer + SCM_RIGHTS memfd */
	FXT_MSG_START = 17, /* struct fxt_msg_start */
	FXT_MSG_STOP = 18,
	FXT_MSG_TERMINATE = 19, /* forget the buffer: unmap, close */
	FXT_MSG_SAVED = 20, /* streaming: struct fxt_msg_save, half free */
	/*
	 * After HELLO (or a TERMINATE of RESUME) when the provider does not
	 * join a trace now (none runs, or it is over a budget): its events
	 * so far are no trace's. A START may follow later. Older providers
	 * ignore it.
	 */
	FXT_MSG_IDLE = 21,
	/* controllers: 64 and above, defined by the manager */
	FXT_MSG_CTL_BASE = 64,
};

#define FXT_PROVIDER_NAME_MAX 64

struct fxt_msg_provider_hello {
	struct fxt_msg_header hdr;
	__u32 pid;
	__u32 reserved;
	char name[FXT_PROVIDER_NAME_MAX];	/* NUL-terminated */
};

struct fxt_msg_buffer {
	struct fxt_msg_header hdr;
	__u64 size;		/* bytes of the memfd, header page included */
	__u32 provider_id;
	__u32 reserved;
};

/* The provider's session acknowledged START (it records). */
#define FXT_RESUME_STARTED 0x1u

struct fxt_msg_provider_resume {
	struct fxt_msg_provider_hello hello;
	__u32 provider_id;	/* of struct fxt_msg_buffer */
	__u32 flags;		/* FXT_RESUME_* */
	/*
	 * Streaming, per rolling half, generation + 1 (0: none): the fill
	 * the manager acknowledged with SAVED (it is in the archive), and
	 * the fill whose SAVE got no SAVED yet (the new manager saves it).
	 */
	__u64 saved_generation[2];
	__u64 pending_save[2];
};

#define FXT_TRIGGER_NAME_MAX 64

struct fxt_msg_trigger {
	struct fxt_msg_header hdr;
	char name[FXT_TRIGGER_NAME_MAX];	/* NUL-terminated */
};

#define FXT_CATEGORIES_MAX 1024

/* Categories: comma-separated, NUL-terminated; empty = every category. */
struct fxt_msg_start {
	struct fxt_msg_header hdr;
	__u32 mode;		/* enum fxt_buffering_mode */
	__u32 reserved;
	char categories[FXT_CATEGORIES_MAX];
};

struct fxt_msg_save {
	struct fxt_msg_header hdr;
	__u32 half;		/* 0 or 1 */
	__u32 reserved;
	__u64 generation;	/* wrapped count of the half being saved */
};

/*
 * The shared buffer (a sealed memfd): this header page, then data.
 *
 *   oneshot:             [header][durable][data ..................]
 *   circular, streaming: [header][durable][rolling 0][rolling 1]
 *
 * The durable area holds string, thread and name records (they must
 * survive wrapping, and precede the events that use them however the
 * chunks below interleave); the rolling halves take events. Offsets and
 * sizes are bytes, multiples of 8. A record's header word is stored last,
 * with release ordering.
 *
 * Chunks: each area is cut in chunk_size bytes from its start. A writer
 * thread takes whole chunks (a record bigger than a chunk takes several
 * adjacent ones) and fills them with records in order, so a chunk holds
 * records from its start up to a zero header word (or its end); the rest
 * of it is unused and is not part of the trace. A reader walks records by
 * their sizes and, at a zero header word, goes on at the next chunk
 * boundary. A crashed writer leaves zeros from its unfinished record on.
 * The durable area is shared record by record (no chunks): its records
 * end at the first zero header word.
 *
 * Rules: the provider writes every field but the ones marked "manager";
 * the manager reads the data only after STOPPED, SAVE, or the provider's
 * death.
 */
#define FXT_BUFFER_MAGIC 0x4658544255464652ull /* "RFFUBTXF" */
#define FXT_BUFFER_VERSION 2u
#define FXT_BUFFER_HEADER_SIZE 4096u

struct fxt_buffer_header {
	__u64 magic;
	__u32 version;
	__u32 mode;		/* enum fxt_buffering_mode */
	__u64 total_size;	/* the memfd, header included (manager) */
	__u64 durable_offset;	/* from the start of the memfd (manager) */
	__u64 durable_size;	/* (manager) */
	__u64 rolling_offset[2];	/* (manager) */
	__u64 rolling_size;	/* each half; oneshot: the whole data area */

	/*
	 * Bytes of chunks taken in each area (the durable area: of records);
	 * published when the area closes.
	 */
	__u64 durable_end;
	__u64 rolling_end[2];
	/*
	 * Times each half was (re)started; the larger is the newer. While
	 * the provider clears a half for reuse it also has
	 * FXT_BUFFER_GENERATION_CLEARING: a reader copying the half while
	 * the provider runs (a snapshot) keeps its copy only if the
	 * generation, read before and after, was the same and not clearing.
	 */
	__u64 rolling_generation[2];

	/* Circular: records overwritten by wrapping count as dropped. */
	__u64 records_dropped;
	__u64 bytes_dropped;
	__u64 records_written;

	/* A power of two, FXT_BUFFER_CHUNK_MIN..MAX (manager). */
	__u64 chunk_size;
	/* The trace's identity, for a restarted manager (manager). */
	__u8 trace_id[16];

	/*
	 * Of records_dropped: events at call sites before the provider
	 * joined the trace (no buffer yet), counted when it did.
	 */
	__u64 records_missed;

	__u64 reserved[108];
};

#define FXT_BUFFER_GENERATION_CLEARING (1ull << 63)

#define FXT_BUFFER_CHUNK_MIN 256u
#define FXT_BUFFER_CHUNK_MAX 65536u

/* Where a reader of a rolling half goes on after a zero header word. */
static inline __u64 fxt_chunk_next(__u64 offset, __u64 chunk_size)
{
	return (offset | (chunk_size - 1)) + 1;
}

_Static_assert(sizeof(struct fxt_buffer_header) == 1024,
	       "shared-memory ABI: the header is 1024 bytes");

#endif /* FXT_PROVIDER_ABI_H */
