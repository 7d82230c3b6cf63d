// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_interp.h on Debian's interpreter (/usr/bin/python3's target): a
 * CPython with its layout from the debug file its build id names, the
 * runtime and the evaluation function where nm -D -S puts them; a
 * program that is not one refused as none; the debug file not taken
 * when it is missing, a symlink, writable by others than root, or
 * another user's (a debug root of the test's own); an interpreter's own
 * DWARF taken only when only root may have written it (pyenv's 3.12
 * libpython, where installed, then a copy of it others may write);
 * 3.13's published offsets (_Py_DebugOffsets) giving the layout its
 * DWARF gives, and a stripped copy another user owns read by them.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <elfutils/libdwelf.h>

#include "py_debug_offsets.h"
#include "py_interp.h"

static char python[PATH_MAX];

/* A dynamic symbol's value and size as nm -D -S gives them. */
static void nm_symbol(const char *name, uint64_t *value, uint64_t *size)
{
	char cmd[PATH_MAX + 64], line[512], sym[256], type[8];
	unsigned long long v, s;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -D -S '%s'", python);
	p = popen(cmd, "r");
	assert_non_null(p);
	*value = *size = 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %llx %7s %255s", &v, &s, type, sym) ==
			    4 &&
		    !strcmp(sym, name)) {
			*value = v;
			*size = s;
		}
	pclose(p);
}

static int open_python(void)
{
	int fd = open(python, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static void interpreter(void **state)
{
	uint64_t runtime, runtime_size, eval, eval_size;
	const char *missing = NULL;
	struct py_interp in;
	int fd = open_python(), err;

	(void)state;
	err = py_interp_read(fd, NULL, &in, &missing);
	close(fd);
	if (err == -ENODATA) {
		print_message("skip: %s: %s\n", python, missing);
		skip();
	}
	assert_int_equal(err, 0);
	nm_symbol("_PyRuntime", &runtime, &runtime_size);
	nm_symbol("_PyEval_EvalFrameDefault", &eval, &eval_size);
	assert_int_not_equal(runtime, 0);
	assert_int_equal(in.layout.runtime, runtime);
	assert_int_equal(in.eval_start, eval);
	assert_int_equal(in.eval_end, eval + eval_size);
	assert_true(in.text_vaddr <= in.eval_start &&
		    in.eval_end <= in.text_vaddr + in.text_filesz);
	/* 3.11 marks each evaluation call's first frame. */
	if (strstr(python, "python3.11"))
		assert_int_not_equal(in.layout.frame_is_entry, 0);
}

static void not_python(void **state)
{
	const char *missing = NULL;
	struct py_interp in;
	int fd = open("/bin/true", O_RDONLY | O_CLOEXEC);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(py_interp_read(fd, NULL, &in, &missing), -ENOENT);
	close(fd);
}

/* root/.build-id/xx/yyyy.debug for python's build id, its folders made. */
static void debug_path(const char *root, char *path, size_t cap)
{
	const unsigned char *id;
	ssize_t len, i;
	size_t at;
	Elf *elf;
	int fd = open_python();

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	len = elf ? dwelf_elf_gnu_build_id(elf, (const void **)&id) : -1;
	assert_true(len > 2);
	snprintf(path, cap, "%s/.build-id", root);
	assert_int_equal(mkdir(path, 0755), 0);
	at = (size_t)snprintf(path, cap, "%s/.build-id/%02x", root, id[0]);
	assert_int_equal(mkdir(path, 0755), 0);
	at += (size_t)snprintf(path + at, cap - at, "/");
	for (i = 1; i < len; i++)
		at += (size_t)snprintf(path + at, cap - at, "%02x", id[i]);
	snprintf(path + at, cap - at, ".debug");
	elf_end(elf);
	close(fd);
}

/* What py_interp_read() says with a debug root holding path as made. */
static int read_with(const char *root)
{
	const char *missing = NULL;
	struct py_interp in;
	int fd = open_python(), err;

	err = py_interp_read(fd, root, &in, &missing);
	close(fd);
	return err;
}

static void debug_file_refused(void **state)
{
	char root[] = "/tmp/py-interp-XXXXXX", path[PATH_MAX];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(root));
	debug_path(root, path, sizeof(path));
	assert_int_equal(read_with(root), -ENODATA);	/* none there */
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(read_with(root), -ENODATA);	/* not followed */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(read_with(root), -ENODATA);	/* no DWARF in it */
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(read_with(root), -EPERM);	/* group-writable */
	assert_int_equal(chmod(path, 0644), 0);
	if (!geteuid()) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(read_with(root), -EPERM);	/* nobody's */
	}
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

/* A libpython with DWARF of its own and no debug file, where installed. */
static const char *const own_dwarf_libs[] = {
	"/root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0",
	"/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0",
};

static int read_interp(const char *path, struct py_interp *in)
{
	const char *missing = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	assert_true(fd >= 0);
	err = py_interp_read(fd, "/nonexistent", in, &missing);
	close(fd);
	if (!err)
		assert_int_not_equal(in->layout.frame_previous, 0);
	return err;
}

static int read_file(const char *path)
{
	struct py_interp in;

	return read_interp(path, &in);
}

static void own_dwarf(void **state)
{
	char copy[] = "/tmp/py-interp-lib-XXXXXX", cmd[2 * PATH_MAX];
	const char *lib = NULL;
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < sizeof(own_dwarf_libs) / sizeof(*own_dwarf_libs); i++)
		if (!lib && !access(own_dwarf_libs[i], R_OK))
			lib = own_dwarf_libs[i];
	if (!lib || geteuid()) {
		print_message("skip: no libpython with DWARF of its own, or "
			      "not root\n");
		skip();
	}
	assert_int_equal(read_file(lib), 0);
	fd = mkstemp(copy);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", lib, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(chmod(copy, 0644), 0);
	assert_int_equal(read_file(copy), 0);	/* root's, root-only */
	assert_int_equal(chmod(copy, 0664), 0);
	assert_int_equal(read_file(copy), -ENODATA);	/* group-writable */
	assert_int_equal(chmod(copy, 0644), 0);
	assert_int_equal(chown(copy, 65534, 65534), 0);
	assert_int_equal(read_file(copy), -ENODATA);	/* nobody's */
	unlink(copy);
}

