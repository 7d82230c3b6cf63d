// SPDX-License-Identifier: GPL-2.0-only
/* The stack samples' losses, said: kernel_losses.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <fxt/fxt_msg.h>
#include <fxt/fxt_sched_uapi.h>

#include "kernel_losses.h"
#include "log.h"

void kernel_losses_read(const struct kernel_session_stats *st,
			const struct stacks *s, bool snapshot,
			struct stacks_losses *l)
{
	memset(l, 0, sizeof(*l));
	/* Capture's drops of these categories hold the ingest's too. */
	l->count[FXT_STACK_LOSS_SAMPLES_DROPPED] =
		st->event_dropped[FXT_SCHED_EV_BIT_SAMPLE];
	l->count[FXT_STACK_LOSS_OFFCPU_DROPPED] =
		st->event_dropped[FXT_SCHED_EV_BIT_OFFCPU];
	/* The walker's own, with the unwinding tables (BPF). */
	l->count[FXT_STACK_LOSS_UNWIND_NO_TABLE] =
		st->unwind.walk[FXT_UNWIND_STAT_NO_TABLE];
	l->count[FXT_STACK_LOSS_UNWIND_UNSUPPORTED] =
		st->unwind.walk[FXT_UNWIND_STAT_UNSUPPORTED];
	l->count[FXT_STACK_LOSS_UNWIND_READ_FAULT] =
		st->unwind.walk[FXT_UNWIND_STAT_READ_FAULT];
	l->count[FXT_STACK_LOSS_UNWIND_BAD_FRAME] =
		st->unwind.walk[FXT_UNWIND_STAT_BAD_FRAME];
	l->count[FXT_STACK_LOSS_UNWIND_TABLES_FULL] = st->unwind.files_full;
	l->count[FXT_STACK_LOSS_PYTHON_DEPTH_LIMIT] =
		st->unwind.python.walk[FXT_PY_STAT_DEPTH];
	l->count[FXT_STACK_LOSS_PYTHON_READ_FAULT] =
		st->unwind.python.walk[FXT_PY_STAT_READ_FAULT];
	l->unwind = st->unwind;
	stacks_losses(s, snapshot, l);
}

/* What the BPF walker's unwinding tables did, when it had any. */
static void log_unwind(const struct kernel_unwind_stats *u)
{
	if (!u->walk[FXT_UNWIND_STAT_WALKS] && !u->files)
		return;
	log_info(
		"Stack walks with unwinding tables: %" PRIu64 " walks, %" PRIu64
		" frames by their rows, %" PRIu64 " by frame pointers; %" PRIu64
		" walks by frame pointers alone; stopped: %" PRIu64
		" at a rule not followed, %" PRIu64
		" at an unreadable word, %" PRIu64
		" at a bad frame. Tables: %" PRIu64 " processes, %" PRIu64
		" files (%" PRIu64 " compiled by an earlier trace), %" PRIu64
		" rows (%" PRIu64
		" KiB), %" PRIu64 " ms compiling; %" PRIu64
		" files without (no .eh_frame, not readable by their owner), %" PRIu64
		" past the tables' memory",
		u->walk[FXT_UNWIND_STAT_WALKS],
		u->walk[FXT_UNWIND_STAT_TABLE_FRAMES],
		u->walk[FXT_UNWIND_STAT_FP_FRAMES],
		u->walk[FXT_UNWIND_STAT_NO_TABLE],
		u->walk[FXT_UNWIND_STAT_UNSUPPORTED],
		u->walk[FXT_UNWIND_STAT_READ_FAULT],
		u->walk[FXT_UNWIND_STAT_BAD_FRAME], u->processes, u->files,
		u->files_reused, u->rows, u->rows * 8 / 1024, u->build_ns / 1000000,
		u->files_unread, u->files_full);
}

/* What the BPF walker's Python frames did, when it met an interpreter. */
static void log_python(const struct kernel_python_stats *p, uint64_t unnamed)
{
	if (!p->interpreters && !p->interpreters_unread)
		return;
	log_info("Python frames: %" PRIu64 " walks, %" PRIu64
		 " frames (%" PRIu64 " unnamed), %" PRIu64
		 " placed after the native frames; %" PRIu64
		 " samples of threads without Python state; stopped: %" PRIu64
		 " at the depth limit, %" PRIu64
		 " at an unreadable word. Interpreters: %" PRIu64
		 " with a layout, %" PRIu64 " processes; %" PRIu64
		 " without (the last: %s%s%s)",
		 p->walk[FXT_PY_STAT_WALKS], p->walk[FXT_PY_STAT_FRAMES],
		 unnamed, p->walk[FXT_PY_STAT_UNPLACED],
		 p->walk[FXT_PY_STAT_NO_THREAD], p->walk[FXT_PY_STAT_DEPTH],
		 p->walk[FXT_PY_STAT_READ_FAULT], p->interpreters, p->processes,
		 p->interpreters_unread,
		 p->unread_err ? strerror(-p->unread_err) : "-",
		 p->unread_missing ? ": " : "",
		 p->unread_missing ? p->unread_missing : "");
}

