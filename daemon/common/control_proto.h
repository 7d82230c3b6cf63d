/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The controller <-> manager messages (tracectl <-> fxtraced), framed like
 * the provider messages of <fxt/provider_abi.h> on the same socket. A
 * connection whose first message is FXT_MSG_PROVIDER_HELLO is a provider;
 * one whose first message is a request below is a controller.
 *
 * Every request is answered by zero or more FXT_MSG_CTL_PROVIDER messages
 * (stop, status) and then exactly one FXT_MSG_CTL_RESULT. A controller
 * must be root, a uid given to fxtraced with --allow-uid, or a member of
 * group FXT_CTL_GROUP; others get a RESULT with error -EPERM.
 */
#ifndef FXT_CONTROL_PROTO_H
#define FXT_CONTROL_PROTO_H

#include <fxt/ksyscall.h>
#include <fxt/provider_abi.h>

#define FXT_CTL_GROUP "tracing"
#define FXT_CTL_PATH_MAX 4096
#define FXT_CTL_MESSAGE_MAX 512
#define FXT_CTL_BACKEND_MAX 16
#define FXT_CTL_NAME_MAX 256
/* A trace's name: the rule of fxt_ctl_trigger_name_valid() */
#define FXT_CTL_TRACE_NAME_MAX FXT_TRIGGER_NAME_MAX

enum fxt_ctl_msg_type {
	/* controller -> manager */
	/* struct fxt_ctl_start, with the archive's descriptor (SCM_RIGHTS) */
	FXT_MSG_CTL_START = FXT_MSG_CTL_BASE,
	FXT_MSG_CTL_STOP = FXT_MSG_CTL_BASE + 1,	/* header only */
	FXT_MSG_CTL_STATUS = FXT_MSG_CTL_BASE + 2, /* header only */
	/* struct fxt_ctl_wait_joined (tracectl record) */
	FXT_MSG_CTL_WAIT_JOINED = FXT_MSG_CTL_BASE + 3,
	/* struct fxt_ctl_snapshot, with the archive's descriptor */
	FXT_MSG_CTL_SNAPSHOT = FXT_MSG_CTL_BASE + 4,
	/* struct fxt_ctl_triggers, with the snapshot directory's descriptor */
	FXT_MSG_CTL_TRIGGERS = FXT_MSG_CTL_BASE + 5,
	/* manager -> controller */
	FXT_MSG_CTL_PROVIDER = FXT_MSG_CTL_BASE + 16, /* fxt_ctl_provider */
	FXT_MSG_CTL_RESULT = FXT_MSG_CTL_BASE + 17,	/* fxt_ctl_result */
	FXT_MSG_CTL_TRIGGER = FXT_MSG_CTL_BASE + 18,	/* fxt_ctl_trigger */
};

enum fxt_ctl_kernel {
	FXT_CTL_KERNEL_AUTO = 0,
	FXT_CTL_KERNEL_KMOD = 1,
	FXT_CTL_KERNEL_BPF = 2,
	FXT_CTL_KERNEL_OFF = 3,
};

struct fxt_ctl_start {
	struct fxt_msg_header hdr;
	__u32 mode;		/* enum fxt_buffering_mode */
	__u32 kernel;		/* enum fxt_ctl_kernel */
	__u64 buffer_size;	/* data bytes per provider; 0: default */
	__u64 duration_ns;	/* stop by itself after this; 0: never */
	/*
	 * The archive's absolute path, NUL-terminated, for status and logs.
	 * The controller opens it with its own rights and passes the
	 * descriptor (a regular file open for writing): the manager opens no
	 * path.
	 */
	char output[FXT_CTL_PATH_MAX];
	char categories[FXT_CATEGORIES_MAX];
	__u64 kernel_buffer_size;	/* bytes per CPU; 0: the backend's */
	/*
	 * The descriptor is a hidden file beside output, named so (no '/'):
	 * the controller that stops the trace renames it to output once
	 * the archive is complete, so a failed start or trace never touches
	 * a file at output.
	 */
	char temp_name[FXT_CTL_NAME_MAX];
	/* kernel:syscall only for these processes (0 ends); none: all */
	__u32 kernel_syscall_pids[FXT_KSYSCALL_PIDS_MAX];
	/*
	 * Buffer data bytes the whole trace may hold (every provider buffer
	 * and the kernel rings of all CPUs); 0: no bound. The manager sizes
	 * the buffers not given from it and refuses a provider a buffer
	 * that would go over it.
	 */
	__u64 memory_budget;
	/* A label for status and the journal ("" none), e.g. flight-recorder */
	char name[FXT_CTL_TRACE_NAME_MAX];
	/*
	 * kernel:sample: samples per second per CPU, FXT_SCHED_SAMPLE_HZ_MIN
	 * to FXT_SCHED_SAMPLE_HZ_MAX (<fxt/fxt_sched_uapi.h>); 0: the default
	 */
	__u32 sample_hz;
	__u32 reserved0;	/* must be zero */
	/* kernel:offcpu: shorter blocks are not written (0: every block) */
	__u64 offcpu_min_ns;
};

