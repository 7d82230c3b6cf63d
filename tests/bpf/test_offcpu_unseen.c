// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:offcpu when the kernel does not report a switch-in: some
 * kernels fire no sched_switch for some switches (the idle task's, a
 * virtual machine agent's), so a thread may block, run again unseen and
 * block again with its earlier block still in its off-CPU slot. Its end
 * is unknown: nothing can be written for it, and nothing was dropped.
 *
 * With the BPF backend in this process, the test plants such a block in
 * its own thread's slot (the session's fxt_offcpu_slots map, found among
 * its descriptors) and blocks, ROUNDS times: kernel:offcpu counts no
 * drop, and the thread's later blocks are written. Needs root and BTF.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>

#include "kernel_session.h"
#include "check.h"

#define SKIP 77
#define ROUNDS 20
#define SLOTS_MAP "fxt_offcpu_slot" /* BPF_OBJ_NAME_LEN cuts the name */
#define SLOTS 2048u /* FXT_OFFCPU_SLOTS */

/* The session's off-CPU slot map among this process's descriptors. */
static int find_slots(uint32_t *value_size)
{
	struct bpf_map_info info;
	struct dirent *de;
	uint32_t len;
	int fd = -1;
	DIR *dir = opendir("/proc/self/fd");

	while (dir && fd < 0 && (de = readdir(dir))) {
		int cand = atoi(de->d_name);

		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (cand > 2 && !bpf_obj_get_info_by_fd(cand, &info, &len) &&
		    !strcmp(info.name, SLOTS_MAP)) {
			fd = cand;
			*value_size = info.value_size;
		}
	}
	if (dir)
		closedir(dir);
	return fd;
}

/* A block of this thread that its slot holds, as offcpu_block() left it. */
static int plant(int fd, uint32_t value_size)
{
	uint64_t *v = calloc(1, value_size);
	uint32_t tid = (uint32_t)gettid(), key = tid & (SLOTS - 1);
	int err;

	if (!v)
		return -ENOMEM;
	v[0] = (uint64_t)tid + 1;
	fxt_ksample_write_head((__u64 *)&v[1], FXT_KSAMPLE_OFFCPU, 1, getpid(),
			       tid, 0, 0, 0, 0, 0);
	err = bpf_map_update_elem(fd, &key, v, BPF_ANY) ? -errno : 0;
	free(v);
	return err;
}

static int discard(void *ctx, const void *data, size_t len)
{
	return 0;
}

int main(void)
{
	struct kernel_session_config cfg = {
		.backend = KERNEL_BACKEND_BPF,
		.mode = FXT_BUFFERING_ONESHOT,
		.events = FXT_SCHED_EV_OFFCPU,
	};
	const struct timespec nap = { .tv_nsec = 200000 };
	struct kernel_session_stats st;
	struct kernel_session *ks;
	uint32_t value_size = 0;
	char why[256];
	int fd, i, err;

	if (access("/sys/kernel/btf/vmlinux", R_OK) || geteuid() != 0) {
		fprintf(stderr, "skip: needs root and kernel BTF\n");
		return SKIP;
	}
	err = kernel_session_open(&ks, &cfg, why, sizeof(why));
	if (err) {
		fprintf(stderr, "FAIL: %s\n", why);
		return 1;
	}
	fd = find_slots(&value_size);
	CHECK(fd >= 0 && value_size >= 8 * (1 + FXT_KSAMPLE_HEAD_WORDS),
	      "no %s map (value %u bytes)", SLOTS_MAP, value_size);
	err = kernel_session_start(ks);
	CHECK(!err, "start: %s", strerror(-err));
	for (i = 0; fd >= 0 && !err && i < ROUNDS; i++) {
		err = plant(fd, value_size);
		CHECK(!err, "plant: %s", strerror(-err));
		nanosleep(&nap, NULL);
	}
	CHECK(!kernel_session_stop(ks), "stop");
	CHECK(!kernel_session_drain(ks, discard, NULL), "drain");
	kernel_session_stats(ks, &st);
	printf("offcpu: %" PRIu64 " records, %" PRIu64
	       " dropped after %d planted blocks\n",
	       st.event_records[FXT_SCHED_EV_BIT_OFFCPU],
	       st.event_dropped[FXT_SCHED_EV_BIT_OFFCPU], ROUNDS);
	CHECK(st.event_dropped[FXT_SCHED_EV_BIT_OFFCPU] == 0,
	      "%" PRIu64
	      " kernel:offcpu drops for blocks whose end was never seen",
	      st.event_dropped[FXT_SCHED_EV_BIT_OFFCPU]);
	CHECK(st.event_records[FXT_SCHED_EV_BIT_OFFCPU] > 0,
	      "no off-CPU record at all");
	kernel_session_close(ks);
	return check_failures ? 1 : 0;
}
