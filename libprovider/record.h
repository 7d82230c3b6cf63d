/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The record writer (record.c), called by the entry points (api.c) and
 * by the session for a thread's first event in a trace; each record goes
 * into the trace handed down (trace.h).
 */
#ifndef FXT_PROVIDER_RECORD_H
#define FXT_PROVIDER_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <fxt/provider.h>

#include "trace.h"

struct fxt_thread;

struct fxt_arg_refs {
	uint16_t type;
	uint16_t name;
	uint16_t value;		/* string arguments */
	uint16_t words;
};

struct fxt_event_desc {
	unsigned int type;	/* enum fxt_event_type */
	const char *cat, *name;
	uint16_t cat_ref, name_ref;
	uint64_t ts;		/* 0: now */
	uint64_t extra;		/* counter id, end time, correlation id */
	const struct fxt_arg_in *args;
	unsigned int nargs;
};

void fxt_write_event(struct fxt_thread *t, struct fxt_trace *tr,
		     const struct fxt_event_desc *e);
/* name_ref: the site's ref for name. */
void fxt_write_blob(struct fxt_thread *t, struct fxt_trace *tr,
		    const char *name, uint16_t name_ref,
		    unsigned int blob_type, const void *data, size_t len);
void fxt_write_log(struct fxt_thread *t, struct fxt_trace *tr,
		   const char *message, size_t len);

/* A userspace object (a pointer) or a kernel object (a koid) named. */
struct fxt_object_desc {
	unsigned int record;	/* FXT_RECORD_{USERSPACE,KERNEL}_OBJECT */
	uint64_t id;		/* the pointer, the koid */
	unsigned int obj_type;	/* kernel objects: enum fxt_zx_obj_type */
	const char *name;	/* written inline */
	const struct fxt_arg_in *args;
	unsigned int nargs;
};

/* A userspace object's process is the writing thread's. */
void fxt_write_object(struct fxt_thread *t, struct fxt_trace *tr,
		      const struct fxt_object_desc *o);
/* A thread's first event in a trace: its thread record and names. */
void fxt_write_thread_records(struct fxt_thread *t, struct fxt_trace *tr);
/* Kernel object records naming the thread, the process. */
void fxt_write_thread_name(struct fxt_thread *t, struct fxt_trace *tr);
void fxt_write_process_name(struct fxt_thread *t, struct fxt_trace *tr);

#endif /* FXT_PROVIDER_RECORD_H */
