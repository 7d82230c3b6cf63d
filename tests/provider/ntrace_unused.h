/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FXT_TEST_NTRACE_UNUSED_H
#define FXT_TEST_NTRACE_UNUSED_H

void ntrace_every_macro(int n, const char *peer);

#endif /* FXT_TEST_NTRACE_UNUSED_H */
