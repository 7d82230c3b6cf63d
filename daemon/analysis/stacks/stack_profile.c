// SPDX-License-Identifier: GPL-2.0-only
/* Functions and the call tree of the collected stacks: stack_profile.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/stacks.h>

#include "stack_profile.h"

static const char kernel_category[] = "kernel";
static const char missing_frame[] = "[missing frame]";
static const char missing_category[] = "[missing]";
static const char past_limit[] = "[past the limit]";

/* The first functions, always there. */
enum { FUNCTION_MISSING, FUNCTION_PAST_LIMIT };

static bool grant(struct stack_profile *p, uint64_t bytes)
{
	if (p->bytes + bytes > STACKS_PROFILE_BYTES_MAX)
		return false;
	p->bytes += bytes;
	return true;
}

/*
 * Doubles an index of n elements (256 slots first) before the next one
 * would fill half of it: room for n + 2, so that the budget is charged
 * at the element it always was. -ENOSPC past the budget, -ENOMEM.
 */
static int rehash(struct hash_index *x, uint32_t n, hash_index_hash_fn hash,
		  struct stack_profile *p)
{
	int64_t size = hash_index_size_for(x, (uint64_t)n + 2, 256);

	if (!size)
		return 0;
	if (size < 0 || !grant(p, (uint64_t)size * sizeof(*x->slots)))
		return -ENOSPC;
	return hash_index_resize(x, (uint32_t)size, hash, p);
}

/* ---- functions -------------------------------------------------------- */

static uint64_t function_hash_of(const char *name, size_t len, const char *cat,
				 size_t cat_len)
{
	return hash_bytes(hash_bytes(HASH_SEED, name, len) * 31,
			  cat, cat_len);
}

static uint64_t function_hash(const void *ctx, uint32_t i)
{
	const struct stack_function *f =
		&((const struct stack_profile *)ctx)->functions[i];

	return function_hash_of(f->name, f->name_len, f->category,
				f->category_len);
}

/* Room for one more element in *arr: -ENOSPC past the budget, -ENOMEM. */
static int grow(struct stack_profile *p, void **arr, uint32_t n, uint32_t *cap,
		size_t size)
{
	uint32_t ncap = *cap ? *cap * 2 : 256;
	void *a;

	if (n < *cap)
		return 0;
	if (!grant(p, (uint64_t)(ncap - *cap) * size))
		return -ENOSPC;
	a = realloc(*arr, (size_t)ncap * size);
	if (!a)
		return -ENOMEM;
	*arr = a;
	*cap = ncap;
	return 0;
}

/*
 * The function of this name and category, added if new: its name is
 * kept as given (into the tables) unless owned, then copied. Past the
 * budget: FUNCTION_PAST_LIMIT, counted. -ENOMEM.
 */
static int64_t intern(struct stack_profile *p, const char *name, size_t len,
		      bool copy, const char *cat, size_t cat_len)
{
	uint64_t h = function_hash_of(name, len, cat, cat_len);
	struct hash_index *x = &p->function_index;
	struct stack_function *f;
	uint32_t i, e;
	int err;

	err = rehash(x, p->nfunctions, function_hash, p);
	if (err == -ENOMEM || !x->slots)
		return err == -ENOMEM ? err : FUNCTION_PAST_LIMIT;
	for (i = hash_index_first(x, h); (e = x->slots[i]);
	     i = hash_index_next(x, i)) {
		f = &p->functions[e - 1];
		if (f->name_len == len && f->category_len == cat_len &&
		    !memcmp(f->name, name, len) &&
		    !memcmp(f->category, cat, cat_len))
			return e - 1;
	}
	if (!err)
		err = grow(p, (void **)&p->functions, p->nfunctions,
			   &p->functions_cap, sizeof(*f));
	if (err == -ENOSPC || (!err && copy && !grant(p, len + 1)))
		goto past_limit;
	if (err)
		return err;
	f = &p->functions[p->nfunctions];
	f->name = copy ? strndup(name, len) : name;
	if (!f->name)
		return -ENOMEM;
	f->owned = copy;
	f->name_len = (uint32_t)len;
	f->category = cat;
	f->category_len = (uint32_t)cat_len;
	f->inline_frames = f->other_frames = false;
	x->slots[i] = ++p->nfunctions;
	return p->nfunctions - 1;
past_limit:
	p->stats.functions_dropped++;
	return FUNCTION_PAST_LIMIT;
}

