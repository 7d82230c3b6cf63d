/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside daemon/symbols: how files named by other users are opened. */
#ifndef FXT_SYMBOLS_USYMS_INTERNAL_H
#define FXT_SYMBOLS_USYMS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* An fd of the regular file at path, opened without blocking (a FIFO),
 * without following a last symlink, close-on-exec; -errno, -EINVAL when
 * not a regular file. */
int usyms_open_regular(const char *path);

/* The GNU build id of the ELF open at fd, as usyms_read_build_id(). */
int usyms_fd_build_id(int fd, uint8_t *buf, size_t cap);

#endif /* FXT_SYMBOLS_USYMS_INTERNAL_H */
