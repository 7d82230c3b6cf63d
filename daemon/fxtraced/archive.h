/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace archive: the magic number record, then provider sections. The
 * manager, not the providers, writes every metadata record and each
 * section's initialization record (1 tick = 1 ns of CLOCK_BOOTTIME).
 *
 * Writes fill a chunk in memory; archive_commit() hands it to the writer
 * thread, which puts it on disk whole or not at all, in order. The event
 * loop never waits for the disk.
 */
#ifndef FXT_ARCHIVE_H
#define FXT_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include <fxt/fxt.h>

/* While tracing, a chunk that fails is written again after this long. */
#define ARCHIVE_RETRY_SECONDS 1

struct archive;

/* Chunks the writer could not write once the trace ended, by owner. */
struct archive_lost {
	uint32_t owner;
	uint64_t records, bytes;
};

struct archive_state {
	int error;		/* the first write error; 0: none */
	bool failing;		/* the last write failed */
	uint64_t failures;	/* failed writes, retries included */
	bool removed;		/* the file has no name any more */
	uint64_t written, queued;
	uint64_t not_queued;	/* writes refused: the queue was full */
};

typedef void (*archive_done_fn)(struct archive *a, int error,
				const struct archive_lost *lost, size_t nlost,
				void *userdata);

/*
 * Takes fd (on success only), the archive the controller opened with its
 * own rights; refuses anything but a regular file (-EINVAL) and a
 * descriptor not open for writing (-EBADF). queue_max: bytes that may
 * wait for the disk while tracing. Writes nothing yet.
 */
int archive_open(int fd, size_t queue_max, struct archive **ret);
/*
 * Once the trace has started: truncates the file (a failed start leaves
 * it as it was), starts the writer and queues the magic number record.
 */
int archive_begin(struct archive *a);
/*
 * Instead of archive_begin(), for a trace resumed after the manager was
 * restarted: keeps the whole records the file holds (those of a write
 * cut short go), starts the writer after them; *kept: their length.
 */
int archive_resume(struct archive *a, uint64_t *kept);
/*
 * The trace ended: the writer writes what is queued (once: what fails is
 * dropped and listed), fsyncs, and done runs in the event loop.
 */
int archive_finish(struct archive *a, sd_event *event, archive_done_fn done,
		   void *userdata);
/* Stops the writer (what is queued is dropped) and closes; 0 or -errno. */
int archive_close(struct archive *a);

/*
 * Starts a section of provider id: provider info (with its name) on the
 * first visit, provider section afterwards; then, unless the provider
 * writes its own (the kernel does), the initialization record.
 */
int archive_begin_section(struct archive *a, uint32_t id, const char *name,
			  bool *visited, bool with_init);
/* Provider event metadata (FXT_PROVIDER_EVENT_*) for provider id. */
int archive_write_provider_event(struct archive *a, uint32_t id,
				 enum fxt_provider_event event);
/*
 * Whole records into the open chunk; -ENOBUFS when the queue is full
 * (counted).
 */
int archive_write(struct archive *a, const void *data, size_t len);
/*
 * The same, filled in place: *room has len bytes at the end of the open
 * chunk, valid until the next call that writes; archive_wrote() then
 * takes the first len (<= the room) of them.
 */
int archive_reserve(struct archive *a, size_t len, void **room);
void archive_wrote(struct archive *a, size_t len);
/* Hands the open chunk (of owner, holding records) to the writer. */
int archive_commit(struct archive *a, uint32_t owner, uint64_t records);
/*
 * Hands what the open chunk holds so far (of owner, holding records) to
 * the writer and keeps the chunk open for more, so that a long visit is
 * written while it is filled; what was handed over cannot be cut back.
 */
int archive_hand_over(struct archive *a, uint32_t owner, uint64_t records);
/* The archive's length, queued and open chunks included: a mark. */
uint64_t archive_bytes(const struct archive *a);
/* Drops what was written after mark, in the open chunk only. */
int archive_cut_back(struct archive *a, uint64_t mark);
/* The stop collects everything: no bound on the queue any more. */
void archive_unbound(struct archive *a);
/* Unbound: the stop collects, and no visit is taken back after it. */
bool archive_is_unbound(const struct archive *a);
/* More than half the queue waits: a source that can wait should. */
bool archive_queue_busy(struct archive *a);
void archive_state(struct archive *a, struct archive_state *st);
/* The file's descriptor, still the archive's: for the descriptor store. */
int archive_fd(const struct archive *a);

#endif /* FXT_ARCHIVE_H */
