// SPDX-License-Identifier: GPL-2.0-only
/*
 * User symbols (daemon/symbols/usyms.c): this test's own functions,
 * placed by /proc/self/maps as a sample's PCs are, resolve back to their
 * names (a C++ one demangled); a stripped copy has none of them; libc's
 * .dynsym names what it exports; a build id that is not the file's is
 * -ESTALE; what is not a regular ELF file is refused without blocking. The return address of a
 * leaf without a frame is found from its call frame information (libc's
 * read()); a function with a frame pointer (ours) has none to find.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "usyms.h"

__attribute__((noinline)) static int fixture_static_function(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int fixture_global_function(int x);
__attribute__((noinline)) int fixture_global_function(int x)
{
	return fixture_static_function(x) + 2;
}

/* A function under a C++ symbol name: looked up demangled. */
__attribute__((noinline)) int fixture_mangled_function(int x)
	__asm__("_ZN7fixture7mangledEi");
__attribute__((noinline)) int fixture_mangled_function(int x)
{
	return fixture_global_function(x) * 5;
}

struct placed {
	char path[4096];
	uint64_t file_offset;
};

/* Where pc is in this process, as the mapping tracker would say. */
static void place(const void *pc, struct placed *p)
{
	char line[4200];
	unsigned long long start, end, pgoff;
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		int n = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end,
			   &pgoff, &n) < 3 || !n)
			continue;
		if ((uintptr_t)pc < start || (uintptr_t)pc >= end)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(p->path, sizeof(p->path), "%s", line + n);
		p->file_offset = (uintptr_t)pc - start + pgoff;
		found = true;
	}
	fclose(f);
	assert_true(found);
}

/* The id of the file at path, added. */
static uint32_t fid(struct usyms *u, const char *path)
{
	uint32_t id = 0;

	assert_int_equal(usyms_add_path(u, path, &id), 0);
	return id;
}

static int lookup_pc(struct usyms *u, const struct placed *p, const char **name)
{
	uint32_t id = fid(u, p->path);
	uint64_t vaddr;
	int r = usyms_file_offset_to_vaddr(u, id, p->file_offset, &vaddr);

	if (r < 0)
		return r;
	return usyms_lookup(u, id, NULL, 0, vaddr, name);
}

static void names_own_functions(void **state)
{
	struct usyms *u = NULL;
	struct placed p;
	const char *name = NULL;

	(void)state;
	assert_int_equal(usyms_new(&u), 0);
	place((const char *)fixture_static_function + 4, &p);
	assert_int_equal(lookup_pc(u, &p, &name), 0);
	assert_string_equal(name, "fixture_static_function");
	place((const char *)fixture_global_function, &p);
	assert_int_equal(lookup_pc(u, &p, &name), 0);
	assert_string_equal(name, "fixture_global_function");
	/* Again, from the cache. */
	assert_int_equal(lookup_pc(u, &p, &name), 0);
	assert_string_equal(name, "fixture_global_function");
	place((const char *)fixture_mangled_function, &p);
	assert_int_equal(lookup_pc(u, &p, &name), 0);
	assert_string_equal(name, "fixture::mangled(int)");
	usyms_free(u);
}

/* The address nm gives name in path. */
static uint64_t nm_address(const char *path, const char *name)
{
	char cmd[4200], line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm '%s'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	pclose(f);
	assert_int_not_equal(found, 0);
	return found;
}

/* A non-PIE program's text is at 0x400000 + its file offset. */
static void names_functions_found_by_nm(void **state)
{
	const char *path = getenv("USYMS_FIXTURE"), *name = NULL;
	struct usyms *u = NULL;
	uint64_t alpha, beta, vaddr = 0;

	(void)state;
	assert_non_null(path);
	alpha = nm_address(path, "fixture_alpha");
	beta = nm_address(path, "fixture_beta");
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, path), alpha - 0x400000 + 2,
						    &vaddr), 0);
	assert_int_equal(vaddr, alpha + 2);
	assert_int_equal(usyms_lookup(u, fid(u, path), NULL, 0, vaddr, &name), 0);
	assert_string_equal(name, "fixture_alpha");
	assert_int_equal(usyms_lookup(u, fid(u, path), NULL, 0, beta, &name), 0);
	assert_string_equal(name, "fixture_beta");
	/* Past the end of the file's loaded segments. */
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, path), 1ull << 40, &vaddr),
			 -ENOENT);
	usyms_free(u);
}

