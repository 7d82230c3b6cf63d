// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline frames (daemon/symbols/usyms_inline.c) of a fixture built with
 * -O2 -g (usyms_inline_fixture.c): an address in each inlined body gives
 * its chain word for word, innermost first, while the symbol table names
 * the function they are in; code of that function's own gives none.
 * Without DWARF (stripped of it) there are none, unless its debug file
 * is found by build id; DWARF whose compressed section claims to expand
 * past USYMS_SECTION_MAX is not read, in the file or its debug file, and
 * malformed DWARF gives no chain, never a crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "usyms.h"
#include "usyms_inline.h"

/* The address nm gives name in path, or 0. */
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
	return found;
}

static const char *fixture(void)
{
	const char *path = getenv("USYMS_INLINE_FIXTURE");

	assert_non_null(path);
	return path;
}

/* Files whose DWARF the last chain_at() found over the bounds; what the
 * inline lookup added to the budget's bytes. */
static uint64_t dwarf_too_large, index_bytes;

/* The chain at vaddr in path, joined by " <- ". */
static int chain_at(const char *path, uint64_t vaddr, char *out, size_t cap)
{
	struct usyms_stats st;
	const char *names[USYMS_INLINE_MAX];
	struct usyms *u = NULL;
	uint32_t id;
	size_t at = 0;
	int n, i;

	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, path, &id), 0);
	/* Opened, its sections counted, before the lookup. */
	usyms_lookup(u, id, NULL, 0, vaddr, &names[0]);
	usyms_stats(u, &st);
	index_bytes = st.bytes_open;
	n = usyms_inline_chain(u, id, NULL, 0, vaddr, names, USYMS_INLINE_MAX);
	out[0] = '\0';
	for (i = 0; i < n && at < cap; i++)
		at += (size_t)snprintf(out + at, cap - at, "%s%s",
				       i ? " <- " : "", names[i]);
	usyms_stats(u, &st);
	dwarf_too_large = st.dwarf_too_large;
	index_bytes = st.bytes_open - index_bytes;
	usyms_free(u);
	return n;
}

static void really_inlined(void **state)
{
	(void)state;
	assert_int_equal(nm_address(fixture(), "fixture_inner"), 0);
	assert_int_equal(nm_address(fixture(), "fixture_middle"), 0);
	assert_int_not_equal(nm_address(fixture(), "fixture_outer"), 0);
}

static void chains_word_for_word(void **state)
{
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");
	uint64_t middle = nm_address(fixture(), "fixture_in_middle");
	struct usyms *u = NULL;
	const char *name = NULL;
	char chain[512];
	uint32_t id;

	(void)state;
	assert_int_not_equal(inner, 0);
	assert_int_not_equal(middle, 0);
	assert_int_equal(chain_at(fixture(), inner, chain, sizeof(chain)), 2);
	assert_string_equal(chain, "fixture_inner <- fixture_middle");
	/* The unit's index is counted in the budget. */
	assert_true(index_bytes > 0);
	assert_int_equal(chain_at(fixture(), middle, chain, sizeof(chain)), 1);
	assert_string_equal(chain, "fixture_middle");
	/* The outermost is the function the symbol table names. */
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, fixture(), &id), 0);
	assert_int_equal(usyms_lookup(u, id, NULL, 0, inner, &name), 0);
	assert_string_equal(name, "fixture_outer");
	usyms_free(u);
	/* main's own code (its call of fixture_outer) is inlined nowhere. */
	assert_int_equal(chain_at(fixture(), nm_address(fixture(), "main"),
				  chain, sizeof(chain)),
			 0);
}

/* A copy of the fixture in a new directory, by "tool IN OUT". */
static void copy_with(const char *tool, char *dir, char *out, size_t cap)
{
	char cmd[8400];

	assert_non_null(mkdtemp(dir));
	snprintf(out, cap, "%s/copy", dir);
	snprintf(cmd, sizeof(cmd), "%s '%s' '%s'", tool, fixture(), out);
	assert_int_equal(system(cmd), 0);
}

static void remove_copy(char *dir, const char *out)
{
	unlink(out);
	rmdir(dir);
}

static void none_without_dwarf(void **state)
{
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", out[64], chain[512];

	(void)state;
	copy_with("objcopy --strip-debug", dir, out, sizeof(out));
	assert_int_equal(chain_at(out, nm_address(out, "fixture_in_inner"),
				  chain, sizeof(chain)),
			 0);
	remove_copy(dir, out);
}

