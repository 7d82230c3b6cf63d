/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The archive read into a trace summary, for tracectl summary and report:
 * the summary's progress through the input's line, and on stderr what the
 * reader and the summary left out.
 */
#ifndef FXT_TRACECTL_SUMMARY_INPUT_H
#define FXT_TRACECTL_SUMMARY_INPUT_H

#include "trace_summary.h"
#include "tracectl_input.h"

/*
 * Initialises s with opt (its progress is the input's) and reads all of
 * in into it. 0, or -errno after saying why (-ENOMEM is left to the
 * caller); -EINVAL when the input holds no FXT at all. s is to be
 * trace_summary_done() in every case.
 */
int tracectl_summary_read(struct tracectl_input *in, struct trace_summary *s,
			  const struct trace_summary_options *opt);

#endif /* FXT_TRACECTL_SUMMARY_INPUT_H */
