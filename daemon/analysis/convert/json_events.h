/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event, log, blob, object and thread records as Trace Event Format
 * events and the metadata that names their tracks (json_events.c).
 */
#ifndef FXT_CONVERT_JSON_EVENTS_H
#define FXT_CONVERT_JSON_EVENTS_H

#include "json_emit.h"

void conv_event(struct converter *c, const struct fxt_record *rec);
void conv_log(struct converter *c, const struct fxt_record *rec);
void conv_blob(struct converter *c, const struct fxt_record *rec);
void conv_large_blob(struct converter *c, const struct fxt_record *rec);
void conv_kernel_object(struct converter *c, const struct fxt_record *rec);
void conv_userspace_object(struct converter *c, const struct fxt_record *rec);
void conv_thread_record(struct converter *c, const struct fxt_record *rec);

#endif /* FXT_CONVERT_JSON_EVENTS_H */
