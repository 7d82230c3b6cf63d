/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Automatic tracing (auto.c): every Python function call and return as
 * a duration's begin and end, from a C profile function (sys.setprofile
 * underneath), or from sys.monitoring's callbacks (Python 3.12 and
 * later; the Python part registers them).
 */
#ifndef PYFXT_AUTO_H
#define PYFXT_AUTO_H

#include "site.h"

/* Functions with a site each; past this, counted and not traced. */
#define PYFXT_AUTO_SITES_MAX 65536

extern PyMethodDef pyfxt_auto_methods[];
int pyfxt_auto_init(void);

#endif /* PYFXT_AUTO_H */
