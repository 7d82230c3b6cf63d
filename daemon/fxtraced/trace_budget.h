/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The buffers a trace may give: the sizes its memory budget plans
 * (memory_budget.h), each user's budget of buffers (root aside), and in
 * circular mode the buffers of providers gone given up for new ones.
 */
#ifndef FXT_TRACE_BUDGET_H
#define FXT_TRACE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

struct manager;
struct provider;
struct trace;

int trace_plan_memory(struct manager *m, struct trace *t, char *note,
		      size_t note_len);
uint64_t trace_memory_used(const struct trace *t);
int trace_check_budget(struct manager *m, struct provider *p);
int trace_check_memory_budget(struct manager *m, struct provider *p);

#endif /* FXT_TRACE_BUDGET_H */
