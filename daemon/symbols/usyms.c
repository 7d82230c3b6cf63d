// SPDX-License-Identifier: GPL-2.0-only
/*
 * User symbols with libdwfl. The paths come from other users' processes
 * (their mappings): a path may have been replaced by a FIFO, a device or
 * a hostile ELF since. Files are opened here, never by libdwfl, and only
 * regular files are read: without blocking, without following a last
 * symlink. Separate debug files are looked for by build id only, under
 * the root-owned /usr/lib/debug/.build-id/ (a debuglink names a file the
 * binary's owner chose), and must carry the binary's build id. Names are
 * copied out, bounded and with control bytes replaced, so that no escape
 * reaches a terminal. A file is read with pread, never mapped (libdwfl
 * would map it): its owner truncating it must not SIGBUS the manager.
 * At most USYMS_OPEN_MAX files stay open; the others keep what was learnt
 * of them (program headers, build id, failure).
 */
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "cleanup.h"
#include "mount_table.h"
#include "usyms.h"
#include "usyms_internal.h"

#define USYMS_FILES_MAX 65536
#define USYMS_OPEN_MAX 64
#define USYMS_NAME_MAX 1024
#define USYMS_LOADS_MAX 16
#define USYMS_ARENA_CHUNK 65536

struct usyms_load {
	uint64_t offset, filesz, vaddr;
};

struct usyms_file {
	char *path;
	int err; /* < 0: the file could not be used; kept */
	uint8_t build_id[USYMS_BUILD_ID_MAX];
	size_t build_id_len;
	struct usyms_load loads[USYMS_LOADS_MAX];
	size_t nloads;
	uint64_t low, high; /* the loaded address range */
	/* Handed to libdwfl's find_elf while opening. */
	int pending_fd;
	Elf *pending_elf;
	Dwfl *dwfl; /* NULL while closed */
	Dwfl_Module *mod;
	struct usyms_symtab symtab; /* built at the first lookup */
	bool symtab_built;
	uint64_t last_use;
};

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};

struct usyms {
	struct usyms_file *files;
	size_t nfiles, cap;
	uint32_t *table; /* index + 1 of files, by hash of path; 0 free */
	size_t table_size;
	size_t nopen;
	uint64_t clock;
	struct arena_chunk *arena;
	struct mount_table *mounts;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct usyms *, usyms_free);

int usyms_new(struct usyms **ret)
{
	_cleanup_(usyms_freep) struct usyms *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	u->table_size = 256;
	u->table = calloc(u->table_size, sizeof(*u->table));
	if (!u->table)
		return -ENOMEM;
	r = mount_table_load("/proc/self/mountinfo", &u->mounts);
	if (r < 0)
		return r;
	elf_version(EV_CURRENT);
	*ret = TAKE_PTR(u);
	return 0;
}

static void file_close(struct usyms *u, struct usyms_file *f)
{
	if (!f->dwfl)
		return;
	usyms_symtab_clear(&f->symtab);
	f->symtab_built = false;
	dwfl_end(f->dwfl);
	f->dwfl = NULL;
	f->mod = NULL;
	u->nopen--;
}

void usyms_free(struct usyms *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nfiles; i++) {
		file_close(u, &u->files[i]);
		free(u->files[i].path);
	}
	while (u->arena) {
		struct arena_chunk *next = u->arena->next;

		free(u->arena);
		u->arena = next;
	}
	free(u->files);
	free(u->table);
	mount_table_free(u->mounts);
	free(u);
}

static uint64_t hash_path(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

static int table_grow(struct usyms *u)
{
	size_t size = u->table_size * 2, i;
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < u->nfiles; i++) {
		size_t h = hash_path(u->files[i].path) & (size - 1);

		while (t[h])
			h = (h + 1) & (size - 1);
		t[h] = (uint32_t)i + 1;
	}
	free(u->table);
	u->table = t;
	u->table_size = size;
	return 0;
}

/* The entry of path, added (not yet read) when new. */
static int file_get(struct usyms *u, const char *path, struct usyms_file **ret)
{
	size_t h = hash_path(path) & (u->table_size - 1);
	struct usyms_file *f;
	int r;

	for (; u->table[h]; h = (h + 1) & (u->table_size - 1)) {
		f = &u->files[u->table[h] - 1];
		if (!strcmp(f->path, path)) {
			*ret = f;
			return 0;
		}
	}
	if (u->nfiles == USYMS_FILES_MAX)
		return -ENOSPC;
	if (u->nfiles == u->cap) {
		size_t cap = u->cap ? u->cap * 2 : 64;
		struct usyms_file *files = reallocarray(u->files, cap, sizeof(*files));

		if (!files)
			return -ENOMEM;
		u->files = files;
		u->cap = cap;
	}
	f = &u->files[u->nfiles];
	*f = (struct usyms_file){ .path = strdup(path), .pending_fd = -1 };
	if (!f->path)
		return -ENOMEM;
	u->nfiles++;
	u->table[h] = (uint32_t)u->nfiles;
	if (u->nfiles * 2 > u->table_size) {
		r = table_grow(u);
		if (r < 0)
			return r;
	}
	*ret = f;
	return 0;
}