/*
 * Answered once a provider of process pid, or of a process it started,
 * has joined the running trace (acknowledged its START): the
 * FXT_MSG_CTL_PROVIDER messages of those that have, then a RESULT with
 * error 0; or a RESULT with -ETIMEDOUT after timeout_ms (at most
 * FXT_CTL_WAIT_JOINED_MAX_MS), -ESRCH when no trace runs. pid is
 * tracectl record's command: the manager marks it in the archive
 * (<fxt/record_command.h>) as it gets the request.
 */
struct fxt_ctl_wait_joined {
	struct fxt_msg_header hdr;
	__u32 pid;
	__u32 timeout_ms;
};

#define FXT_CTL_WAIT_JOINED_MAX_MS 60000u

/*
 * A circular trace's buffers as they are now, into an archive of their
 * own; the trace goes on. Like start, the controller opens the archive
 * (a hidden file temp_name beside output) with its own rights and passes
 * it; the RESULT (after the archive is on disk) gives temp_name and
 * owner_uid back for the controller to rename it into place.
 */
struct fxt_ctl_snapshot {
	struct fxt_msg_header hdr;
	char output[FXT_CTL_PATH_MAX];	/* absolute, for the result and logs */
	char temp_name[FXT_CTL_NAME_MAX];
};

/*
 * Arms the running circular trace's triggers (after its start; again:
 * replaces them, their snapshot budget starting empty). The controller
 * opens the directory with its own rights (O_DIRECTORY | O_NOFOLLOW |
 * O_RDONLY) and passes it; it must be the controller's
 * (snapshot_dir_check(), snapshot_dir.h). On a provider's
 * FXT_MSG_PROVIDER_TRIGGER of an armed name (or a wakeup latency over
 * latency_ns), delay_ns later, the manager
 * writes a snapshot (as FXT_MSG_CTL_SNAPSHOT) to NAME-<UTC time>.fxt in
 * it, at most limit per name and second (more are counted suppressed).
 */
#define FXT_CTL_TRIGGERS_MAX 8
/*
 * The snapshot budget's defaults (snapshot_max_bytes, snapshot_max_files
 * 0): at most 100 files, as journald's SystemMaxFiles=; the lesser of
 * 1 GiB and 10% of the directory's file system, as its SystemMaxUse=.
 */
#define FXT_CTL_SNAPSHOT_FILES_DEFAULT 100u
#define FXT_CTL_SNAPSHOT_FILES_MAX 256u
#define FXT_CTL_SNAPSHOT_BYTES_CAP (1ull << 30)
#define FXT_CTL_SNAPSHOT_BYTES_PERCENT 10u

struct fxt_ctl_triggers {
	struct fxt_msg_header hdr;
	__u32 count;		/* names used, 0..FXT_CTL_TRIGGERS_MAX */
	__u32 limit;		/* snapshots per name per second; 0: 1 */
	__u64 delay_ns;
	char dir[FXT_CTL_PATH_MAX];	/* absolute, for status and logs */
	char names[FXT_CTL_TRIGGERS_MAX][FXT_TRIGGER_NAME_MAX];
	/*
	 * Non-zero: also the trigger FXT_CTL_TRIGGER_LATENCY, fired by the
	 * kernel capture (kernel:sched) when a thread waits longer than this
	 * between its wakeup and getting a CPU. With count 0, the only one.
	 */
	__u64 latency_ns;
	/*
	 * The snapshot budget: the snapshots these triggers keep in dir, at
	 * most snapshot_max_bytes together (0: the default) and
	 * snapshot_max_files (0: the default; at most
	 * FXT_CTL_SNAPSHOT_FILES_MAX). A snapshot that would go over it
	 * removes the oldest ones the trace wrote there (never another
	 * file); one larger than the bytes by itself is not kept.
	 */
	__u64 snapshot_max_bytes;
	__u32 snapshot_max_files;
	__u32 reserved;
};

/* The name of the wakeup-latency trigger: its snapshots and status row. */
#define FXT_CTL_TRIGGER_LATENCY "latency"

/*
 * A name that may be armed (it becomes part of a file name): 1 to 63 of
 * [A-Za-z0-9_.-], not starting with '.'.
 */
static inline int fxt_ctl_trigger_name_valid(const char *name)
{
	unsigned int i;

	if (!name[0] || name[0] == '.')
		return 0;
	for (i = 0; name[i]; i++) {
		char ch = name[i];

		if (i == FXT_TRIGGER_NAME_MAX - 1 ||
		    !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
		      ch == '-'))
			return 0;
	}
	return 1;
}

/*
 * Status, before the RESULT: each armed trigger (flags 0) with its
 * counts, the snapshot budget (FXT_CTL_TRIGGER_BUDGET), then the last
 * snapshots triggers wrote (FXT_CTL_TRIGGER_SNAPSHOT), oldest first.
 */
#define FXT_CTL_TRIGGER_SNAPSHOT 1u
#define FXT_CTL_TRIGGER_BUDGET 2u

