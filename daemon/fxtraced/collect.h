/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A provider's buffer into the archive, record by record. Each call's
 * records go to the archive's writer as one chunk, or not at all: when
 * the queue is full the chunk is taken back and the provider's counts
 * undone, so that the same data can be written again later.
 */
#ifndef FXT_COLLECT_H
#define FXT_COLLECT_H

struct archive;
struct provider;

int collect_provider(struct provider *p, struct archive *a);
int collect_save(struct provider *p, struct archive *a, unsigned int half);

#endif /* FXT_COLLECT_H */
