/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A provider's buffer into the archive, record by record. Each call's
 * records are in the archive whole or not at all: a failed write cuts the
 * archive back and undoes the provider's counts, so that they say what the
 * archive holds and the same data can be written again later.
 */
#ifndef FXT_COLLECT_H
#define FXT_COLLECT_H

struct archive;
struct provider;

int collect_provider(struct provider *p, struct archive *a);
int collect_save(struct provider *p, struct archive *a, unsigned int half);

#endif /* FXT_COLLECT_H */