/*
 * The copy at out with patch (python, the section's file offset in off
 * and its size in size) run on its .debug_info's bytes b.
 */
static void patch_debug_info(const char *out, const char *patch)
{
	char cmd[8400];

	snprintf(
		cmd, sizeof(cmd),
		"python3 - '%s' <<'EOF'\n"
		"import struct, sys\n"
		"b = bytearray(open(sys.argv[1], 'rb').read())\n"
		"shoff, = struct.unpack_from('<Q', b, 0x28)\n"
		"shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)\n"
		"def sh(i): return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)\n"
		"stroff = sh(shstrndx)[4]\n"
		"for i in range(shnum):\n"
		"    s = sh(i)\n"
		"    name = bytes(b[stroff + s[0]:b.index(0, stroff + s[0])])\n"
		"    if name == b'.debug_info':\n"
		"        off, size = s[4], s[5]\n"
		"        %s\n"
		"open(sys.argv[1], 'wb').write(b)\n"
		"EOF",
		out, patch);
	assert_int_equal(system(cmd), 0);
}

static void compressed_past_the_bound_not_read(void **state)
{
	const char *compress = "objcopy --compress-debug-sections=zlib";
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", out[64], chain[512];
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");

	(void)state;
	/* Compressed and whole, it is read. */
	copy_with(compress, dir, out, sizeof(out));
	assert_int_equal(chain_at(out, inner, chain, sizeof(chain)), 2);
	assert_string_equal(chain, "fixture_inner <- fixture_middle");
	assert_int_equal(dwarf_too_large, 0);
	/* Its Elf64_Chdr's ch_size claiming 1 TiB: never inflated. */
	patch_debug_info(out, "struct.pack_into('<Q', b, off + 8, 1 << 40)");
	assert_int_equal(chain_at(out, inner, chain, sizeof(chain)), 0);
	assert_int_equal(dwarf_too_large, 1);
	remove_copy(dir, out);
}

static void malformed_dwarf_no_chain(void **state)
{
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", out[64], chain[512];
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");

	(void)state;
	/* Every byte of the DIEs past the first unit's header: 0xff. */
	copy_with("cp", dir, out, sizeof(out));
	patch_debug_info(out,
			 "b[off + 12:off + size] = b'\\xff' * (size - 12)");
	assert_true(chain_at(out, inner, chain, sizeof(chain)) <= 0);
	remove_copy(dir, out);
}

/* The debug file chain_from_debug_file() writes, removed at its end. */
static char debug[256];

static int remove_debug(void **state)
{
	(void)state;
	if (debug[0])
		unlink(debug);
	return 0;
}

/* The path of the debug file of path's build id, under /usr/lib/debug. */
static void debug_path(const char *path, char *out, size_t cap)
{
	uint8_t id[USYMS_BUILD_ID_MAX];
	int len = usyms_read_build_id(path, id, sizeof(id)), i;
	size_t at;

	assert_true(len > 2);
	at = (size_t)snprintf(out, cap, "/usr/lib/debug/.build-id/%02x/",
			      id[0]);
	for (i = 1; i < len; i++)
		at += (size_t)snprintf(out + at, cap - at, "%02x", id[i]);
	snprintf(out + at, cap - at, ".debug");
}

/*
 * Bits flipped at random (seeds 0..7) across .debug_info: whatever the
 * chains say, at most USYMS_INLINE_MAX of them, and no crash (the
 * sanitizer build runs this too).
 */
static void flipped_dwarf_no_crash(void **state)
{
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", out[64], chain[8192];
	char patch[256], cmd[8400];
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");
	uint64_t middle = nm_address(fixture(), "fixture_in_middle");
	unsigned int seed;

	(void)state;
	copy_with("cp", dir, out, sizeof(out));
	for (seed = 0; seed < 8; seed++) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fixture(), out);
		assert_int_equal(system(cmd), 0);
		snprintf(
			patch, sizeof(patch),
			"r = __import__('random'); r.seed(%u); "
			"[b.__setitem__(j, b[j] ^ 1 << r.randrange(8)) for j in "
			"[off + r.randrange(size) for _ in range(64)]]",
			seed);
		patch_debug_info(out, patch);
		assert_true(chain_at(out, inner, chain, sizeof(chain)) <=
			    USYMS_INLINE_MAX);
		assert_true(chain_at(out, middle, chain, sizeof(chain)) <=
			    USYMS_INLINE_MAX);
	}
	remove_copy(dir, out);
}