static const char *basename_of(const char *path, uint32_t len, uint32_t *out)
{
	const char *slash = memrchr(path, '/', len);

	if (!slash || slash + 1 == path + len) {
		*out = len;
		return path;
	}
	*out = (uint32_t)(path + len - slash - 1);
	return slash + 1;
}

static int64_t frame_function(struct stack_profile *p,
			      const struct stack_frame *f)
{
	const struct stack_mapping *m = NULL;
	const char *cat = kernel_category;
	uint32_t cat_len = sizeof(kernel_category) - 1;
	char buf[FXT_STACKS_UNNAMED_BASE_MAX + 32];
	size_t len;

	if (f->kind == STACK_FRAME_USER && !f->mapping_id) {
		/* in no mapping the manager knew: shown by its name */
		cat = FXT_STACKS_USER_UNKNOWN;
		cat_len = sizeof(FXT_STACKS_USER_UNKNOWN) - 1;
	} else if (f->kind == STACK_FRAME_USER) {
		m = stack_tables_mapping(p->tables, f->mapping_id);
		if (m) {
			cat = basename_of(m->path, m->path_len, &cat_len);
		} else {
			cat = missing_category;
			cat_len = sizeof(missing_category) - 1;
			p->stats.missing_mappings++;
		}
	}
	if (f->symbol)
		return intern(p, f->symbol, f->symbol_len, false, cat, cat_len);
	if (f->name_len)
		return intern(p, f->name, f->name_len, false, cat, cat_len);
	len = fxt_stacks_unnamed_name(buf, sizeof(buf), m ? m->path : cat,
				      m ? m->path_len : cat_len, f->addr);
	return intern(p, buf, len, true, cat, cat_len);
}

/* ---- call tree -------------------------------------------------------- */

static uint64_t node_hash_of(uint32_t parent, uint32_t function)
{
	uint64_t key = (uint64_t)parent << 32 | function;

	return key * 0x9e3779b97f4a7c15ull >> 20;
}

static uint64_t node_hash(const void *ctx, uint32_t i)
{
	const struct stack_profile *p = ctx;
	const struct stack_node *n = &p->nodes[i];

	return node_hash_of(n->parent, n->function);
}

/* The node of fn under parent, added if new: -ENOSPC, -ENOMEM. */
static int64_t child(struct stack_profile *p, uint32_t parent, uint32_t fn)
{
	uint64_t h = node_hash_of(parent, fn);
	struct hash_index *x = &p->node_index;
	struct stack_node *n;
	uint32_t i, e;
	int err;

	err = rehash(x, p->nnodes, node_hash, p);
	if (err == -ENOMEM || !x->slots)
		return err ? err : -ENOSPC;
	for (i = hash_index_first(x, h); (e = x->slots[i]);
	     i = hash_index_next(x, i)) {
		n = &p->nodes[e - 1];
		if (n->parent == parent && n->function == fn)
			return e - 1;
	}
	if (!err)
		err = grow(p, (void **)&p->nodes, p->nnodes, &p->nodes_cap,
			   sizeof(*n));
	if (err)
		return err;
	p->nodes[p->nnodes].parent = parent;
	p->nodes[p->nnodes].function = fn;
	x->slots[i] = ++p->nnodes;
	return p->nnodes - 1;
}

/*
 * The stack's frames root first down the tree: its leaf node. Past the
 * budget the stack is cut below the last node that fit (NO_NODE if none).
 */
