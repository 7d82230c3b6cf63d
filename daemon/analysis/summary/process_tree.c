// SPDX-License-Identifier: GPL-2.0-only
/* The processes a summary keeps to: see process_tree.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/record_command.h>

#include "process_tree.h"

void process_tree_init(struct process_tree *t,
		       const struct process_tree_options *opt)
{
	memset(t, 0, sizeof(*t));
	if (opt)
		t->opt = *opt;
	t->opt.name[PROCESS_TREE_NAME_MAX - 1] = '\0';
}

void process_tree_free(struct process_tree *t)
{
	free(t->members);
	free(t->forks);
	hash_index_free(&t->first_fork);
	free(t->stack);
	memset(t, 0, sizeof(*t));
}

static bool member(const struct process_tree *t, uint64_t pid)
{
	uint32_t slot;

	if (!t->members || !pid)
		return false;
	for (slot = hash_u64(pid) & t->members_mask; t->members[slot];
	     slot = (slot + 1) & t->members_mask)
		if (t->members[slot] == pid)
			return true;
	return false;
}

static int grow_members(struct process_tree *t)
{
	uint32_t size = t->members ? (t->members_mask + 1) * 2 : 64;
	uint64_t *set = calloc(size, sizeof(*set));
	uint32_t i, slot;

	if (!set)
		return -ENOMEM;
	for (i = 0; t->members && i <= t->members_mask; i++) {
		if (!t->members[i])
			continue;
		slot = hash_u64(t->members[i]) & (size - 1);
		while (set[slot])
			slot = (slot + 1) & (size - 1);
		set[slot] = t->members[i];
	}
	free(t->members);
	t->members = set;
	t->members_mask = size - 1;
	return 0;
}

/* 1: added, 0: was there or past the maximum (counted), -ENOMEM. */
static int insert_member(struct process_tree *t, uint64_t pid)
{
	uint32_t slot;

	if (!pid || member(t, pid))
		return 0;
	if (t->nmembers == PROCESS_TREE_MAX) {
		t->not_followed++;
		return 0;
	}
	if ((!t->members || (t->nmembers + 1) * 2 > t->members_mask + 1) &&
	    grow_members(t))
		return -ENOMEM;
	slot = hash_u64(pid) & t->members_mask;
	while (t->members[slot])
		slot = (slot + 1) & t->members_mask;
	t->members[slot] = pid;
	t->nmembers++;
	return 1;
}

/* The slot of parent's first fork (its value 0 when it forked none). */
static uint32_t fork_slot(const struct process_tree *t, uint64_t parent)
{
	const struct hash_index *x = &t->first_fork;
	uint32_t slot = hash_index_first(x, hash_u64(parent)), e;

	while ((e = x->slots[slot]) && t->forks[e - 1].parent != parent)
		slot = hash_index_next(x, slot);
	return slot;
}

/* pid and every process it forked, as far as the forks are known. */
static int add_tree(struct process_tree *t, uint64_t pid)
{
	uint64_t *stack = t->stack;
	size_t depth = 0;
	uint32_t f;
	int r = 0;

	/* each fork is followed once, when its parent joins: nforks + 1 */
	if (t->stack_cap < t->nforks + 1) {
		stack = realloc(t->stack,
				((size_t)t->forks_cap + 1) * sizeof(*stack));
		if (!stack)
			return -ENOMEM;
		t->stack = stack;
		t->stack_cap = t->forks_cap + 1;
	}
	stack[depth++] = pid;
	while (depth && r >= 0) {
		pid = stack[--depth];
		r = insert_member(t, pid);
		if (r <= 0 || !t->first_fork.slots)
			continue;
		for (f = t->first_fork.slots[fork_slot(t, pid)]; f;
		     f = t->forks[f - 1].next)
			stack[depth++] = t->forks[f - 1].child;
	}
	return r < 0 ? r : 0;
}

static uint64_t fork_hash(const void *ctx, uint32_t i)
{
	const struct process_tree *t = ctx;

	return hash_u64(t->forks[i].parent);
}

/*
 * Room for twice as many forks, the index twice that. Only each
 * parent's newest fork is in the index: moved, it keeps its chain.
 */
static int grow_forks(struct process_tree *t)
{
	uint32_t cap = t->forks_cap ? t->forks_cap * 2 : 256;
	struct process_fork *forks;

	forks = realloc(t->forks, (size_t)cap * sizeof(*forks));
	if (!forks)
		return -ENOMEM;
	t->forks = forks;
	t->forks_cap = cap;
	return hash_index_reserve(&t->first_fork, cap, cap * 2, fork_hash, t) ?
		       -ENOMEM : 0;
}

