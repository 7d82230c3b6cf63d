// SPDX-License-Identifier: GPL-2.0-only
/* A fleet host's stack samples: fleet_samples.h. */
#include <stdbool.h>
#include <string.h>

#include <fxt/kdev.h>
#include <fxt/stacks.h>

#include "fleet_samples.h"

enum { F_MAIN = 1, F_HOT, F_PARSE, F_WAIT, F_SCHEDULE };
enum { S_HOT = 1, S_PARSE, S_WAIT };
#define MAPPING 1
#define PID 100
#define TID 101

/* A table record; its name is the kernel provider's indexed string. */
static void table(struct fxt_writer *w, unsigned int name, const uint64_t *p,
		  uint64_t *end)
{
	fxt_write_blob(w, fxt_wstr_index((uint16_t)name), 1, p,
		       (size_t)(end - p) * 8);
}

static uint64_t *frame(uint64_t *p, uint32_t id, uint8_t kind,
		       const char *name)
{
	struct fxt_stacks_frame f = {
		.id = id, .kind = kind, .name_len = (uint16_t)strlen(name),
		.mapping_id = kind == FXT_STACKS_FRAME_USER ? MAPPING : 0,
		.addr = 0x1000 + id * 0x100, .name = name,
	};

	return fxt_stacks_put_frame(p, &f);
}

void fleet_samples_begin(struct fxt_writer *w, uint16_t provider)
{
	static const char *const strings[] = FXT_KDEV_STRING_TABLE;
	static const char path[] = "/usr/bin/fleet_app";
	static const uint32_t hot[] = { F_HOT, F_MAIN },
			      parse[] = { F_PARSE, F_MAIN },
			      wait[] = { F_SCHEDULE, F_WAIT, F_MAIN };
	const struct fxt_stacks_mapping m = {
		.id = MAPPING, .path_len = sizeof(path) - 1, .path = path,
		.build_id_len = 4, .build_id = (const uint8_t *)"\1\2\3\4" };
	const uint8_t u = FXT_STACKS_FRAME_USER;
	uint64_t buf[64], *p;
	unsigned int i;

	fxt_write_provider_info(w, provider, "kernel", 6);
	fxt_write_provider_section(w, provider);
	fxt_write_init(w, 1000000000);
	for (i = 0; i < FXT_KDEV_STR_COUNT; i++)
		fxt_write_string(w, (uint16_t)(FXT_KDEV_STR_BASE + i),
				 strings[i], strlen(strings[i]));
	p = fxt_stacks_put_mapping(buf, &m);
	table(w, FXT_KDEV_STR_MAPPINGS, buf, p);
	p = frame(buf, F_MAIN, u, "");
	p = frame(p, F_HOT, u, "");
	p = frame(p, F_PARSE, u, "");
	p = frame(p, F_WAIT, u, "");
	p = frame(p, F_SCHEDULE, FXT_STACKS_FRAME_KERNEL, "schedule");
	table(w, FXT_KDEV_STR_FRAMES, buf, p);
	p = fxt_stacks_put_stack(buf, S_HOT, hot, 2);
	p = fxt_stacks_put_stack(p, S_PARSE, parse, 2);
	p = fxt_stacks_put_stack(p, S_WAIT, wait, 3);
	table(w, FXT_KDEV_STR_STACKS, buf, p);
}

static void sample(struct fxt_writer *w, bool offcpu, uint64_t ts,
		   uint32_t stack, uint64_t weight)
{
	struct fxt_stacks_sample s = {
		.category_ref = offcpu ? FXT_KDEV_STR_CAT_OFFCPU :
					 FXT_KDEV_STR_CAT_SAMPLE,
		.name_ref = offcpu ? FXT_KDEV_STR_OFFCPU :
				     FXT_KDEV_STR_CPU_SAMPLE,
		.cpu_ref = FXT_KDEV_STR_CPU, .stack_ref = FXT_KDEV_STR_STACK,
		.weight_ref = offcpu ? FXT_KDEV_STR_BLOCKED_NS :
				       FXT_KDEV_STR_PERIOD_NS,
		.ts = ts, .pid = PID, .tid = TID, .cpu = 0,
		.stack_id = stack, .weight_ns = weight,
	};
	uint64_t words[FXT_STACKS_SAMPLE_WORDS];

	fxt_stacks_put_sample(words, &s);
	fxt_write_raw(w, words, sizeof(words));
}

void fleet_samples_event(struct fxt_writer *w, uint16_t provider,
			 unsigned int host_index, unsigned int i, uint64_t ts)
{
	fxt_write_provider_section(w, provider);
	sample(w, false, ts + 500,
	       host_index >= 2 && i % 5 == 0 ? S_PARSE : S_HOT, 10000000);
	if (i % 10 == 0)
		sample(w, true, ts + 700, S_WAIT, 2000);
}

void fleet_samples_end(struct fxt_writer *w, uint16_t provider)
{
	static const char *const names[] = { "main", "hot_loop",
					     "parse_request", "wait_for_db" };
	uint64_t buf[64], *p = buf;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct fxt_stacks_symbol s = {
			.frame_id = F_MAIN + i,
			.name_len = (uint16_t)strlen(names[i]),
			.name = names[i] };

		p = fxt_stacks_put_symbol(p, &s);
	}
	fxt_write_provider_section(w, provider);
	table(w, FXT_KDEV_STR_SYMBOLS, buf, p);
}
