/* SPDX-License-Identifier: GPL-2.0-only */
/* The provider benchmark's loops compiled as C++ (loops_cxx.cc). */
#ifndef FXT_BENCH_LOOPS_CXX_H
#define FXT_BENCH_LOOPS_CXX_H

#ifdef __cplusplus
extern "C" {
#endif

void loop_instant_cxx(unsigned long n);
void loop_instant_dyn_cxx(unsigned long n);
void loop_duration_cxx(unsigned long n);

#ifdef __cplusplus
}
#endif

#endif /* FXT_BENCH_LOOPS_CXX_H */
