// SPDX-License-Identifier: GPL-2.0-only
/*
 * demangle-workload SECONDS [--junk-rbp]: a C++ program built with plain
 * -O2 (no frame-pointer flags) burning in ns::hot(), a function in a
 * namespace whose symbol is mangled (_ZN2ns3hotEPKhm), for
 * stacks_demangle.sh. --junk-rbp: burns in ns::spin() instead, a leaf
 * without a frame that uses rbp for data as release builds do, pointing
 * it at two words the second of which is in the kernel's half (an FNV
 * constant): what a frame-pointer walk takes for a return address there.
 */
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ns
{
__attribute__((noinline)) unsigned long hot(const unsigned char *p,
					    unsigned long n)
{
	unsigned long h = 14695981039346656037ul;

	for (unsigned long i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ul;
	return h;
}

static uint64_t junk_frame[2] = { 0, 0xcbf29ce484222325ull };

/* Its own frame pointer never set up: rbp is the junk (sanitizer builds
 * keep frame pointers everywhere else). */
__attribute__((noinline, optimize("omit-frame-pointer"))) unsigned long
spin(unsigned long n)
{
	unsigned long left = n;

	__asm__ volatile("mov %1, %%rbp\n\t"
			 "1: dec %0\n\t"
			 "jnz 1b"
			 : "+r"(left)
			 : "r"(junk_frame)
			 : "rbp", "cc");
	return left + n;
}
} // namespace ns

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
	auto until = std::chrono::steady_clock::now() +
		     std::chrono::duration<double>(seconds);
	bool junk = argc > 2 && !std::strcmp(argv[2], "--junk-rbp");
	unsigned long sum = 0;

	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7);
	while (std::chrono::steady_clock::now() < until)
		sum += junk ? ns::spin(1 << 16) : ns::hot(buf, sizeof(buf));
	std::printf("%lu\n", sum);
	return 0;
}
