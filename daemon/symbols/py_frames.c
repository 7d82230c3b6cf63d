// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_frames.h: a thread's Python stack from another process's memory.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "py_frames.h"

/* 3.12's frames a C call pushes on a Python stack: not Python code. */
#define PY_FRAME_OWNED_BY_CSTACK 3

static int read_ptr(const struct py_frames_ops *ops, void *ctx, uint64_t at,
		    uint64_t *out)
{
	return ops->read(ctx, at, out, sizeof(*out));
}

/* The thread state whose native id is tid: its address, or -ESRCH. */
static int find_thread(const struct py_layout *l, uint64_t runtime,
		       uint32_t tid, const struct py_frames_ops *ops,
		       void *ctx, uint64_t *tstate)
{
	uint64_t interp, ts, native;
	unsigned int i, j;

	if (read_ptr(ops, ctx, runtime + l->runtime_interp_head, &interp))
		return -EFAULT;
	for (i = 0; interp && i < PY_FRAMES_INTERPS_MAX; i++) {
		if (read_ptr(ops, ctx, interp + l->interp_threads_head, &ts))
			return -EFAULT;
		for (j = 0; ts && j < PY_FRAMES_THREADS_MAX; j++) {
			if (read_ptr(ops, ctx, ts + l->tstate_native_tid,
				     &native))
				return -EFAULT;
			if (native == tid) {
				*tstate = ts;
				return 0;
			}
			if (read_ptr(ops, ctx, ts + l->tstate_next, &ts))
				return -EFAULT;
		}
		if (ts)
			return -ELOOP;
		if (read_ptr(ops, ctx, interp + l->interp_next, &interp))
			return -EFAULT;
	}
	return interp ? -ELOOP : -ESRCH;
}

/* Whether bit (py_layout.h's numbering) of the object at obj is set. */
static bool bit_set(const struct py_frames_ops *ops, void *ctx, uint64_t obj,
		    uint32_t bit)
{
	unsigned char byte;

	return !ops->read(ctx, obj + bit / 8, &byte, 1) &&
	       (byte & (1u << (bit % 8)));
}

/* A compact ASCII string's bytes into out, printable; "?" otherwise. */
static void read_name(const struct py_layout *l, uint64_t str,
		      const struct py_frames_ops *ops, void *ctx, char *out,
		      size_t cap)
{
	uint64_t len;
	size_t i;

	strcpy(out, "?");
	if (!str || !bit_set(ops, ctx, str, l->ascii_compact_bit) ||
	    !bit_set(ops, ctx, str, l->ascii_ascii_bit) ||
	    read_ptr(ops, ctx, str + l->ascii_length, &len))
		return;
	if (len > cap - 1)
		len = cap - 1;
	if (ops->read(ctx, str + l->ascii_size, out, (size_t)len)) {
		strcpy(out, "?");
		return;
	}
	out[len] = '\0';
	for (i = 0; i < len; i++)
		if (out[i] < 0x20 || out[i] > 0x7e)
			out[i] = '?';
}

int py_code_read(const struct py_layout *l, uint64_t code,
		 const struct py_frames_ops *ops, void *ctx, struct py_frame *f)
{
	uint64_t name, file;
	int32_t line;

	f->code = code;
	if (read_ptr(ops, ctx, code + l->code_qualname, &name) ||
	    read_ptr(ops, ctx, code + l->code_filename, &file) ||
	    ops->read(ctx, code + l->code_firstlineno, &line, sizeof(line)))
		return -EFAULT;
	f->firstlineno = line > 0 ? (uint32_t)line : 0;
	read_name(l, name, ops, ctx, f->qualname, sizeof(f->qualname));
	read_name(l, file, ops, ctx, f->filename, sizeof(f->filename));
	return 0;
}

/* Frame at addr into f, and its caller's address: 0, or -EFAULT. */
static int read_frame(const struct py_layout *l, uint64_t addr,
		      const struct py_frames_ops *ops, void *ctx,
		      struct py_frame *f, uint64_t *previous, bool *skip)
{
	uint64_t code;
	char owner;

	if (read_ptr(ops, ctx, addr + l->frame_code, &code) ||
	    read_ptr(ops, ctx, addr + l->frame_previous, previous) ||
	    ops->read(ctx, addr + l->frame_owner, &owner, 1))
		return -EFAULT;
	*skip = owner == PY_FRAME_OWNED_BY_CSTACK || !code;
	if (*skip)
		return 0;
	return py_code_read(l, code, ops, ctx, f);
}

/*
 * The module a file name stands for: its base name without ".py" (a
 * package's __init__.py: its folder's), a frozen module's own name.
 */
static void module_of(const char *file, const char **at, size_t *len)
{
	const char *base = strrchr(file, '/'), *end;
	size_t n = strlen(file);

	if (!strncmp(file, "<frozen ", 8) && n > 9 && file[n - 1] == '>') {
		*at = file + 8;
		*len = n - 9;
		return;
	}
	base = base ? base + 1 : file;
	if (!strcmp(base, "__init__.py") && base > file + 1) {
		end = base - 1;
		for (base = end; base > file && base[-1] != '/'; base--)
			;
		*at = base;
		*len = (size_t)(end - base);
		return;
	}
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".py"))
		n -= 3;
	*at = base;
	*len = n;
}

void py_frame_name(const struct py_frame *f, char *out, size_t cap)
{
	const char *mod;
	size_t len;

	module_of(f->filename, &mod, &len);
	snprintf(out, cap, "%.*s.%s (%s:%u)", (int)len, mod, f->qualname,
		 f->filename, f->firstlineno);
}

int py_frames_read(const struct py_layout *l, uint64_t runtime, uint32_t tid,
		   const struct py_frames_ops *ops, void *ctx,
		   struct py_frame *out, size_t max, size_t *n)
{
	uint64_t tstate, cframe, frame;
	unsigned int steps;
	bool skip;
	int err;

	*n = 0;
	err = find_thread(l, runtime, tid, ops, ctx, &tstate);
	if (err)
		return err;
	if (read_ptr(ops, ctx, tstate + l->tstate_cframe, &cframe))
		return -EFAULT;
	if (l->cframe_current == PY_LAYOUT_NO_CFRAME)
		frame = cframe;	/* 3.13: the thread's current frame */
	else if (cframe &&
		 read_ptr(ops, ctx, cframe + l->cframe_current, &frame))
		return -EFAULT;
	if (!cframe)
		return 0;
	for (steps = 0; frame && *n < max; steps++) {
		if (steps == 4 * max)
			return -ELOOP;	/* skipped frames in a cycle */
		err = read_frame(l, frame, ops, ctx, &out[*n], &frame, &skip);
		if (err)
			return err;
		if (!skip)
			++*n;
	}
	return 0;
}
