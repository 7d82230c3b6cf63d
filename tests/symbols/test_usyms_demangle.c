// SPDX-License-Identifier: GPL-2.0-only
/*
 * Demangling (daemon/symbols/usyms_demangle.c), word-exact, on names
 * g++ 12 and rustc built (legacy and v0 mangling): namespaces, templates,
 * a clone suffix, Rust's legacy hash dropped. A name that is not mangled
 * or does not parse is refused; hostile names (over the input cap, an
 * output exponential in their length) are refused at once, never cut
 * into a misleading name; deep nesting is demangled whole.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "usyms_demangle.h"

#define OUT_MAX 1025

static void check(const char *mangled, const char *want)
{
	char buf[OUT_MAX];
	int n = usyms_demangle(mangled, strlen(mangled) + 1, buf, sizeof(buf));

	assert_int_equal(n, (int)strlen(want));
	assert_string_equal(buf, want);
}

static void cxx_names(void **state)
{
	(void)state;
	check("_ZN2ns3hotEPKhm",
	      "ns::hot(unsigned char const*, unsigned long)");
	check("_ZNK5outer5inner3boxIlE3hotERKSt6vectorIlSaIlEE.isra.0",
	      "outer::inner::box<long>::hot(std::vector<long, "
	      "std::allocator<long> > const&) const [clone .isra.0]");
	check("_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcE"
	      "EESt4pairIKS5_iESt10_Select1stIS8_ESt4lessIS5_ESaIS8_EE8_M_eraseE"
	      "PSt13_Rb_tree_nodeIS8_E",
	      "std::_Rb_tree<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> >, "
	      "std::pair<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> > const, int>, "
	      "std::_Select1st<std::pair<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> > const, int> >, "
	      "std::less<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> > >, "
	      "std::allocator<std::pair<std::__cxx11::basic_string<char, "
	      "std::char_traits<char>, std::allocator<char> > const, int> > "
	      ">::_M_erase(std::_Rb_tree_node<std::pair<std::__cxx11::basic_"
	      "string<char, std::char_traits<char>, std::allocator<char> > "
	      "const, int> >*)");
}

static void rust_names(void **state)
{
	(void)state;
	/* Legacy: the hash (17h + 16 hex digits) is dropped. */
	check("_ZN6slowrs6slowrs8checksum17he55fd999204aafd1E",
	      "slowrs::slowrs::checksum");
	check("_ZN4core3fmt5write17h3a4c5bf8ab0bbf6eE", "core::fmt::write");
	/* v0: the crate's disambiguator is not shown. */
	check("_RNvNtCskyBSs5i3g0Z_6slowrs6slowrs8checksum",
	      "slowrs::slowrs::checksum");
	check("_RINvMNtCsgEmfK2I1SDS_4core3stre18trim_start_matchesReECsgY6Mt91"
	      "CT9J_14rustc_demangle",
	      "<str>::trim_start_matches::<&str>");
}

static void refuses_what_is_not_mangled(void **state)
{
	char buf[OUT_MAX] = "x";

	(void)state;
	assert_int_equal(usyms_demangle("main", 5, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(buf, "");
	assert_int_equal(usyms_demangle("_Zjunk", 7, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(usyms_demangle("_R", 3, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(usyms_demangle("", 1, buf, sizeof(buf)), -EINVAL);
	/* Bounded by len, not by a NUL: "_ZN2ns3hotEv" cut short. */
	assert_int_equal(usyms_demangle("_ZN2ns3hotEv", 8, buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(usyms_demangle("_ZN2ns3hotEvXX", 12, buf, sizeof(buf)),
			 (int)strlen("ns::hot()"));
	assert_string_equal(buf, "ns::hot()");
}

/* The output fits in cap bytes with its NUL, or nothing is given. */
static void output_capped(void **state)
{
	const char *m = "_ZN2ns3hotEPKhm";
	size_t len = strlen("ns::hot(unsigned char const*, unsigned long)");
	char buf[OUT_MAX];

	(void)state;
	assert_int_equal(usyms_demangle(m, 16, buf, len + 1), (int)len);
	assert_int_equal(usyms_demangle(m, 16, buf, len), -E2BIG);
	assert_string_equal(buf, "");
	assert_int_equal(usyms_demangle(m, 16, buf, 0), -E2BIG);
}

/* 'f(A, void (*)(A, A), ...)': each level a function pointer taking the
 * previous level twice, by back-reference; the output doubles per level.
 */
static size_t doubling_name(char *buf, size_t cap, int levels)
{
	static const char b36[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t n = (size_t)snprintf(buf, cap, "_Z1f1A");
	int k;

	for (k = 0; k < levels && n < cap; k++) {
		int prev = 2 * k - 1; /* the previous level's pointer */
		char sub[8];

		if (prev < 0)
			snprintf(sub, sizeof(sub), "S_");
		else if (prev < 36)
			snprintf(sub, sizeof(sub), "S%c_", b36[prev]);
		else
			snprintf(sub, sizeof(sub), "S%c%c_", b36[prev / 36],
				 b36[prev % 36]);
		n += (size_t)snprintf(buf + n, cap - n, "PFv%s%sE", sub, sub);
	}
	return n;
}

static void hostile_names(void **state)
{
	char in[USYMS_DEMANGLE_IN_MAX + 64], buf[OUT_MAX];
	size_t n;

	(void)state;
	/* Small: demangled in full. */
	n = doubling_name(in, sizeof(in), 2);
	assert_int_equal(usyms_demangle(in, n + 1, buf, sizeof(buf)),
			 (int)strlen(
				 "f(A, void (*)(A, A), void (*)(void (*)(A, "
				 "A), void (*)(A, A)))"));
	/* 2^80 bytes of output: cut at once, not printed. */
	n = doubling_name(in, sizeof(in), 80);
	assert_true(n <= USYMS_DEMANGLE_IN_MAX);
	assert_int_equal(usyms_demangle(in, n + 1, buf, sizeof(buf)), -E2BIG);
	assert_string_equal(buf, "");
	/* Over the input cap: not read past it. */
	memset(in, 'P', sizeof(in));
	memcpy(in, "_Z1f", 4);
	assert_int_equal(usyms_demangle(in, sizeof(in), buf, sizeof(buf)),
			 -E2BIG);
	/* Pointers nested 1000 deep: within libiberty's recursion limit
	 * (2048: no input under the cap reaches it), printed whole.
	 */
	memcpy(in + 1004, "1A", 3);
	assert_int_equal(usyms_demangle(in, 1007, buf, sizeof(buf)), 1004);
	assert_memory_equal(buf, "f(A*", 4);
	assert_int_equal(strspn(buf + 3, "*"), 1000);
	assert_string_equal(buf + 1003, ")");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cxx_names),
		cmocka_unit_test(rust_names),
		cmocka_unit_test(refuses_what_is_not_mangled),
		cmocka_unit_test(output_capped),
		cmocka_unit_test(hostile_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