void kernel_losses_log(const struct stacks_losses *l)
{
	const uint64_t *c = l->count;

	if (c[FXT_STACK_LOSS_UNNAMED_UNREADABLE] ||
	    c[FXT_STACK_LOSS_UNNAMED_UNOPENED] ||
	    c[FXT_STACK_LOSS_UNNAMED_TOO_LARGE] ||
	    c[FXT_STACK_LOSS_UNNAMED_OVER_BUDGET])
		log_info(
			"Stack samples: mapped files left unnamed: %" PRIu64
			" their process's owner may not read, %" PRIu64
			" not opened (gone, FUSE, not a regular file; the last: %s), %" PRIu64
			" with a symbol section too large, %" PRIu64
			" past the symbols' budget",
			c[FXT_STACK_LOSS_UNNAMED_UNREADABLE],
			c[FXT_STACK_LOSS_UNNAMED_UNOPENED],
			l->files_error ? strerror(-l->files_error) : "-",
			c[FXT_STACK_LOSS_UNNAMED_TOO_LARGE],
			c[FXT_STACK_LOSS_UNNAMED_OVER_BUDGET]);
	if (l->jit_maps_read || l->jit_maps_cut)
		log_info(
			"Stack samples: JIT perf maps read %" PRIu64
			" times, %" PRIu64
			" lines skipped (malformed, too long, past the entries' cap), %" PRIu64
			" maps cut or not kept (past the bytes read, the processes, the memory)",
			l->jit_maps_read, l->jit_lines_skipped,
			l->jit_maps_cut);
	if (l->jit_dumps_read || l->jit_dumps_refused)
		log_info(
			"Stack samples: JIT dumps read %" PRIu64
			" times, %" PRIu64
			" refused (another user's, a symlink, replaced since mapped), %" PRIu64
			" records skipped (malformed, past the records' cap), %" PRIu64
			" not of this byte order and version, %" PRIu64
			" reads ending in a record being written",
			l->jit_dumps_read, l->jit_dumps_refused,
			l->jit_records_skipped, l->jit_dumps_unsupported,
			l->jit_dumps_truncated);
	if (l->copies_unwound)
		log_info("Stack samples: %" PRIu64
			 " user stacks unwound from the module's copies",
			 l->copies_unwound);
	if (c[FXT_STACK_LOSS_LEAF_CALLER_UNREAD])
		log_info(
			"%" PRIu64
			" stack samples lack the caller of a user function without a frame pointer (its return address was not read)",
			c[FXT_STACK_LOSS_LEAF_CALLER_UNREAD]);
	if (c[FXT_STACK_LOSS_USER_DEPTH_LIMIT] ||
	    c[FXT_STACK_LOSS_USER_READ_FAULT] ||
	    c[FXT_STACK_LOSS_JUNK_FRAME_WORD] ||
	    c[FXT_STACK_LOSS_KERNEL_DEPTH_LIMIT])
		log_info(
			"Stack samples: walks cut short: %" PRIu64
			" user stacks at the depth limit, %" PRIu64
			" user stacks not readable at their stack pointer, %" PRIu64
			" ended at a junk word above a frameless leaf, %" PRIu64
			" kernel stacks at the depth limit",
			c[FXT_STACK_LOSS_USER_DEPTH_LIMIT],
			c[FXT_STACK_LOSS_USER_READ_FAULT],
			c[FXT_STACK_LOSS_JUNK_FRAME_WORD],
			c[FXT_STACK_LOSS_KERNEL_DEPTH_LIMIT]);
	log_unwind(&l->unwind);
	log_python(&l->unwind.python, c[FXT_STACK_LOSS_PYTHON_UNNAMED]);
	if (c[FXT_STACK_LOSS_MAPPINGS_DROPPED] ||
	    c[FXT_STACK_LOSS_MAPPINGS_LOST])
		log_info(
			"Stack samples: %" PRIu64
			" mappings not kept (over the tracker's caps), %" PRIu64
			" mapping records lost by the kernel: frames in them are \"[unknown]\"",
			c[FXT_STACK_LOSS_MAPPINGS_DROPPED],
			c[FXT_STACK_LOSS_MAPPINGS_LOST]);
}

size_t kernel_losses_record(const struct stacks_losses *l, uint64_t *rec)
{
	return fxt_stack_losses_put(rec, l->count);
}

size_t kernel_losses_rows(const struct stacks_losses *l, uint32_t id,
			  struct fxt_ctl_provider *out)
{
	unsigned int i;

	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++) {
		struct fxt_ctl_provider *row = &out[i];

		fxt_msg_init(row, FXT_MSG_CTL_PROVIDER, sizeof(*row));
		row->id = id;
		/* _CATEGORY too: a tracectl that predates _LOSS shows a
		 * category row, not another provider. */
		row->flags = FXT_CTL_PROVIDER_KERNEL |
			     FXT_CTL_PROVIDER_TRACING |
			     FXT_CTL_PROVIDER_CATEGORY | FXT_CTL_PROVIDER_LOSS;
		row->records = l->count[i];
		snprintf(row->name, sizeof(row->name), "%s",
			 fxt_stack_loss_name(i));
	}
	return FXT_STACK_LOSS_COUNT;
}
