// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The C reference of examples/bench.rs: provider_bench's own loops
 * (tests/bench/provider/loops.h), TRACE_DURATION and TRACE_INSTANT with
 * two int arguments, built by build.rs with -O2 as the benchmark's peer.
 */
#include <fxt/provider.h>

#define LOOP(name) void fxtrace_bench_c_##name
#include "loops.h"
