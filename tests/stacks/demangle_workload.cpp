// SPDX-License-Identifier: GPL-2.0-only
/*
 * demangle-workload SECONDS: a C++ program built with plain -O2 (no
 * frame-pointer flags) burning in ns::hot(), a function in a namespace
 * whose symbol is mangled (_ZN2ns3hotEPKhm), for stacks_demangle.sh.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>

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
} // namespace ns

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
	auto until = std::chrono::steady_clock::now() +
		     std::chrono::duration<double>(seconds);
	unsigned long sum = 0;

	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7);
	while (std::chrono::steady_clock::now() < until)
		sum += ns::hot(buf, sizeof(buf));
	std::printf("%lu\n", sum);
	return 0;
}
