/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every file of libfxt-provider uses: export and branch hints. */
#ifndef FXT_PROVIDER_MACRO_H
#define FXT_PROVIDER_MACRO_H

#define FXT_EXPORT __attribute__((visibility("default")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif /* FXT_PROVIDER_MACRO_H */
