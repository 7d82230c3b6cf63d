/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User symbols with elfutils' libdwfl, offline and without a process.
 * Files are handed in open (proc_open.h opens another user's as they
 * could) and known by device and inode: a hundred links to one file are
 * one file, read once. Each is looked up by its own ELF virtual
 * addresses. Symbol tables come from the file's .symtab, else its
 * separate debug file (/usr/lib/debug/.build-id/xx/yyyy.debug), else
 * .gnu_debugdata, else .dynsym. Of DWARF only call frame information is
 * read (usyms_leaf_return_slot(), usyms_cfi_table()). A build id given
 * by the caller (the one the process mapped) must match the file's,
 * else -ESTALE.
 * What libelf reads is bounded before it reads it: a section it would
 * read over USYMS_SECTION_MAX refuses the file (-EFBIG); the open files'
 * sections stay under a total (usyms_budget), and a deadline ends the
 * work (-ETIME); each refusal is counted (usyms_stats).
 */
#ifndef FXT_SYMBOLS_USYMS_H
#define FXT_SYMBOLS_USYMS_H

#include <stddef.h>
#include <stdint.h>

/* The longest build id kept (SHA-1: 20 bytes; allow for others). */
#define USYMS_BUILD_ID_MAX 32

/* Beyond this, a section libelf would read refuses the whole file. */
#define USYMS_SECTION_MAX (64u << 20)

struct usyms;

int usyms_new(struct usyms **ret);

/*
 * Adds the ELF file open at fd (read only; taken over, closed on every
 * path) under name (for messages): its id in *id, the same for a file
 * already known by device and inode. -EINVAL not a regular file,
 * -ENOSPC over the files' cap (counted), -errno.
 */
int usyms_add_fd(struct usyms *u, int fd, const char *name, uint32_t *id);

/*
 * Adds the file at path of this process's root, opened as
 * usyms_open_regular() does: for files the manager itself trusts (tests,
 * the debug files), never for a path another user named.
 */
int usyms_add_path(struct usyms *u, const char *path, uint32_t *id);

/*
 * The ELF virtual address of file offset off in file id, from its
 * PT_LOAD program headers. -ENOENT when no loaded segment holds off;
 * -errno when the file cannot be read or is not ELF (-ENOEXEC).
 */
int usyms_file_offset_to_vaddr(struct usyms *u, uint32_t id, uint64_t off,
			       uint64_t *vaddr);

/*
 * The function holding vaddr in file id. build_id (build_id_len bytes;
 * NULL or 0 for no check) must match the file's build id, else -ESTALE.
 * *name, demangled when it is a C++ or Rust name (usyms_demangle.h), is
 * valid until usyms_free(). -ENOENT when no symbol holds vaddr;
 * -ENOEXEC not ELF; -EFBIG a section too large; -EDQUOT over the budget's
 * bytes; -ETIME past its deadline.
 */
int usyms_lookup(struct usyms *u, uint32_t id, const uint8_t *build_id,
		 size_t build_id_len, uint64_t vaddr, const char **name);

/*
 * Where the return address of the function executing at vaddr in file
 * id is, for a leaf frame the frame-pointer walk cannot see: when its
 * call frame information (.eh_frame, else .debug_frame) computes the CFA
 * from the stack pointer, *sp_offset is the return address's offset from
 * the stack pointer at vaddr. -ENOENT when the CFA is computed otherwise
 * (from the frame pointer: the frame is in the chain already), the
 * return address is not in memory, or vaddr has no CFI; -ESTALE and
 * -errno as usyms_lookup().
 */
int usyms_leaf_return_slot(struct usyms *u, uint32_t id,
			   const uint8_t *build_id, size_t build_id_len,
			   uint64_t vaddr, uint64_t *sp_offset);

struct cfi_table;
/*
 * The unwinding rows of file id's .eh_frame (cfi_table.h, at the file's
 * own addresses), for a copied user stack to be walked: built at the
 * first call, kept while the file is open and counted in the budget's
 * bytes; valid until the next call on u. -ENOENT without .eh_frame_hdr
 * or rows, -ESTALE and -errno as usyms_lookup(), cfi_table_build()'s.
 */
int usyms_cfi_table(struct usyms *u, uint32_t id, const uint8_t *build_id,
		    size_t build_id_len, const struct cfi_table **t);

/* What the open files' sections may hold, and until when to work. */
struct usyms_budget {
	uint64_t bytes; /* 0: USYMS_BYTES_DEFAULT */
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0: none */
};

#define USYMS_BYTES_DEFAULT (128u << 20)

void usyms_set_budget(struct usyms *u, const struct usyms_budget *b);

/* Files, and lookups refused, by cause. */
struct usyms_stats {
	uint64_t files; /* known, by device and inode */
	uint64_t files_refused; /* over the files' cap */
	uint64_t too_large; /* a section over USYMS_SECTION_MAX */
	uint64_t over_budget; /* the budget's bytes or deadline */
	/* files opened whose DWARF is not read, over USYMS_SECTION_MAX */
	uint64_t dwarf_too_large;
	/* what the open files hold now, of the budget's bytes */
	uint64_t bytes_open;
};

void usyms_stats(const struct usyms *u, struct usyms_stats *st);

void usyms_free(struct usyms *u);

/*
 * The GNU build id of the ELF file at path (its .note.gnu.build-id),
 * copied into buf (cap bytes). Returns its length, -ENOENT when the file
 * has none, -ENOBUFS when it is longer than cap, -errno else. Only a
 * regular file is read (-EINVAL), and none of a FUSE file system
 * (-EREMOTE): its reads are answered by its owner.
 */
int usyms_read_build_id(const char *path, uint8_t *buf, size_t cap);

/* The same of the file open at fd (e.g. one proc_open_mapped() gave). */
int usyms_fd_build_id(int fd, uint8_t *buf, size_t cap);

/*
 * An fd of the regular file at path, opened in this process's root:
 * without blocking (a FIFO), without following a last symlink,
 * close-on-exec; -errno, -EINVAL when not a regular file, -EREMOTE on
 * FUSE. For paths the manager trusts; another user's go through
 * proc_open_mapped().
 */
int usyms_open_regular(const char *path);

#endif /* FXT_SYMBOLS_USYMS_H */