static void checks_build_id(void **state)
{
	struct usyms *u = NULL;
	struct placed p;
	const char *name;
	uint8_t id[USYMS_BUILD_ID_MAX];
	uint64_t vaddr;
	int len;

	(void)state;
	assert_int_equal(usyms_new(&u), 0);
	place((const char *)fixture_static_function, &p);
	len = usyms_read_build_id(p.path, id, sizeof(id));
	assert_true(len >= 16);
	assert_int_equal(usyms_read_build_id(p.path, id, 4), -ENOBUFS);
	assert_int_equal(usyms_read_build_id(p.path, id, sizeof(id)), len);
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, p.path), p.file_offset, &vaddr), 0);
	assert_int_equal(usyms_lookup(u, fid(u, p.path), id, (size_t)len, vaddr, &name), 0);
	assert_string_equal(name, "fixture_static_function");
	id[len - 1] ^= 1;
	assert_int_equal(usyms_lookup(u, fid(u, p.path), id, (size_t)len, vaddr, &name), -ESTALE);
	id[len - 1] ^= 1;
	assert_int_equal(usyms_lookup(u, fid(u, p.path), id, (size_t)len - 1, vaddr, &name), -ESTALE);
	usyms_free(u);
}

static void stripped_copy_has_no_names(void **state)
{
	char dir[] = "/tmp/test-usyms-XXXXXX", copy[64], cmd[8400];
	struct usyms *u = NULL;
	struct placed p;
	const char *name;
	uint64_t vaddr;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(copy, sizeof(copy), "%s/stripped", dir);
	place((const char *)fixture_static_function, &p);
	snprintf(cmd, sizeof(cmd), "objcopy --strip-all '%s' '%s'", p.path, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, copy), p.file_offset, &vaddr), 0);
	assert_int_equal(usyms_lookup(u, fid(u, copy), NULL, 0, vaddr, &name), -ENOENT);
	usyms_free(u);
	unlink(copy);
	rmdir(dir);
}

static void dynsym_names_exports(void **state)
{
	struct usyms *u = NULL;
	struct placed p;
	const char *name = NULL;

	(void)state;
	assert_int_equal(usyms_new(&u), 0);
	place((const char *)getpid, &p);
	assert_int_equal(lookup_pc(u, &p, &name), 0);
	assert_non_null(strstr(name, "getpid"));
	usyms_free(u);
}

/* A local function of nm's listing of path with no other symbol at its
 * address, or 0. */
static uint64_t lone_local_function(const char *path, char *name, size_t size)
{
	char cmd[4200], line[600], sym[512], type;
	unsigned long long addr, len, prev = 0;
	uint64_t found = 0;
	FILE *f;

	/* Sorted by address: a lone one differs from both neighbours. */
	snprintf(cmd, sizeof(cmd), "nm -S -n '%s'", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llx %c %511s", &addr, &len, &type, sym) != 4)
			continue;
		if (found && addr != found)
			break;
		if (found) {
			found = 0; /* an alias follows: not lone */
		} else if (type == 't' && len > 16 && addr != prev) {
			found = addr;
			snprintf(name, size, "%s", sym);
		}
		prev = addr;
	}
	pclose(f);
	return found;
}

/* libc6-dbg's /usr/lib/debug/.build-id/ file names libc's local
 * functions, which its .dynsym does not have. */
