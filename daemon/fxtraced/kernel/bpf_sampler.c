// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampling clock: the period is set rather than a frequency, which
 * the kernel would check against perf_event_max_sample_rate (it turns
 * cpu-clock's frequency into a fixed period anyway). The hrtimer fires
 * in hard interrupt context on its CPU whatever runs there, idle
 * included (the program skips idle).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <bpf/libbpf.h>

#include <fxt/fxt_sched_uapi.h>

#include "bpf_sampler.h"

struct bpf_sampler {
	unsigned int nlinks;
	struct bpf_link *links[];
};

uint64_t bpf_sampler_period_ns(uint32_t hz)
{
	if (!hz)
		hz = FXT_SCHED_SAMPLE_HZ_DEFAULT;
	return 1000000000ull / hz;
}

static int open_clock(unsigned int cpu, uint32_t hz)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = bpf_sampler_period_ns(hz),
		.disabled = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* One CPU's event and link: 0, -ENODEV (offline), or -errno. */
static int attach_cpu(struct bpf_program *prog, unsigned int cpu,
		      uint32_t hz, struct bpf_link **link)
{
	int fd = open_clock(cpu, hz), err;

	if (fd < 0)
		return fd;
	*link = bpf_program__attach_perf_event(prog, fd);
	err = libbpf_get_error(*link);
	if (err) {
		*link = NULL;
		close(fd);
		return err;
	}
	return 0;	/* the link closes fd */
}

int bpf_sampler_attach(struct bpf_program *prog, unsigned int ncpus,
		       uint32_t hz, struct bpf_sampler **ret)
{
	struct bpf_sampler *s = calloc(1, sizeof(*s) +
					       ncpus * sizeof(s->links[0]));
	unsigned int cpu;
	int err = -ENODEV, r;

	if (!s)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus; cpu++) {
		r = attach_cpu(prog, cpu, hz, &s->links[s->nlinks]);
		if (!r)
			s->nlinks++;
		else if (r != -ENODEV)
			err = r;
	}
	if (!s->nlinks) {
		free(s);
		return err;
	}
	*ret = s;
	return 0;
}

size_t bpf_sampler_link_fds(const struct bpf_sampler *s, int *fds,
			    size_t max)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; s && i < s->nlinks && n < max; i++)
		fds[n++] = bpf_link__fd(s->links[i]);
	return n;
}

void bpf_sampler_detach(struct bpf_sampler *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->nlinks; i++)
		bpf_link__destroy(s->links[i]);
	free(s);
}
