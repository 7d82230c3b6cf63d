/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hooks for the tests and benchmarks, which link the static library; not
 * exported from the shared one. Each is defined in the unit it looks into.
 */
#ifndef FXT_PROVIDER_TEST_HOOKS_H
#define FXT_PROVIDER_TEST_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include <fxt/provider_abi.h>

struct fxt_buffer;
struct fxt_pvclock_page;

/*
 * Start a trace on a buffer made by the caller (memfd with a header the
 * caller filled like the manager does), without a manager. save_fd: the
 * socket SAVE messages go to in streaming mode, or -1.
 */
struct fxt_buffer *fxt_test_attach(int memfd, uint64_t size,
				   enum fxt_buffering_mode mode,
				   const char *categories, int save_fd);
void fxt_test_stop(struct fxt_buffer *b);
void fxt_test_detach(struct fxt_buffer *b);
/* Write every page of b once now (again: from the first), as the background thread does. */
void fxt_test_touch(struct fxt_buffer *b, bool again);
/* Pages of b written once so far (fxt_buffer_touch()). */
uint64_t fxt_test_touched(const struct fxt_buffer *b);
/* 2 MiB ranges of b collapsed into huge pages before their touches. */
uint64_t fxt_test_collapsed(const struct fxt_buffer *b);
/* Where the library mapped b. */
const void *fxt_test_mapping(const struct fxt_buffer *b);
/* The buffer the manager gave, and whether its other half is free. */
struct fxt_buffer *fxt_test_transport_buffer(void);
bool fxt_test_other_half_free(struct fxt_buffer *b);
/*
 * Buffers mapped from now on are written as without membarrier(): each
 * record takes its own space from the shared counter (buffer.c).
 */
void fxt_test_record_by_record(bool on);
/* Threads whose state is registered (live threads that traced). */
unsigned int fxt_test_registered_threads(void);
/* This thread's events written by the library, not the inline writer. */
uint64_t fxt_test_library_events(void);
/* Is the trace clock the TSC (not clock_gettime())? */
bool fxt_test_clock_tsc(void);
/* Which clock events read (clock.c), and its name for people. */
enum fxt_test_clock {
	FXT_TEST_CLOCK_GETTIME,
	FXT_TEST_CLOCK_TSC, /* the kernel's clocksource is the TSC */
	FXT_TEST_CLOCK_KVM_TSC, /* kvm-clock, its TSC stable bit set */
};
enum fxt_test_clock fxt_test_clock_kind(void);
const char *fxt_test_clock_name(void);
/* New lines started because kvm-clock's page changed. */
unsigned int fxt_test_clock_recalibrations(void);
/* The TSC rate the line follows: ns per tick << 32. */
uint64_t fxt_test_clock_rate(void);
/* Re-anchor every span ns (0: the default, 100 ms). */
void fxt_test_clock_reset(uint64_t span);
/*
 * From the next trace start, choose on this clocksource, CPU flags and
 * kvm-clock page (NULL: none mapped) instead of the machine's; a NULL
 * clocksource: the machine's again.
 */
void fxt_test_clock_fake(const char *clocksource, bool invariant,
			 const volatile struct fxt_pvclock_page *page);
/* Never try to reach a manager (tests running beside a real one). */
void fxt_test_disable_transport(void);

#endif /* FXT_PROVIDER_TEST_HOOKS_H */
