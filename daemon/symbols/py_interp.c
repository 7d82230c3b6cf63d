// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_interp.h: a CPython interpreter known by its dynamic symbols, its
 * layout read from its debug file.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>

#include "cleanup.h"
#include "py_debug_offsets.h"
#include "py_interp.h"

#define BUILD_ID_MAX 64u

DEFINE_TRIVIAL_CLEANUP_FUNC(Elf *, elf_end);

/* The dynamic symbols sought, by name. */
struct wanted_syms {
	bool runtime;
	uint64_t runtime_addr;
	uint64_t eval_start, eval_end;
};

static void match_sym(Elf *elf, size_t strtab, const GElf_Sym *sym,
		      struct wanted_syms *w)
{
	const char *name;

	if (sym->st_shndx == SHN_UNDEF)
		return;
	name = elf_strptr(elf, strtab, sym->st_name);
	if (!name)
		return;
	if (!strcmp(name, "_PyRuntime")) {
		w->runtime = true;
		w->runtime_addr = sym->st_value;
	}
	else if (!strcmp(name, "_PyEval_EvalFrameDefault") &&
		 GELF_ST_TYPE(sym->st_info) == STT_FUNC && sym->st_size &&
		 sym->st_value + sym->st_size > sym->st_value) {
		w->eval_start = sym->st_value;
		w->eval_end = sym->st_value + sym->st_size;
	}
}

/* _PyRuntime and _PyEval_EvalFrameDefault in elf's .dynsym. */
static int read_dynsym(Elf *elf, struct wanted_syms *w)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	GElf_Sym sym;
	size_t i, n;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
			break;
	if (!scn || !sh.sh_entsize || sh.sh_size > PY_INTERP_DYNSYM_MAX)
		return scn ? -E2BIG : -ENOENT;
	d = elf_getdata(scn, NULL);
	if (!d)
		return -ENOENT;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && gelf_getsym(d, (int)i, &sym); i++)
		match_sym(elf, sh.sh_link, &sym, w);
	return w->runtime && w->eval_end ? 0 : -ENOENT;
}

/* The loadable segment of elf holding the evaluation function. */
static int read_text(Elf *elf, struct py_interp *out)
{
	GElf_Phdr ph;
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_vaddr <= out->eval_start &&
		    out->eval_end - ph.p_vaddr <= ph.p_filesz) {
			out->text_offset = ph.p_offset;
			out->text_vaddr = ph.p_vaddr;
			out->text_filesz = ph.p_filesz;
			return 0;
		}
	return -ENOEXEC;
}

/*
 * The debug file of build id id under root (…/.build-id/xx/yyyy.debug):
 * a regular file root owns and only root may write, within the bound.
 */
static int open_debug(const char *root, const unsigned char *id, size_t len)
{
	char path[256 + 2 * BUILD_ID_MAX], *p;
	struct stat st;
	size_t i;
	int fd;

	if (len < 2 || len > BUILD_ID_MAX || strlen(root) > 200)
		return -ENODATA;
	p = path + sprintf(path, "%s/.build-id/%02x/", root, id[0]);
	for (i = 1; i < len; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -ENODATA;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022) || (uint64_t)st.st_size > PY_INTERP_DEBUG_MAX) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Whether the file open at fd is one only root may have written. */
static bool root_only(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == 0 &&
	       !(st.st_mode & 022) && (uint64_t)st.st_size <= PY_INTERP_DEBUG_MAX;
}

/* The layout in elf's DWARF: -ENODATA when it has none. */
static int layout_of(Elf *elf, struct py_layout *l, const char **missing)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	int err;

	if (!dw)
		return -ENODATA;
	err = py_layout_read(dw, l, missing);
	dwarf_end(dw);
	return err == -ENOENT ? -EPROTONOSUPPORT : err;
}

/*
 * The layout in the debug file of elf's build id, or where there is
 * none, in elf's own DWARF if only root may have written elf (open at
 * fd): an interpreter built with -g and installed by root; else in the
 * offsets 3.13 publishes in its initial _PyRuntime at runtime (a fixed
 * structure, read whoever wrote the file).
 */
static int read_layout(Elf *elf, int fd, uint64_t runtime, const char *root,
		       struct py_layout *l, const char **missing)
{
	_cleanup_(elf_endp) Elf *debug = NULL;
	_cleanup_close_ int dfd = -1;
	const void *id;
	ssize_t len;
	int err = -ENODATA;

	len = dwelf_elf_gnu_build_id(elf, &id);
	dfd = len > 0 ? open_debug(root, id, (size_t)len) : -ENODATA;
	if (dfd >= 0) {
		debug = elf_begin(dfd, ELF_C_READ, NULL);
		err = debug ? layout_of(debug, l, missing) : -ENODATA;
	} else if (dfd == -ENODATA && root_only(fd)) {
		err = layout_of(elf, l, missing);
	} else if (dfd != -ENODATA) {
		return dfd;
	}
	if (err != -ENODATA)
		return err;
	err = py_debug_offsets_read(elf, runtime, l);
	if (err == -EPROTONOSUPPORT)
		*missing = "_Py_DebugOffsets of 3.13";
	return err == -ENOENT ? -ENODATA : err;
}

int py_interp_read(int fd, const char *debug_root, struct py_interp *out,
		   const char **missing)
{
	_cleanup_(elf_endp) Elf *elf = NULL;
	struct wanted_syms w = { 0 };
	int err;

	*missing = NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return -ENOENT;
	err = read_dynsym(elf, &w);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	out->eval_start = w.eval_start;
	out->eval_end = w.eval_end;
	err = read_text(elf, out);
	if (err)
		return err;
	err = read_layout(elf, fd, w.runtime_addr,
			  debug_root ? debug_root : "/usr/lib/debug",
			  &out->layout, missing);
	if (err == -ENODATA)
		*missing = "the interpreter's debug file (python3.X-dbg)";
	return err;
}
