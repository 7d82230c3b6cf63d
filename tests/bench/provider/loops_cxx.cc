// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loops of provider_bench.c as a C++ translation unit: the same
 * macros through C++'s argument makers and TRACE_DURATION's destructor.
 */
#include <fxt/provider.h>

#include "loops_cxx.h"

#define LOOP(name) void loop_##name##_cxx
#include "loops.h"
