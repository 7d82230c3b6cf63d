/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Durations (duration.c): the context manager duration() returns, and
 * the wrapper of functions traced by @fxtrace.traced.
 */
#ifndef PYFXT_DURATION_H
#define PYFXT_DURATION_H

#include "site.h"

extern PyTypeObject pyfxt_duration_type;
extern PyTypeObject pyfxt_noop_type;
extern PyTypeObject pyfxt_traced_type;
extern PyMethodDef pyfxt_duration_methods[];

#endif /* PYFXT_DURATION_H */