static void debug_file_by_build_id(void **state)
{
	char debug[128], want[512], *p;
	struct usyms *u = NULL;
	struct placed pl;
	const char *name = NULL;
	uint8_t id[USYMS_BUILD_ID_MAX];
	uint64_t vaddr;
	int len, i;

	(void)state;
	place((const char *)getpid, &pl);
	len = usyms_read_build_id(pl.path, id, sizeof(id));
	assert_true(len > 2);
	p = debug + sprintf(debug, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (i = 1; i < len; i++)
		p += sprintf(p, "%02x", id[i]);
	strcpy(p, ".debug");
	if (access(debug, R_OK))
		skip();
	vaddr = lone_local_function(debug, want, sizeof(want));
	assert_int_not_equal(vaddr, 0);
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_lookup(u, fid(u, pl.path), id, (size_t)len, vaddr + 1, &name), 0);
	assert_string_equal(name, want);
	usyms_free(u);
}

static void refuses_what_is_not_regular_elf(void **state)
{
	char dir[] = "/tmp/test-usyms-XXXXXX", fifo[64], text[64];
	struct usyms *u = NULL;
	uint8_t id[USYMS_BUILD_ID_MAX];
	const char *name;
	uint64_t vaddr;
	uint32_t file;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(text, sizeof(text), "%s/text", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	fd = open(text, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\177ELF not really", 15), 15);
	close(fd);
	assert_int_equal(usyms_new(&u), 0);
	/* A FIFO with no writer: refused, not waited on. */
	assert_int_equal(usyms_add_path(u, fifo, &file), -EINVAL);
	assert_int_equal(usyms_read_build_id(fifo, id, sizeof(id)), -EINVAL);
	assert_int_equal(usyms_add_path(u, "/dev/null", &file), -EINVAL);
	assert_int_equal(usyms_add_fd(u, open("/dev/null", O_RDONLY), "null", &file),
			 -EINVAL);
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, text), 0, &vaddr), -ENOEXEC);
	assert_int_equal(usyms_lookup(u, fid(u, text), NULL, 0, 0x1000, &name), -ENOEXEC);
	assert_int_equal(usyms_add_path(u, "/nonexistent/lib.so", &file), -ENOENT);
	usyms_free(u);
	unlink(fifo);
	unlink(text);
	rmdir(dir);
}

/* gen_big_elf.py OUT N MODE into a new directory's file: its path. */
static void gen_elf(char *dir, char *out, size_t size, unsigned int n,
		    const char *mode)
{
	char cmd[512];
	const char *gen = getenv("GEN_BIG_ELF");

	assert_non_null(gen);
	assert_non_null(mkdtemp(dir));
	snprintf(out, size, "%s/elf", dir);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' %u %s", gen, out, n, mode);
	assert_int_equal(system(cmd), 0);
}

static void remove_elf(char *dir, const char *out)
{
	unlink(out);
	rmdir(dir);
}

/*
 * A .strtab without its final NUL, last in the file: libdwfl hands out
 * the last name as a pointer that runs to the end of its buffer. The
 * name comes out bounded by the table (ASan: no read past it).
 */
static void name_bounded_by_its_string_table(void **state)
{
	char dir[] = "/tmp/test-usyms-XXXXXX", elf[64];
	struct usyms *u = NULL;
	const char *name = NULL;
	uint32_t id;

	(void)state;
	gen_elf(dir, elf, sizeof(elf), 3, "unterminated");
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, elf, &id), 0);
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401001, &name), 0);
	assert_string_equal(name, "big_fn_0000001");
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401002, &name), 0);
	assert_string_equal(name, "big_fn_0000002");
	usyms_free(u);
	remove_elf(dir, elf);
}

/* A .symtab claiming 640 MB (sparse): refused before libelf reads it. */
static void huge_section_refused(void **state)
{
	char dir[] = "/tmp/test-usyms-XXXXXX", elf[64];
	struct usyms *u = NULL;
	struct usyms_stats st;
	const char *name = NULL;
	uint32_t id, again;

	(void)state;
	gen_elf(dir, elf, sizeof(elf), 16, "671088640");
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, elf, &id), 0);
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401001, &name), -EFBIG);
	/* A link to it, or the same path again: one file. */
	assert_int_equal(usyms_add_path(u, elf, &again), 0);
	assert_int_equal(again, id);
	usyms_stats(u, &st);
	assert_int_equal(st.files, 1);
	assert_int_equal(st.too_large, 1);
	usyms_free(u);
	remove_elf(dir, elf);
}

