// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "usyms.h"

int usyms_new(struct usyms **ret)
{
	return -ENOSYS;
}

int usyms_file_offset_to_vaddr(struct usyms *u, const char *path, uint64_t off,
			       uint64_t *vaddr)
{
	return -ENOSYS;
}

int usyms_lookup(struct usyms *u, const char *path, const uint8_t *build_id,
		 size_t build_id_len, uint64_t vaddr, const char **name)
{
	return -ENOSYS;
}

void usyms_free(struct usyms *u)
{
}

int usyms_read_build_id(const char *path, uint8_t *buf, size_t cap)
{
	return -ENOSYS;
}