static int add_fork(struct process_tree *t, uint64_t parent, uint64_t child)
{
	uint32_t slot;

	if (!parent || !child || parent == child)
		return 0;
	if (t->nforks == PROCESS_TREE_MAX) {
		t->not_followed++;
		return 0;
	}
	if (t->nforks == t->forks_cap && grow_forks(t))
		return -ENOMEM;
	slot = fork_slot(t, parent);
	t->forks[t->nforks] = (struct process_fork){
		.parent = parent,
		.child = child,
		.next = t->first_fork.slots[slot],
	};
	t->first_fork.slots[slot] = ++t->nforks;
	return member(t, parent) ? add_tree(t, child) : 0;
}

static const struct fxt_arg *find_arg(const struct fxt_record *rec,
				      const char *name, enum fxt_arg_type type)
{
	unsigned int i;

	for (i = 0; i < rec->nargs; i++)
		if (rec->args[i].type == type &&
		    fxt_str_is(rec->args[i].name, name))
			return &rec->args[i];
	return NULL;
}

static int on_instant(struct process_tree *t, const struct fxt_record *rec)
{
	uint64_t pid = rec->event.thread.pid;
	const struct fxt_arg *child;

	if (fxt_str_is(rec->event.category, "kernel:proc") &&
	    fxt_str_is(rec->event.name, "fork")) {
		child = find_arg(rec, "child", FXT_ARG_KOID);
		return child ? add_fork(t, pid, child->value.koid) : 0;
	}
	if (t->opt.scope != PROCESS_SCOPE_DEFAULT || !pid || !rec->provider ||
	    !fxt_str_is(rec->provider->name, FXT_RECORD_COMMAND_PROVIDER) ||
	    !fxt_str_is(rec->event.category, FXT_RECORD_COMMAND_CATEGORY) ||
	    !fxt_str_is(rec->event.name, FXT_RECORD_COMMAND_NAME))
		return 0;
	if (!t->command_pid)
		t->command_pid = pid;
	return add_tree(t, pid);
}

int process_tree_record(struct process_tree *t, const struct fxt_record *rec)
{
	const struct fxt_str *name = &rec->kernel_object.name;

	if (t->opt.scope == PROCESS_SCOPE_ALL)
		return 0;
	if (t->opt.scope == PROCESS_SCOPE_PID && !t->nmembers &&
	    !t->not_followed) {
		int r = add_tree(t, t->opt.pid);

		if (r < 0)
			return r;
	}
	if (rec->type == FXT_RECORD_EVENT &&
	    rec->event.type == FXT_EVENT_INSTANT)
		return on_instant(t, rec);
	if (rec->type == FXT_RECORD_KERNEL_OBJECT &&
	    t->opt.scope == PROCESS_SCOPE_NAME &&
	    rec->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS &&
	    name->len == strlen(t->opt.name) &&
	    !memcmp(name->data, t->opt.name, name->len))
		return add_tree(t, rec->kernel_object.koid);
	return 0;
}

bool process_tree_active(const struct process_tree *t)
{
	switch (t->opt.scope) {
	case PROCESS_SCOPE_PID:
	case PROCESS_SCOPE_NAME:
		return true;
	case PROCESS_SCOPE_DEFAULT:
		return t->command_pid != 0;
	default:
		return false;
	}
}

bool process_tree_has(const struct process_tree *t, uint64_t pid)
{
	if (!process_tree_active(t))
		return true;
	return member(t, pid) ||
	       (t->opt.scope == PROCESS_SCOPE_PID && pid == t->opt.pid);
}

void process_tree_describe(const struct process_tree *t, char *buf, size_t len)
{
	if (t->opt.scope == PROCESS_SCOPE_PID)
		snprintf(buf, len, "the process tree of pid %llu",
			 (unsigned long long)t->opt.pid);
	else if (t->opt.scope == PROCESS_SCOPE_NAME)
		snprintf(buf, len, "processes named '%s' and their children",
			 t->opt.name);
	else if (process_tree_active(t))
		snprintf(buf, len, "the command's process tree (pid %llu)",
			 (unsigned long long)t->command_pid);
	else
		snprintf(buf, len, "every process");
}
