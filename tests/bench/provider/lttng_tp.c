// SPDX-License-Identifier: GPL-2.0-only
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "lttng_tp.h"
