// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stack walkers' object (bpf_stacks.h): the skeleton of
 * fxt_stacks.bpf.c with the scheduling object's rings handed over before
 * load, the off-CPU program attached by the skeleton and the on-CPU one
 * by the sampler.
 */
#include <errno.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include <fxt/fxt_sched_uapi.h>

#include "fxt_stacks_bpf.skel.h"
#include "bpf_sampler.h"
#include "bpf_stacks.h"
#include "bpf_unwind.h"

struct bpf_stacks {
	struct fxt_stacks_bpf *skel;
	struct bpf_sampler *sampler;	/* kernel:sample's events, attached */
	struct bpf_unwind *unwind;	/* the walkers' tables */
	uint32_t sample_hz;
};

static int load(struct bpf_stacks *s, const struct bpf_stacks_config *cfg)
{
	struct fxt_stacks_bpf *skel = s->skel;
	int err;

	skel->rodata->ring_bytes = cfg->ring_bytes;
	skel->rodata->ring_mode = cfg->ring_mode;
	skel->rodata->offcpu_min_ns = cfg->offcpu_min_ns;
	skel->rodata->refuse_for_test = cfg->refuse_for_test;
	skel->rodata->unwind_tables = !cfg->no_unwind_tables;
	bpf_program__set_autoload(skel->progs.fxt_sample,
				  cfg->events & FXT_SCHED_EV_SAMPLE);
	bpf_program__set_autoload(skel->progs.fxt_offcpu,
				  cfg->events & FXT_SCHED_EV_OFFCPU);
	/* Array maps are allocated whole: one slot when unused. */
	if (!(cfg->events & FXT_SCHED_EV_OFFCPU))
		(void)bpf_map__set_max_entries(skel->maps.fxt_offcpu_slots, 1);
	err = bpf_map__reuse_fd(skel->maps.fxt_ring, cfg->ring_fd);
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.fxt_nested, cfg->nested_fd);
	if (!err)
		err = fxt_stacks_bpf__load(skel);
	return err;
}

static int start_unwind(struct bpf_stacks *s,
			const struct bpf_stacks_config *cfg)
{
	const struct bpf_unwind_maps maps = {
		.rows_fd = bpf_map__fd(s->skel->maps.fxt_unwind_rows),
		.procs_fd = bpf_map__fd(s->skel->maps.fxt_unwind_procs),
		.wanted_fd = bpf_map__fd(s->skel->maps.fxt_unwind_wanted),
		.stats_fd = bpf_map__fd(s->skel->maps.fxt_unwind_stats),
		.py_procs_fd = bpf_map__fd(s->skel->maps.fxt_py_procs),
		.py_stats_fd = bpf_map__fd(s->skel->maps.fxt_py_stats),
	};

	return bpf_unwind_start(&maps, cfg->unwind_cache,
				cfg->no_python_frames ? NULL : cfg->py_procs,
				&s->unwind);
}

int bpf_stacks_load(const struct bpf_stacks_config *cfg,
		    struct bpf_stacks **ret)
{
	struct bpf_stacks *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->sample_hz = cfg->sample_hz;
	s->skel = fxt_stacks_bpf__open();
	if (!s->skel) {
		err = -errno;
		free(s);
		return err ? err : -EINVAL;
	}
	err = load(s, cfg);
	if (!err && !cfg->no_unwind_tables)
		err = start_unwind(s, cfg);
	if (err) {
		bpf_stacks_free(s);
		return err < 0 ? err : -EINVAL;
	}
	*ret = s;
	return 0;
}

int bpf_stacks_attach(struct bpf_stacks *s, unsigned int ncpus)
{
	struct bpf_program *sample = s->skel->progs.fxt_sample;
	int err = fxt_stacks_bpf__attach(s->skel);

	if (!err && bpf_program__autoload(sample))
		err = bpf_sampler_attach(sample, ncpus, s->sample_hz,
					 &s->sampler);
	return err;
}

void bpf_stacks_detach(struct bpf_stacks *s)
{
	if (!s)
		return;
	bpf_sampler_detach(s->sampler);
	s->sampler = NULL;
	fxt_stacks_bpf__detach(s->skel);
}

size_t bpf_stacks_prog_fds(const struct bpf_stacks *s, int *fds, size_t max)
{
	const struct bpf_object_skeleton *o = s ? s->skel->skeleton : NULL;
	size_t n = 0;
	int i, fd;

	for (i = 0; o && i < o->prog_cnt && n < max; i++) {
		fd = bpf_program__fd(*o->progs[i].prog);
		if (fd >= 0)
			fds[n++] = fd;
	}
	return n;
}

size_t bpf_stacks_link_fds(const struct bpf_stacks *s, int *fds, size_t max)
{
	const struct bpf_object_skeleton *o = s ? s->skel->skeleton : NULL;
	size_t n = 0;
	int i, fd;

	for (i = 0; o && i < o->prog_cnt && n < max; i++) {
		if (!*o->progs[i].link)
			continue;
		fd = bpf_link__fd(*o->progs[i].link);
		if (fd >= 0)
			fds[n++] = fd;
	}
	return n + bpf_sampler_link_fds(s ? s->sampler : NULL, fds + n,
					max - n);
}

void bpf_stacks_unwind_stats(struct bpf_stacks *s,
			     struct kernel_unwind_stats *st)
{
	if (s && s->unwind)
		bpf_unwind_stats(s->unwind, st);
}

void bpf_stacks_free(struct bpf_stacks *s)
{
	if (!s)
		return;
	bpf_sampler_detach(s->sampler);
	bpf_unwind_free(s->unwind);
	fxt_stacks_bpf__destroy(s->skel);
	free(s);
}