struct fxt_ctl_trigger {
	struct fxt_msg_header hdr;
	__u32 flags;
	__s32 error;		/* snapshot: 0, or why it failed */
	__u64 fired;		/* trigger: times a provider fired it */
	__u64 snapshots;	/* trigger: snapshots taken */
	__u64 suppressed;	/* trigger: fired over the limit */
	__u64 time_ns;		/* snapshot: CLOCK_REALTIME when taken */
	__u64 bytes;		/* snapshot: its size */
	char name[FXT_TRIGGER_NAME_MAX];
	char file[FXT_CTL_NAME_MAX];	/* snapshot: in the directory */
	/* budget: the snapshots kept in the directory, and their bounds */
	__u64 kept_files, kept_bytes;
	__u64 max_files, max_bytes;
	/* budget: the oldest removed to make room for newer ones */
	__u64 removed_files, removed_bytes;
	/* budget: snapshots not kept (over max_bytes alone, no room made) */
	__u64 not_kept;
};

enum fxt_ctl_provider_flags {
	FXT_CTL_PROVIDER_ALIVE = 1u << 0, /* still connected */
	FXT_CTL_PROVIDER_KERNEL = 1u << 1, /* the kernel section */
	FXT_CTL_PROVIDER_TRACING = 1u << 2, /* has a buffer in this trace */
	FXT_CTL_PROVIDER_NO_STOPPED = 1u << 3, /* did not ack STOP in time */
	/* no buffer: its uid's buffers reached fxtraced --user-buffer-budget */
	FXT_CTL_PROVIDER_OVER_BUDGET = 1u << 4,
	/* one kernel category's share of the kernel row before it */
	FXT_CTL_PROVIDER_CATEGORY = 1u << 5,
	/* no buffer: the trace's buffers reached tracectl --memory-budget */
	FXT_CTL_PROVIDER_OVER_MEMORY_BUDGET = 1u << 6,
	/*
	 * Its buffer's drop counter is more than it could have dropped:
	 * records_dropped is that bound (bytes_dropped 0), not its count.
	 */
	FXT_CTL_PROVIDER_DROPS_IMPLAUSIBLE = 1u << 7,
	/*
	 * Some of its drops were events before it joined the trace (it
	 * started while the trace ran, without a start wait).
	 */
	FXT_CTL_PROVIDER_MISSED_START = 1u << 8,
	/*
	 * Not a provider: one reason the kernel's stack samples lost samples
	 * or frames, its stable name in name (include/fxt/stacks_losses.h),
	 * its count so far in records. Sent after the category rows while
	 * kernel:sample or kernel:offcpu is traced, one row per reason, with
	 * _KERNEL and _CATEGORY set: a tracectl that predates this flag
	 * shows it as a kernel category row.
	 */
	FXT_CTL_PROVIDER_LOSS = 1u << 9,
};

struct fxt_ctl_provider {
	struct fxt_msg_header hdr;
	__u32 id;
	__u32 pid;
	__u32 uid;
	__u32 flags;		/* enum fxt_ctl_provider_flags */
	__u64 records;		/* written to the archive */
	__u64 bytes;
	__u64 records_dropped;	/* as the provider counted them */
	__u64 bytes_dropped;
	__u64 skipped;		/* malformed or forbidden records left out */
	__u64 buffer_size;	/* data bytes */
	__u64 buffer_used;
	char name[FXT_PROVIDER_NAME_MAX];
};

enum fxt_ctl_state {
	FXT_CTL_STATE_IDLE = 0,
	FXT_CTL_STATE_TRACING = 1,
	FXT_CTL_STATE_STOPPING = 2,
};

struct fxt_ctl_result {
	struct fxt_msg_header hdr;
	__s32 error;		/* 0 or -errno */
	__u32 state;		/* enum fxt_ctl_state, after the request */
	__u32 mode;
	__u32 nproviders;	/* FXT_MSG_CTL_PROVIDER messages before this */
	__u64 buffer_size;
	__u64 elapsed_ns;	/* since the trace started */
	char kernel[FXT_CTL_BACKEND_MAX];	/* "kmod", "bpf" or "off" */
	char output[FXT_CTL_PATH_MAX];
	/* Why it failed, or a note (e.g. why there is no kernel capture). */
	char message[FXT_CTL_MESSAGE_MAX];
	/*
	 * Stop: the finished archive's hidden name beside output ("" when
	 * there is none to put in place) and the uid that started the trace:
	 * only that uid renames it, with its own rights.
	 */
	char temp_name[FXT_CTL_NAME_MAX];
	__u32 owner_uid;
	__s32 archive_error;	/* 0, or why the archive is incomplete */
	/* The running trace's start --memory-budget (0: none) and name */
	__u64 memory_budget;
	__u64 memory_used;	/* buffer data bytes it holds (the budget's) */
	char name[FXT_CTL_TRACE_NAME_MAX];
};

#endif /* FXT_CONTROL_PROTO_H */