/* 3.13's libpython, where installed: DWARF and published offsets. */
#define LIBPYTHON_313 "/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0"

static void debug_offsets(void **state)
{
	char copy[] = "/tmp/py-interp-313-XXXXXX", cmd[2 * PATH_MAX];
	struct py_interp dwarf, offsets;
	struct py_layout l;
	unsigned int i;
	Elf *elf;
	int fd;

	(void)state;
	if (access(LIBPYTHON_313, R_OK) || geteuid()) {
		print_message("skip: no %s, or not root\n", LIBPYTHON_313);
		skip();
	}
	assert_int_equal(read_interp(LIBPYTHON_313, &dwarf), 0);
	fd = open(LIBPYTHON_313, O_RDONLY | O_CLOEXEC);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_int_equal(py_debug_offsets_read(elf, dwarf.layout.runtime, &l),
			 0);
	/* Every field the offsets give, as the DWARF gives it. */
	for (i = 0; i < PY_LAYOUT_FIELDS; i++)
		if (py_layout_field(&l, i))
			assert_int_equal(py_layout_field(&l, i),
					 py_layout_field(&dwarf.layout, i));
	assert_int_equal(py_debug_offsets_read(elf, dwarf.layout.runtime + 8,
					       &l),
			 -ENOENT);
	elf_end(elf);
	close(fd);
	/* Stripped, another user's: its own offsets, the same layout. */
	fd = mkstemp(copy);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "strip --strip-debug -o '%s' '%s'", copy,
		 LIBPYTHON_313);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(chown(copy, 65534, 65534), 0);
	assert_int_equal(read_interp(copy, &offsets), 0);
	assert_memory_equal(&offsets.layout, &l, sizeof(l));
	unlink(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interpreter),
		cmocka_unit_test(not_python),
		cmocka_unit_test(debug_file_refused),
		cmocka_unit_test(own_dwarf),
		cmocka_unit_test(debug_offsets),
	};

	if (!realpath("/usr/bin/python3", python)) {
		printf("skip: no /usr/bin/python3\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