static int64_t stack_leaf(struct stack_profile *p, const struct stack_def *s)
{
	uint32_t node = STACK_NO_NODE, i;
	int64_t fn, next;

	for (i = s->nframes; i-- > 0;) {
		int64_t f = stack_id_lookup(&p->tables->frame_index,
					    s->frames[i]);

		if (f < 0) {
			p->stats.missing_frames++;
			fn = FUNCTION_MISSING;
		} else {
			fn = p->frame_function[f];
		}
		next = child(p, node, (uint32_t)fn);
		if (next == -ENOSPC) {
			p->stats.frames_cut += i + 1;
			break;
		}
		if (next < 0)
			return next;
		node = (uint32_t)next;
	}
	return node;
}

/* The arrays by frame, stack and sample: counted, never refused. */
static uint32_t *index_array(struct stack_profile *p, size_t n)
{
	p->bytes += (n + 1) * sizeof(uint32_t);
	return calloc(n + 1, sizeof(uint32_t));
}

static int build_functions(struct stack_profile *p)
{
	const struct stack_tables *t = p->tables;
	uint32_t i;

	if (intern(p, missing_frame, sizeof(missing_frame) - 1, false,
		   missing_category, sizeof(missing_category) - 1) !=
		    FUNCTION_MISSING ||
	    intern(p, past_limit, sizeof(past_limit) - 1, false,
		   missing_category, sizeof(missing_category) - 1) !=
		    FUNCTION_PAST_LIMIT)
		return -ENOMEM;
	p->frame_function = index_array(p, t->nframes);
	p->stack_leaf = index_array(p, t->nstacks);
	p->sample_leaf = index_array(p, t->nsamples);
	if (!p->frame_function || !p->stack_leaf || !p->sample_leaf)
		return -ENOMEM;
	for (i = 0; i < t->nframes; i++) {
		int64_t fn = frame_function(p, &t->frames[i]);

		if (fn < 0)
			return (int)fn;
		p->frame_function[i] = (uint32_t)fn;
		if (t->frames[i].inlined)
			p->functions[fn].inline_frames = true;
		else
			p->functions[fn].other_frames = true;
	}
	return 0;
}

static int build_tree(struct stack_profile *p)
{
	const struct stack_tables *t = p->tables;
	int64_t leaf;
	size_t i;

	for (i = 0; i < t->nstacks; i++) {
		leaf = stack_leaf(p, &t->stacks[i]);
		if (leaf < 0)
			return (int)leaf;
		p->stack_leaf[i] = (uint32_t)leaf;
	}
	for (i = 0; i < t->nsamples; i++) {
		int64_t s = stack_id_lookup(&t->stack_index,
					    t->samples[i].stack_id);

		p->sample_leaf[i] = s < 0 ? STACK_NO_NODE : p->stack_leaf[s];
		if (p->sample_leaf[i] == STACK_NO_NODE)
			p->stats.samples_without_stack++;
	}
	return 0;
}

int stack_profile_build(struct stack_profile *p, const struct stack_tables *t)
{
	int err;

	memset(p, 0, sizeof(*p));
	p->tables = t;
	err = build_functions(p);
	return err ? err : build_tree(p);
}

void stack_profile_free(struct stack_profile *p)
{
	uint32_t i;

	for (i = 0; i < p->nfunctions; i++)
		if (p->functions[i].owned)
			free((char *)p->functions[i].name);
	free(p->functions);
	hash_index_free(&p->function_index);
	free(p->frame_function);
	free(p->nodes);
	hash_index_free(&p->node_index);
	free(p->stack_leaf);
	free(p->sample_leaf);
	memset(p, 0, sizeof(*p));
}

/* Kernel functions alone point at kernel_category: a user mapping named
 * "kernel" has its own copy of the word.
 */
bool stack_function_is_kernel(const struct stack_function *f)
{
	return f->category == kernel_category;
}
