/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User symbols with elfutils' libdwfl, offline and without a process:
 * each file is opened once (cached by path) and looked up by its own ELF
 * virtual addresses. Symbol tables come from the file's .symtab, else
 * its separate debug file (/usr/lib/debug/.build-id/xx/yyyy.debug or a
 * debuglink), else .gnu_debugdata, else .dynsym. Of DWARF only call
 * frame information is read (usyms_leaf_return_slot()).
 * The files named are opened as they are now: a build id given by the
 * caller (the one the process mapped) must match, else -ESTALE.
 */
#ifndef FXT_SYMBOLS_USYMS_H
#define FXT_SYMBOLS_USYMS_H

#include <stddef.h>
#include <stdint.h>

/* The longest build id kept (SHA-1: 20 bytes; allow for others). */
#define USYMS_BUILD_ID_MAX 32

struct usyms;

int usyms_new(struct usyms **ret);

/*
 * The ELF virtual address of file offset off in path, from its PT_LOAD
 * program headers. -ENOENT when no loaded segment holds off; -errno
 * when the file cannot be read or is not ELF (-ENOEXEC).
 */
int usyms_file_offset_to_vaddr(struct usyms *u, const char *path, uint64_t off,
			       uint64_t *vaddr);

/*
 * The function holding vaddr in path. build_id (build_id_len bytes; NULL
 * or 0 for no check) must match the file's build id, else -ESTALE.
 * *name is valid until usyms_free(). -ENOENT when no symbol holds vaddr;
 * -errno when the file cannot be opened: -EINVAL not a regular file,
 * -EREMOTE on a FUSE file system (never opened: its owner would answer),
 * -ENOEXEC not ELF.
 */
int usyms_lookup(struct usyms *u, const char *path, const uint8_t *build_id,
		 size_t build_id_len, uint64_t vaddr, const char **name);

/*
 * Where the return address of the function executing at vaddr in path
 * is, for a leaf frame the frame-pointer walk cannot see: when its call
 * frame information (.eh_frame, else .debug_frame) computes the CFA from
 * the stack pointer, *sp_offset is the return address's offset from the
 * stack pointer at vaddr. -ENOENT when the CFA is computed otherwise
 * (from the frame pointer: the frame is in the chain already), the
 * return address is not in memory, or vaddr has no CFI; -ESTALE and
 * -errno as usyms_lookup().
 */
int usyms_leaf_return_slot(struct usyms *u, const char *path,
			   const uint8_t *build_id, size_t build_id_len,
			   uint64_t vaddr, uint64_t *sp_offset);

void usyms_free(struct usyms *u);

/*
 * The GNU build id of the ELF file at path (its .note.gnu.build-id),
 * copied into buf (cap bytes). Returns its length, -ENOENT when the file
 * has none, -ENOBUFS when it is longer than cap, -errno else. Only a
 * regular file is read (-EINVAL), and none of a FUSE file system
 * (-EREMOTE): its reads are answered by its owner.
 */
int usyms_read_build_id(const char *path, uint8_t *buf, size_t cap);

/* The same of the file open at fd (e.g. /proc/PID/map_files/A-B). */
int usyms_fd_build_id(int fd, uint8_t *buf, size_t cap);

/*
 * An fd of the regular file at path, opened as a file another user named
 * is: without blocking (a FIFO), without following a last symlink,
 * close-on-exec; -errno, -EINVAL when not a regular file, -EREMOTE on
 * FUSE. The caller checks the mount table first (mount_table.h): the
 * open itself may wait on a FUSE file system's owner.
 */
int usyms_open_regular(const char *path);

#endif /* FXT_SYMBOLS_USYMS_H */