/* The build id and PT_LOAD segments of an open ELF. */
static int read_headers(struct usyms_file *f, Elf *elf)
{
	const void *id;
	ssize_t len;
	size_t phnum, i;

	if (elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &phnum) < 0)
		return -ENOEXEC;
	f->nloads = 0;
	f->low = UINT64_MAX;
	f->high = 0;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);
		uint64_t align;

		if (!ph || ph->p_type != PT_LOAD)
			continue;
		align = ph->p_align && !(ph->p_align & (ph->p_align - 1)) ? ph->p_align : 1;
		if (ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
			return -ENOEXEC;
		f->low = f->low < (ph->p_vaddr & -align) ? f->low : ph->p_vaddr & -align;
		f->high = f->high > ph->p_vaddr + ph->p_memsz ? f->high : ph->p_vaddr + ph->p_memsz;
		if (f->nloads < USYMS_LOADS_MAX)
			f->loads[f->nloads++] = (struct usyms_load){
				.offset = ph->p_offset, .filesz = ph->p_filesz,
				.vaddr = ph->p_vaddr };
	}
	if (!f->nloads || f->low >= f->high)
		return -ENOEXEC;
	f->build_id_len = 0;
	len = dwelf_elf_gnu_build_id(elf, &id);
	if (len > 0 && (size_t)len <= sizeof(f->build_id)) {
		memcpy(f->build_id, id, (size_t)len);
		f->build_id_len = (size_t)len;
	}
	return 0;
}

/* A regular file, not of a FUSE file system (whose reads its owner's
 * process answers, or never): 0, -EINVAL, -EREMOTE.
 */
static int check_regular(int fd)
{
	struct statfs fs;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (fstatfs(fd, &fs) < 0)
		return -errno;
	return fs.f_type == FUSE_SUPER_MAGIC ? -EREMOTE : 0;
}

int usyms_open_regular(const char *path)
{
	_cleanup_close_ int fd = -1;
	int r;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = check_regular(fd);
	return r < 0 ? r : TAKE_FD(fd);
}

/* The debug file of a build id under /usr/lib/debug/.build-id/, which
 * carries that build id: an open fd and its name, or -1.
 */
static int open_debug_file(const uint8_t *id, size_t len, char **name)
{
	char path[64 + 2 * USYMS_BUILD_ID_MAX], *p;
	uint8_t got[USYMS_BUILD_ID_MAX];
	size_t i;
	int fd, n;

	if (len < 2 || len > USYMS_BUILD_ID_MAX)
		return -1;
	p = path + sprintf(path, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (i = 1; i < len; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	fd = usyms_open_regular(path);
	if (fd < 0)
		return -1;
	n = usyms_fd_build_id(fd, got, sizeof(got));
	*name = n == (int)len && !memcmp(got, id, len) ? strdup(path) : NULL;
	if (!*name) {
		close(fd);
		return -1;
	}
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name,
			  const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);

	if (len <= 0)
		return -1;
	return open_debug_file(bits, (size_t)len, debuginfo_file_name);
}

/* The file opened by file_open(), handed over (libdwfl owns it then). */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct usyms_file *f = *userdata;
	int fd = f->pending_fd;

	if (fd < 0)
		return -1;
	*file_name = strdup(f->path);
	if (!*file_name)
		return -1;
	*elfp = f->pending_elf;
	f->pending_fd = -1;
	f->pending_elf = NULL;
	return fd;
}

static char *debuginfo_path = "/usr/lib/debug";
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static void evict_one(struct usyms *u)
{
	struct usyms_file *oldest = NULL;
	size_t i;

	for (i = 0; i < u->nfiles; i++) {
		struct usyms_file *f = &u->files[i];

		if (f->dwfl && (!oldest || f->last_use < oldest->last_use))
			oldest = f;
	}
	if (oldest)
		file_close(u, oldest);
}

/* The module of f in d, at its own addresses (bias 0); its ELF is
 * f->pending_*, which libdwfl takes through find_elf().
 */
