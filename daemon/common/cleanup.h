/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ownership in the style of systemd: a variable declared with a cleanup
 * attribute releases what it holds when it goes out of scope, unless the
 * owner was handed on with TAKE_PTR()/TAKE_FD(). Error paths then need
 * no code of their own.
 */
#ifndef FXT_COMMON_CLEANUP_H
#define FXT_COMMON_CLEANUP_H

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_strv_free_ _cleanup_(strv_freep)

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* A NULL-terminated array of strings, as sd_listen_fds_with_names() gives. */
static inline void strv_freep(char ***strv)
{
	char **s;

	if (!*strv)
		return;
	for (s = *strv; *s; s++)
		free(*s);
	free(*strv);
}

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		(void)close(*fd);
		errno = saved;
	}
}

/* Returns the value and empties the variable: the caller owns it now. */
#define TAKE_GENERIC(var, empty)                                           \
	({                                                                 \
		__typeof__(var) *_pvar = &(var);                           \
		__typeof__(var) _taken = *_pvar;                           \
		*_pvar = (empty);                                          \
		_taken;                                                    \
	})
#define TAKE_PTR(p) TAKE_GENERIC(p, NULL)
#define TAKE_FD(fd) TAKE_GENERIC(fd, -1)

/* Defines fnp() calling fn() on a pointer that is not NULL. */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, fn)                              \
	static inline void fn##p(type *p)                                  \
	{                                                                  \
		if (*p)                                                    \
			fn(*p);                                            \
	}

#endif /* FXT_COMMON_CLEANUP_H */
