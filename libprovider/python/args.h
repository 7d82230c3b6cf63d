/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Python values as trace arguments (args.c): bool, int (int64, or uint64
 * from 2**63 up), float, str (copied into the record), None (null).
 */
#ifndef PYFXT_ARGS_H
#define PYFXT_ARGS_H

#include "site.h"

/*
 * The keyword arguments of a call (kwvalues[j] named kwnames[j]) as the
 * site's arguments, into out[FXT_MAX_ARGS]; in PYFXT_ID mode the keyword
 * "id" is left out, its value in *id. Returns their number, or -1 with
 * an exception (a type that is none of the above, an int past 64 bits).
 * A str value's bytes are the object's: it must live while out is used.
 */
int pyfxt_args(const struct pyfxt_site *site, enum pyfxt_mode mode,
	       PyObject *const *kwvalues, PyObject *kwnames,
	       struct fxt_arg_in *out, PyObject **id);

/* An event's id (counter, flow, async): an int of 0 to 2**64 - 1. */
int pyfxt_id(PyObject *value, uint64_t *id);

#endif /* PYFXT_ARGS_H */