static int report_module(struct usyms_file *f, Dwfl *d)
{
	void **userdata;
	GElf_Addr bias;

	dwfl_report_begin(d);
	f->mod = dwfl_report_module(d, f->path, f->low, f->high);
	dwfl_report_end(d, NULL, NULL);
	if (!f->mod)
		return -ENOMEM;
	dwfl_module_info(f->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = f;
	if (!dwfl_module_getelf(f->mod, &bias) || bias)
		return -ENOEXEC;
	return 0;
}

/* Opens f with libdwfl, reading its headers. */
static int file_open(struct usyms *u, struct usyms_file *f)
{
	_cleanup_close_ int fd = -1;
	Elf *elf;
	Dwfl *d;
	int r;

	if (mount_table_on_fuse(u->mounts, f->path))
		return -EREMOTE;
	fd = usyms_open_regular(f->path);
	if (fd < 0)
		return fd;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -ENOEXEC;
	r = read_headers(f, elf);
	d = r < 0 ? NULL : dwfl_begin(&offline_callbacks);
	if (!d) {
		elf_end(elf);
		return r < 0 ? r : -ENOMEM;
	}
	if (u->nopen >= USYMS_OPEN_MAX)
		evict_one(u);
	f->pending_fd = fd;
	f->pending_elf = elf;
	r = report_module(f, d);
	if (f->pending_fd < 0)
		fd = -1; /* libdwfl took the fd and the ELF */
	else
		elf_end(elf);
	f->pending_fd = -1;
	f->pending_elf = NULL;
	if (r < 0) {
		dwfl_end(d);
		f->mod = NULL;
		return r;
	}
	f->dwfl = d;
	u->nopen++;
	return 0;
}

/* f open (or its failure cached), its last use now. */
static int file_ready(struct usyms *u, const char *path, struct usyms_file **ret)
{
	struct usyms_file *f;
	int r = file_get(u, path, &f);

	if (r < 0)
		return r;
	if (f->err < 0)
		return f->err;
	if (!f->dwfl) {
		r = file_open(u, f);
		if (r < 0) {
			/* A file that vanished may come back: not cached. */
			if (r != -ENOENT)
				f->err = r;
			return r;
		}
	}
	f->last_use = ++u->clock;
	*ret = f;
	return 0;
}

int usyms_file_offset_to_vaddr(struct usyms *u, const char *path, uint64_t off,
			       uint64_t *vaddr)
{
	struct usyms_file *f;
	size_t i;
	int r = file_ready(u, path, &f);

	if (r < 0)
		return r;
	for (i = 0; i < f->nloads; i++) {
		const struct usyms_load *l = &f->loads[i];

		if (off >= l->offset && off - l->offset < l->filesz) {
			*vaddr = off - l->offset + l->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/* A copy of name for the caller: bounded, control bytes replaced. */
static const char *arena_copy(struct usyms *u, const char *name)
{
	size_t len = strnlen(name, USYMS_NAME_MAX), i;
	struct arena_chunk *c = u->arena;
	char *p;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > USYMS_ARENA_CHUNK ? len + 1 : USYMS_ARENA_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		*c = (struct arena_chunk){ .next = u->arena, .size = size };
		u->arena = c;
	}
	p = c->data + c->used;
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

/* f ready, and its build id build_id if one is given. */
static int file_checked(struct usyms *u, const char *path,
			const uint8_t *build_id, size_t build_id_len,
			struct usyms_file **ret)
{
	struct usyms_file *f;
	int r = file_ready(u, path, &f);

	if (r < 0)
		return r;
	if (build_id && build_id_len &&
	    (build_id_len != f->build_id_len ||
	     memcmp(build_id, f->build_id, build_id_len)))
		return -ESTALE;
	*ret = f;
	return 0;
}

int usyms_module(struct usyms *u, const char *path, const uint8_t *build_id,
		 size_t build_id_len, Dwfl_Module **mod)
{
	struct usyms_file *f;
	int r = file_checked(u, path, build_id, build_id_len, &f);

	if (r < 0)
		return r;
	*mod = f->mod;
	return 0;
}

int usyms_lookup(struct usyms *u, const char *path, const uint8_t *build_id,
		 size_t build_id_len, uint64_t vaddr, const char **name)
{
	struct usyms_file *f;
	struct usyms_sym *s;
	int r = file_checked(u, path, build_id, build_id_len, &f);

	if (r < 0)
		return r;
	if (!f->symtab_built) {
		r = usyms_symtab_build(f->mod, &f->symtab);
		if (r < 0)
			return r;
		f->symtab_built = true;
	}
	s = usyms_symtab_find(&f->symtab, vaddr);
	if (!s)
		return -ENOENT;
	if (!s->copy)
		s->copy = arena_copy(u, s->name);
	*name = s->copy;
	return *name ? 0 : -ENOMEM;
}

int usyms_fd_build_id(int fd, uint8_t *buf, size_t cap)
{
	const void *id;
	ssize_t len;
	Elf *elf;
	int r = check_regular(fd);

	if (r < 0)
		return r;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -ENOEXEC;
	len = elf_kind(elf) == ELF_K_ELF ? dwelf_elf_gnu_build_id(elf, &id) : -1;
	if (len > 0 && (size_t)len <= cap)
		memcpy(buf, id, (size_t)len);
	elf_end(elf);
	if (len < 0)
		return -ENOEXEC;
	if (len == 0)
		return -ENOENT;
	return (size_t)len <= cap ? (int)len : -ENOBUFS;
}

int usyms_read_build_id(const char *path, uint8_t *buf, size_t cap)
{
	_cleanup_(mount_table_freep) struct mount_table *mounts = NULL;
	_cleanup_close_ int fd = -1;
	int r = mount_table_load("/proc/self/mountinfo", &mounts);

	if (r < 0)
		return r;
	if (mount_table_on_fuse(mounts, path))
		return -EREMOTE;
	fd = usyms_open_regular(path);
	if (fd < 0)
		return fd;
	return usyms_fd_build_id(fd, buf, cap);
}