/* The budget's bytes and deadline refuse a file, for now only. */
static void budget_refuses_for_now(void **state)
{
	char dir[] = "/tmp/test-usyms-XXXXXX", elf[64];
	struct usyms_budget tight = { .bytes = 4096 }, past = { .deadline_ns = 1 };
	struct usyms *u = NULL;
	struct usyms_stats st;
	const char *name = NULL;
	uint32_t id;

	(void)state;
	gen_elf(dir, elf, sizeof(elf), 100000, "0");
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, elf, &id), 0);
	usyms_set_budget(u, &tight);
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401001, &name), -EDQUOT);
	usyms_set_budget(u, &past);
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401001, &name), -ETIME);
	usyms_stats(u, &st);
	assert_int_equal(st.over_budget, 2);
	usyms_set_budget(u, &(struct usyms_budget){ .bytes = 0 });
	assert_int_equal(usyms_lookup(u, id, NULL, 0, 0x401001, &name), 0);
	assert_string_equal(name, "big_fn_0000001");
	usyms_free(u);
	remove_elf(dir, elf);
}

static int leaf_slot_at(struct usyms *u, const void *pc, uint64_t *offset)
{
	struct placed p;
	uint64_t vaddr;

	place(pc, &p);
	assert_int_equal(usyms_file_offset_to_vaddr(u, fid(u, p.path), p.file_offset,
						    &vaddr), 0);
	return usyms_leaf_return_slot(u, fid(u, p.path), NULL, 0, vaddr, offset);
}

/*
 * glibc's read() keeps no frame: "sub $0x28,%rsp" then the syscall where
 * a reader blocks. After that syscall its return address is at sp+0x28;
 * at its first instruction, at sp.
 */
static void leaf_slot_of_libc_read(void **state)
{
	static const uint8_t sub28[] = { 0x48, 0x83, 0xec, 0x28 };
	/* libc's own, not a sanitizer's interceptor */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	const uint8_t *fn = libc ? dlsym(libc, "read") : NULL, *at;
	struct usyms *u = NULL;
	uint64_t offset = 1;

	(void)state;
	assert_non_null(fn);
	at = memmem(fn, 128, sub28, sizeof(sub28));
	if (!at)
		skip(); /* another libc's read() */
	at = memmem(at, 64, "\x0f\x05", 2); /* syscall */
	assert_non_null(at);
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(leaf_slot_at(u, at + 2, &offset), 0);
	assert_int_equal(offset, 0x28);
	assert_int_equal(leaf_slot_at(u, fn, &offset), 0);
	assert_int_equal(offset, 0);
	usyms_free(u);
	dlclose(libc);
}

/* Built with frame pointers: called from it, the frame exists. */
__attribute__((noinline)) static const void *return_address(void)
{
	return __builtin_return_address(0);
}

__attribute__((noinline)) static const void *with_frame_pointer(void)
{
	const void *pc = return_address();

	__asm__ volatile("" ::: "memory");
	return pc;
}

static void leaf_slot_of_frame_pointer_function(void **state)
{
	struct usyms *u = NULL;
	uint64_t offset = 1;

	(void)state;
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(leaf_slot_at(u, with_frame_pointer(), &offset),
			 -ENOENT);
	assert_int_equal(offset, 1);
	assert_int_equal(usyms_leaf_return_slot(u, 999, NULL, 0, 0x1000,
						&offset),
			 -ENOENT);
	usyms_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_own_functions),
		cmocka_unit_test(names_functions_found_by_nm),
		cmocka_unit_test(checks_build_id),
		cmocka_unit_test(stripped_copy_has_no_names),
		cmocka_unit_test(dynsym_names_exports),
		cmocka_unit_test(debug_file_by_build_id),
		cmocka_unit_test(refuses_what_is_not_regular_elf),
		cmocka_unit_test(leaf_slot_of_libc_read),
		cmocka_unit_test(name_bounded_by_its_string_table),
		cmocka_unit_test(huge_section_refused),
		cmocka_unit_test(budget_refuses_for_now),
		cmocka_unit_test(leaf_slot_of_frame_pointer_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
