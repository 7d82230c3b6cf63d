// SPDX-License-Identifier: GPL-2.0-only
/*
 * User symbols with libdwfl. The files come open from the caller, opened
 * as the user whose process mapped them could (proc_open.h), and are
 * known by device and inode. Separate debug files are looked for by
 * build id only, under the root-owned /usr/lib/debug/.build-id/ (a
 * debuglink names a file the binary's owner chose), and must carry the
 * binary's build id. Names are copied out, bounded by their string
 * table's end and in length, demangled (usyms_demangle.c), with control
 * bytes replaced, so that no escape reaches a terminal. A file is read
 * with pread, never mapped (libdwfl would map it): its owner truncating
 * it must not SIGBUS the manager. Before libdwfl reads a file, the sizes of the sections it
 * would read are checked: each against USYMS_SECTION_MAX, and their sum
 * with the other open files' against the budget (older files are closed
 * to make room). At most USYMS_OPEN_MAX files are open in libdwfl; the
 * others keep what was learnt of them (program headers, build id,
 * failure) and their fd.
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
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "hash_index.h"
#include "mount_table.h"
#include "usyms.h"
#include "usyms_demangle.h"
#include "usyms_inline.h"
#include "usyms_internal.h"

/* Each file keeps its fd: RLIMIT_NOFILE is raised to its maximum. */
#define USYMS_FILES_MAX 4096
#define USYMS_OPEN_MAX 64
#define USYMS_NAME_MAX 1024
#define USYMS_LOADS_MAX 16
#define USYMS_ARENA_CHUNK 65536

struct usyms_load {
	uint64_t offset, filesz, vaddr;
};

struct usyms_file {
	char *path; /* its name, for libdwfl */
	int fd; /* as the caller opened it */
	uint64_t dev, ino;
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
	struct usyms_inline_index *inline_index; /* of its Dwfl's DIEs */
	struct usyms_cfi cfi; /* its unwinding rows, built when asked */
	bool dwarf_read; /* by this opening, for inline frames */
	uint32_t dwarf_reads; /* openings that read it, kept when closed */
	bool symtab_built;
	uint64_t section_bytes; /* what libdwfl may read of it, and our table */
	bool dwarf_ok; /* its DWARF within the bounds: .debug_frame read */
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
	struct hash_index table; /* files by device and inode */
	size_t nopen;
	uint64_t clock;
	struct arena_chunk *arena;
	struct mount_table *mounts;
	struct usyms_budget budget;
	uint64_t bytes_open; /* the open files' section_bytes */
	struct usyms_stats st;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct usyms *, usyms_free);

static uint64_t hash_inode(uint64_t dev, uint64_t ino)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ull) ^ ino;

	return (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
}

static uint64_t file_hash(const void *ctx, uint32_t i)
{
	const struct usyms_file *f = &((const struct usyms *)ctx)->files[i];

	return hash_inode(f->dev, f->ino);
}

/* Room for count files, 256 slots first: -E2BIG, -ENOMEM. */
static int table_grow(struct usyms *u, size_t count)
{
	return hash_index_reserve(&u->table, count, 256, file_hash, u);
}

int usyms_new(struct usyms **ret)
{
	_cleanup_(usyms_freep) struct usyms *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	if (table_grow(u, 1))
		return -ENOMEM;
	u->budget.bytes = USYMS_BYTES_DEFAULT;
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
	u->bytes_open -= f->section_bytes;
	usyms_symtab_clear(&f->symtab);
	f->symtab_built = false;
	usyms_inline_index_free(f->inline_index);
	f->inline_index = NULL;
	usyms_cfi_clear(&f->cfi);
	f->dwarf_read = false;
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
		if (u->files[i].fd >= 0)
			close(u->files[i].fd);
	}
	while (u->arena) {
		struct arena_chunk *next = u->arena->next;

		free(u->arena);
		u->arena = next;
	}
	free(u->files);
	hash_index_free(&u->table);
	mount_table_free(u->mounts);
	free(u);
}

/* The slot of (dev, ino): holding its index + 1, or free. */
static uint32_t table_slot(const struct usyms *u, uint64_t dev, uint64_t ino)
{
	const struct hash_index *x = &u->table;
	uint32_t h = hash_index_first(x, hash_inode(dev, ino));

	for (; x->slots[h]; h = hash_index_next(x, h)) {
		const struct usyms_file *f = &u->files[x->slots[h] - 1];

		if (f->dev == dev && f->ino == ino)
			break;
	}
	return h;
}

