// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "ksyms.h"

int ksyms_load(const char *path, struct ksyms **ret)
{
	return -ENOSYS;
}

int ksyms_lookup(const struct ksyms *k, uint64_t addr, const char **name,
		 uint64_t *offset)
{
	return -ENOSYS;
}

bool ksyms_in_sched_text(const struct ksyms *k, uint64_t addr)
{
	return false;
}

size_t ksyms_ranges(const struct ksyms *k, const uint64_t (**ranges)[2])
{
	*ranges = NULL;
	return 0;
}

size_t ksyms_count(const struct ksyms *k)
{
	return 0;
}

void ksyms_free(struct ksyms *k)
{
}
