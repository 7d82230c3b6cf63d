/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bottom of the converter: its state, and the pieces of JSON every
 * record writer (json_events.c, json_sched.c, json_kdev.c) and the driver
 * (fxt_json.c) put out: an event's opening, its thread, its arguments,
 * the metadata events that name tracks. It calls none of them. Not for
 * users outside convert/.
 */
#ifndef FXT_CONVERT_JSON_EMIT_H
#define FXT_CONVERT_JSON_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu_tracks.h"
#include "fxt_json.h"
#include "text_out.h"
#include "name_cache.h"
#include "stack_profile.h"
#include "stack_tables.h"

/* ,"pid":N,"tid":N as last formatted for a thread: most events repeat it. */
struct thread_text {
	uint64_t pid, tid;
	uint8_t len;		/* 0: slot unused */
	char text[64];		/* copied whole: a fixed-size copy is cheap */
};

#define THREAD_TEXT_SLOTS 64u

struct converter {
	struct text_out w;
	struct name_cache *names;
	struct cpu_tracks cpus;
	struct fxt_json_stats *stats;
	bool cpus_process_named;
	bool block_process_named;	/* "Block I/O" (json_kdev.c) */
	uint64_t last_sched_ns;	/* end of the still-running CPU slices */
	int err;		/* -ENOMEM from a growing table */
	struct thread_text thread_text[THREAD_TEXT_SLOTS];
	/* stack samples, written at the end (json_stacks.c) */
	struct stack_tables stacks;
	struct stack_profile profile;
	bool stacks_seen, have_profile;
};

static inline uint64_t conv_ns(const struct fxt_provider *p, uint64_t ticks)
{
	if (!p || p->ticks_per_second == 1000000000ull ||
	    !p->ticks_per_second)
		return ticks;
	return fxt_ticks_to_ns(p, ticks);
}

static inline bool str_is(const struct fxt_str *s, const char *lit,
			  size_t lit_len)
{
	return s->len == lit_len && !memcmp(s->data, lit, lit_len);
}

#define STR_IS(s, lit) str_is((s), (lit), sizeof(lit) - 1)

/* "{" after the right separator: every event starts with this. */
void conv_begin_event(struct converter *c, char phase);
void conv_put_thread(struct converter *c, uint64_t pid, uint64_t tid);
/* ,"key": with a literal key */
#define conv_put_key(w, key) text_put_lit((w), ",\"" key "\":")
/* One arg as "name":value, after a comma unless first. */
void conv_put_arg(struct converter *c, const struct fxt_arg *a, bool first);
/* All args of rec, each as "name":value (no braces, no leading comma). */
void conv_put_args(struct converter *c, const struct fxt_record *rec,
		   bool first);

/* A metadata event with a name of its own; the caller adds args. */
void conv_begin_metadata(struct converter *c, const char *name, size_t len,
			 uint64_t pid, uint64_t tid);
#define conv_begin_metadata_lit(c, name, pid, tid) \
	conv_begin_metadata((c), (name), sizeof(name) - 1, (pid), (tid))
void conv_thread_name(struct converter *c, uint64_t pid, uint64_t tid,
		      const char *name, size_t len);
void conv_process_name(struct converter *c, uint64_t pid, const char *name,
		       size_t len);

#endif /* FXT_CONVERT_JSON_EMIT_H */
