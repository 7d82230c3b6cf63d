/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The module's event functions (events.c), for its method table. */
#ifndef PYFXT_EVENTS_H
#define PYFXT_EVENTS_H

#include "site.h"

extern PyMethodDef pyfxt_event_methods[];

#endif /* PYFXT_EVENTS_H */
