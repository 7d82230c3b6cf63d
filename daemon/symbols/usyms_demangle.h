/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The readable name of a C++ (Itanium) or Rust (legacy, hash dropped;
 * v0) symbol, by libiberty's demangler, bounded: a name from another
 * user's ELF file is hostile.
 */
#ifndef FXT_SYMBOLS_USYMS_DEMANGLE_H
#define FXT_SYMBOLS_USYMS_DEMANGLE_H

#include <stddef.h>

/* The longest mangled name demangled; longer ones stay as they are. */
#define USYMS_DEMANGLE_IN_MAX 1024

/*
 * Demangles name (at most len bytes; a NUL may end it sooner) into buf
 * (cap bytes, NUL-terminated). Returns the demangled length; -EINVAL
 * when name is not a mangled name libiberty understands, -E2BIG when
 * name is over USYMS_DEMANGLE_IN_MAX or its demangled form does not fit
 * in buf. On error buf holds nothing of use.
 */
int usyms_demangle(const char *name, size_t len, char *buf, size_t cap);

#endif /* FXT_SYMBOLS_USYMS_DEMANGLE_H */
