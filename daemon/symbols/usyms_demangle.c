// SPDX-License-Identifier: GPL-2.0-only
/*
 * Demangling with libiberty, the demangler of binutils and GDB: its
 * callback entry points allocate nothing (their tables are on the
 * stack) and keep libiberty's recursion limit (no DMGL_NO_RECURSE_LIMIT).
 * Back-references let a short mangled name stand for an output
 * exponentially long (a 230-byte name takes seconds to print in full):
 * the output is cut at the caller's cap by leaving the demangler with
 * longjmp from its callback, which is safe because the callback paths
 * hold no heap memory and no lock. The input is bounded too, since
 * libiberty sizes its stack tables by it.
 */
#include <errno.h>
#include <libiberty/demangle.h>
#include <setjmp.h>
#include <string.h>

#include "usyms_demangle.h"

/* Arguments and qualifiers, as perf and GDB show them; Rust's legacy
 * hash is dropped without DMGL_VERBOSE.
 */
#define DEMANGLE_OPTIONS (DMGL_PARAMS | DMGL_ANSI)

struct out {
	char *buf;
	size_t cap, len;
	jmp_buf full;
};

static void out_append(const char *s, size_t n, void *opaque)
{
	struct out *o = opaque;

	if (n >= o->cap - o->len)
		longjmp(o->full, 1);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Rust first: a legacy Rust name is also a valid C++ one, whose last
 * component would be the hash.
 */
static int demangle_into(const char *in, struct out *o)
{
	if (rust_demangle_callback(in, DEMANGLE_OPTIONS, out_append, o))
		return 0;
	o->len = 0;
	if (cplus_demangle_v3_callback(in, DEMANGLE_OPTIONS, out_append, o))
		return 0;
	return -EINVAL;
}

int usyms_demangle(const char *name, size_t len, char *buf, size_t cap)
{
	char in[USYMS_DEMANGLE_IN_MAX + 1];
	struct out o = { .buf = buf, .cap = cap };
	size_t n = strnlen(name, len < sizeof(in) ? len : sizeof(in));

	if (!cap)
		return -E2BIG;
	buf[0] = '\0';
	/* Itanium names begin _Z, Rust v0 ones _R: nothing else is tried. */
	if (n < 2 || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return -EINVAL;
	if (n > USYMS_DEMANGLE_IN_MAX)
		return -E2BIG;
	memcpy(in, name, n);
	in[n] = '\0';
	if (setjmp(o.full)) {
		buf[0] = '\0';
		return -E2BIG;
	}
	if (demangle_into(in, &o) < 0 || !o.len) {
		buf[0] = '\0';
		return -EINVAL;
	}
	return (int)o.len;
}