/*
 * Two copies under a budget that holds one: each lookup of one closes
 * the other, whose DWARF the next opening reads again. A file's DWARF is
 * read by USYMS_DWARF_READS_MAX openings at most; the other file's
 * chains are found all along until its own reads are spent.
 */
static void dwarf_reread_bounded(void **state)
{
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", a[64], b[80], cmd[8400];
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");
	const char *names[USYMS_INLINE_MAX];
	struct usyms_budget budget = { 0 };
	struct usyms *u = NULL;
	struct usyms_stats st;
	uint32_t ida, idb;
	int i;

	(void)state;
	copy_with("cp", dir, a, sizeof(a));
	snprintf(b, sizeof(b), "%s/other", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fixture(), b);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, a, &ida), 0);
	assert_int_equal(usyms_add_path(u, b, &idb), 0);
	assert_int_equal(usyms_inline_chain(u, ida, NULL, 0, inner, names,
					    USYMS_INLINE_MAX),
			 2);
	usyms_stats(u, &st);
	budget.bytes = st.bytes_open + st.bytes_open / 2;
	usyms_set_budget(u, &budget);
	for (i = 1; i < 2 * USYMS_DWARF_READS_MAX; i++) {
		int want = i < USYMS_DWARF_READS_MAX ? 2 : 0;

		assert_int_equal(usyms_inline_chain(u, idb, NULL, 0, inner,
						    names, USYMS_INLINE_MAX),
				 i <= USYMS_DWARF_READS_MAX ? 2 : 0);
		assert_int_equal(usyms_inline_chain(u, ida, NULL, 0, inner,
						    names, USYMS_INLINE_MAX),
				 want);
	}
	usyms_free(u);
	unlink(b);
	remove_copy(dir, a);
}

/* Whether vaddr of path is named name by its symbols. */
static int lookup_is(const char *path, uint64_t vaddr, const char *want)
{
	struct usyms *u = NULL;
	const char *name = NULL;
	uint32_t id;
	int r;

	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, path, &id), 0);
	r = usyms_lookup(u, id, NULL, 0, vaddr, &name);
	r = r == 0 && !strcmp(name, want);
	usyms_free(u);
	return r;
}

/*
 * Stripped of everything, the fixture's symbols and chains come from its
 * debug file found by build id; a debug file whose DWARF claims to
 * expand past the bound is not used at all (its symbols neither: libdwfl
 * would read its DWARF whole for any inline or .debug_frame lookup).
 * Root: it writes under /usr/lib/debug (removed at the end).
 */
static void chain_from_debug_file(void **state)
{
	char dir[] = "/tmp/test-usyms-inline-XXXXXX", out[64], chain[512];
	char cmd[8400];
	uint64_t inner = nm_address(fixture(), "fixture_in_inner");

	(void)state;
	if (geteuid())
		skip();
	copy_with("objcopy --strip-all", dir, out, sizeof(out));
	debug_path(out, debug, sizeof(debug));
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p \"$(dirname '%s')\" && "
		 "objcopy --only-keep-debug '%s' '%s'",
		 debug, fixture(), debug);
	assert_int_equal(system(cmd), 0);
	assert_true(lookup_is(out, inner, "fixture_outer"));
	assert_int_equal(chain_at(out, inner, chain, sizeof(chain)), 2);
	assert_string_equal(chain, "fixture_inner <- fixture_middle");
	snprintf(cmd, sizeof(cmd),
		 "objcopy --only-keep-debug --compress-debug-sections=zlib "
		 "'%s' '%s'",
		 fixture(), debug);
	assert_int_equal(system(cmd), 0);
	assert_true(lookup_is(out, inner, "fixture_outer"));
	patch_debug_info(debug, "struct.pack_into('<Q', b, off + 8, 1 << 40)");
	assert_false(lookup_is(out, inner, "fixture_outer"));
	assert_int_equal(chain_at(out, inner, chain, sizeof(chain)), 0);
	remove_copy(dir, out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(really_inlined),
		cmocka_unit_test(chains_word_for_word),
		cmocka_unit_test(none_without_dwarf),
		cmocka_unit_test(compressed_past_the_bound_not_read),
		cmocka_unit_test(malformed_dwarf_no_chain),
		cmocka_unit_test(flipped_dwarf_no_crash),
		cmocka_unit_test(dwarf_reread_bounded),
		cmocka_unit_test_teardown(chain_from_debug_file, remove_debug),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