static int files_reserve(struct usyms *u)
{
	size_t cap = u->cap ? u->cap * 2 : 64;
	struct usyms_file *files;

	if (u->nfiles < u->cap)
		return 0;
	files = reallocarray(u->files, cap, sizeof(*files));
	if (!files)
		return -ENOMEM;
	u->files = files;
	u->cap = cap;
	return 0;
}

int usyms_add_fd(struct usyms *u, int fd, const char *name, uint32_t *id)
{
	_cleanup_close_ int owned = fd;
	struct usyms_file *f;
	struct stat st;
	uint32_t h;
	int r;

	if (fstat(owned, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	h = table_slot(u, st.st_dev, st.st_ino);
	if (u->table.slots[h]) {
		*id = u->table.slots[h];
		return 0;
	}
	if (u->nfiles == USYMS_FILES_MAX) {
		u->st.files_refused++;
		return -ENOSPC;
	}
	r = files_reserve(u);
	if (r < 0)
		return r;
	f = &u->files[u->nfiles];
	*f = (struct usyms_file){ .path = strdup(name), .fd = -1,
				  .dev = st.st_dev, .ino = st.st_ino,
				  .pending_fd = -1 };
	if (!f->path)
		return -ENOMEM;
	f->fd = TAKE_FD(owned);
	u->nfiles++;
	u->st.files++;
	u->table.slots[h] = (uint32_t)u->nfiles;
	*id = (uint32_t)u->nfiles;
	return table_grow(u, u->nfiles);
}

static struct usyms_file *file_of(struct usyms *u, uint32_t id)
{
	return id && id <= u->nfiles ? &u->files[id - 1] : NULL;
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

static int section_bytes(struct usyms_file *f, Elf *elf, uint64_t size);

/*
 * Whether the debug file open at fd is within the bounds, its DWARF
 * too: libdwfl reads the debug file's DWARF whole when it reads any of
 * it (inline frames, .debug_frame), so one over them is not used.
 */
static bool debug_file_bounded(int fd)
{
	struct usyms_file tmp = { .fd = -1 };
	struct stat st;
	Elf *elf;
	int r;

	if (fstat(fd, &st) < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return false;
	r = section_bytes(&tmp, elf, (uint64_t)st.st_size);
	elf_end(elf);
	return r == 0 && tmp.dwarf_ok;
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
	*name = n == (int)len && !memcmp(got, id, len) &&
				debug_file_bounded(fd) ?
			strdup(path) :
			NULL;
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
	int len;

	/*
	 * libdwfl asks here for a dwz file too (.gnu_debugaltlink: its name,
	 * no CRC): the module's own debug file is not it, and taken as it
	 * would name inline frames from the wrong DIEs. None is given: names
	 * kept in a dwz file are not found.
	 */
	if (debuglink_file && !debuglink_crc)
		return -1;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
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

/* Whether libdwfl reads section sh (named name) for symbols or CFI. */
static bool section_read(const GElf_Shdr *sh, const char *name)
{
	if (sh->sh_type == SHT_SYMTAB || sh->sh_type == SHT_DYNSYM ||
	    sh->sh_type == SHT_STRTAB || sh->sh_type == SHT_SYMTAB_SHNDX)
		return true;
	return name && (!strcmp(name, ".eh_frame") ||
			!strcmp(name, ".eh_frame_hdr") ||
			!strcmp(name, ".gnu_debugdata"));
}

/* What usyms_symtab_build() may hold of a symbol table sh: a usyms_sym
 * per entry (a debug file's table comes on top, if one is found).
 */
static uint64_t table_bytes(const GElf_Shdr *sh)
{
	if (sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM)
		return 0;
	return sh->sh_size / sizeof(Elf64_Sym) * sizeof(struct usyms_sym);
}

/* DWARF, which libdw reads whole once .debug_frame is asked for. */
static bool section_dwarf(const char *name)
{
	return name && (!strncmp(name, ".debug_", 7) ||
			!strncmp(name, ".zdebug_", 8));
}

/*
 * The bytes libdwfl would read of f's elf (of size bytes on disk): -EFBIG
 * when a section read for symbols is over USYMS_SECTION_MAX, -ENOEXEC
 * when one reaches past the file's end. DWARF over the bound (a
 * compressed section by what it expands to) only loses the lookups of
 * .debug_frame and inline frames (f->dwarf_ok).
 */
static int section_bytes(struct usyms_file *f, Elf *elf, uint64_t size)
{
	uint64_t dwarf = 0, expanded;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	f->section_bytes = 0;
	f->dwarf_ok = true;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		shstrndx = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name;
		bool symbols;

		if (!sh || sh->sh_type == SHT_NOBITS)
			continue;
		name = shstrndx ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		symbols = section_read(sh, name);
		if (!symbols && !section_dwarf(name))
			continue;
		if (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset ||
		    sh->sh_size > USYMS_SECTION_MAX) {
			if (symbols)
				return sh->sh_size > USYMS_SECTION_MAX ?
					       -EFBIG : -ENOEXEC;
			f->dwarf_ok = false;
			continue;
		}
		if (symbols) {
			f->section_bytes += sh->sh_size + table_bytes(sh);
			continue;
		}
		expanded = usyms_dwarf_size(elf, sh, name);
		if (expanded > USYMS_SECTION_MAX)
			f->dwarf_ok = false;
		else
			dwarf += expanded;
	}
	if (dwarf > USYMS_SECTION_MAX)
		f->dwarf_ok = false;
	if (f->dwarf_ok)
		f->section_bytes += dwarf;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool usyms_past_deadline(const struct usyms *u)
{
	return u->budget.deadline_ns && now_ns() >= u->budget.deadline_ns;
}

/* Room for bytes more in the budget, closing the oldest files for it. */
static int budget_room(struct usyms *u, uint64_t bytes)
{
	if (bytes > u->budget.bytes)
		return -EDQUOT;
	while (u->bytes_open + bytes > u->budget.bytes && u->nopen)
		evict_one(u);
	return u->bytes_open + bytes > u->budget.bytes ? -EDQUOT : 0;
}

/* The ELF of f's fd, its headers read and its sections' sizes checked. */
static int file_elf(struct usyms *u, struct usyms_file *f, int fd, Elf **ret)
{
	struct stat st;
	Elf *elf;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -ENOEXEC;
	r = read_headers(f, elf);
	if (!r)
		r = section_bytes(f, elf, (uint64_t)st.st_size);
	if (!r && !f->dwarf_ok)
		u->st.dwarf_too_large++;
	if (!r)
		r = budget_room(u, f->section_bytes);
	if (r < 0) {
		elf_end(elf);
		return r;
	}
	*ret = elf;
	return 0;
}

/* Opens f with libdwfl, reading its headers. */
static int file_open(struct usyms *u, struct usyms_file *f)
{
	_cleanup_close_ int fd = -1;
	Elf *elf = NULL;
	Dwfl *d;
	int r;

	fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return -errno;
	r = file_elf(u, f, fd, &elf);
	if (r < 0)
		return r;
	d = dwfl_begin(&offline_callbacks);
	if (!d) {
		elf_end(elf);
		return -ENOMEM;
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
	u->bytes_open += f->section_bytes;
	return 0;
}

/* The open files' budget or deadline refused f: counted, not kept. */
int usyms_count_refusal(struct usyms *u, int r)
{
	if (r == -EDQUOT || r == -ETIME)
		u->st.over_budget++;
	else if (r == -EFBIG)
		u->st.too_large++;
	return r;
}

/* f open (or its failure cached), its last use now. */
static int file_ready(struct usyms *u, uint32_t id, struct usyms_file **ret)
{
	struct usyms_file *f = file_of(u, id);
	int r;

	if (!f)
		return -ENOENT;
	if (f->err < 0)
		return f->err;
	if (!f->dwfl) {
		r = usyms_past_deadline(u) ? -ETIME : file_open(u, f);
		if (r < 0) {
			/* Over the budget now, not for ever: not cached. */
			if (r != -EDQUOT && r != -ETIME)
				f->err = r;
			return usyms_count_refusal(u, r);
		}
	}
	f->last_use = ++u->clock;
	*ret = f;
	return 0;
}

int usyms_file_offset_to_vaddr(struct usyms *u, uint32_t id, uint64_t off,
			       uint64_t *vaddr)
{
	struct usyms_file *f;
	size_t i;
	int r = file_ready(u, id, &f);

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

/* A copy of name (len bytes at most) for the caller: control bytes
 * replaced.
 */
const char *usyms_copy_name(struct usyms *u, const char *name, size_t max)
{
	size_t len = strnlen(name, max < USYMS_NAME_MAX ? max : USYMS_NAME_MAX);
	struct arena_chunk *c = u->arena;
	size_t i;
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

/* The name shown for s: demangled when it is a C++ or Rust name. */
static const char *sym_name_copy(struct usyms *u, const struct usyms_sym *s)
{
	char buf[USYMS_NAME_MAX + 1];
	int n = usyms_demangle(s->name, s->name_max, buf, sizeof(buf));

	if (n > 0)
		return usyms_copy_name(u, buf, (size_t)n);
	return usyms_copy_name(u, s->name, s->name_max);
}

/* f ready, and its build id build_id if one is given. */
static int file_checked(struct usyms *u, uint32_t id, const uint8_t *build_id,
			size_t build_id_len, struct usyms_file **ret)
{
	struct usyms_file *f;
	int r = file_ready(u, id, &f);

	if (r < 0)
		return r;
	if (build_id && build_id_len &&
	    (build_id_len != f->build_id_len ||
	     memcmp(build_id, f->build_id, build_id_len)))
		return -ESTALE;
	*ret = f;
	return 0;
}

int usyms_module(struct usyms *u, uint32_t id, const uint8_t *build_id,
		 size_t build_id_len, Dwfl_Module **mod, bool *dwarf_ok)
{
	struct usyms_file *f;
	int r = file_checked(u, id, build_id, build_id_len, &f);

	if (r < 0)
		return r;
	*mod = f->mod;
	*dwarf_ok = f->dwarf_ok;
	return 0;
}

bool usyms_dwarf_read_ok(struct usyms *u, uint32_t id)
{
	struct usyms_file *f = file_of(u, id);

	if (!f || !f->dwfl)
		return false;
	if (f->dwarf_read)
		return true;
	if (f->dwarf_reads >= USYMS_DWARF_READS_MAX)
		return false;
	f->dwarf_reads++;
	f->dwarf_read = true;
	return true;
}

void usyms_charge(struct usyms *u, uint32_t id, uint64_t bytes)
{
	struct usyms_file *f = file_of(u, id);

	if (f && f->dwfl) {
		f->section_bytes += bytes;
		u->bytes_open += bytes;
	}
}

struct usyms_inline_index **usyms_inline_index_of(struct usyms *u, uint32_t id)
{
	return &file_of(u, id)->inline_index;
}

struct usyms_cfi *usyms_cfi_of(struct usyms *u, uint32_t id)
{
	return &file_of(u, id)->cfi;
}

/* f's symbol table, built at its first lookup within the budget. */
static int file_symtab(struct usyms *u, struct usyms_file *f)
{
	int r;

	if (f->symtab_built)
		return 0;
	if (usyms_past_deadline(u))
		return usyms_count_refusal(u, -ETIME);
	r = usyms_symtab_build(f->mod, &f->symtab);
	if (r < 0)
		return r;
	f->symtab_built = true;
	return 0;
}

int usyms_lookup(struct usyms *u, uint32_t id, const uint8_t *build_id,
		 size_t build_id_len, uint64_t vaddr, const char **name)
{
	struct usyms_file *f;
	struct usyms_sym *s;
	int r = file_checked(u, id, build_id, build_id_len, &f);

	if (!r)
		r = file_symtab(u, f);
	if (r < 0)
		return r;
	s = usyms_symtab_find(&f->symtab, vaddr);
	if (!s)
		return -ENOENT;
	if (!s->copy)
		s->copy = sym_name_copy(u, s);
	*name = s->copy;
	return *name ? 0 : -ENOMEM;
}

void usyms_set_budget(struct usyms *u, const struct usyms_budget *b)
{
	u->budget = *b;
	if (!u->budget.bytes)
		u->budget.bytes = USYMS_BYTES_DEFAULT;
}

void usyms_stats(const struct usyms *u, struct usyms_stats *st)
{
	*st = u->st;
	st->bytes_open = u->bytes_open;
}

int usyms_add_path(struct usyms *u, const char *path, uint32_t *id)
{
	int fd;

	if (mount_table_on_fuse(u->mounts, path))
		return -EREMOTE;
	fd = usyms_open_regular(path);
	return fd < 0 ? fd : usyms_add_fd(u, fd, path, id);
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
