// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fxt-example-cxx: <fxt/provider.h> from C++. A toy request handler whose
 * TRACE_DURATION scopes end on returns and exceptions alike, and whose
 * instants are named after the method at run time (TRACE_DYN).
 *
 *   fxt-example-cxx [N]
 *
 * Handles N requests (default 100); every seventh fails with an exception
 * that the caller catches. Category "example.cxx". Exit status 0, or 2 on
 * a bad command line.
 */
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fxt/provider.h>

namespace {

const char *const methods[] = { "get", "put", "list" };

int handle(unsigned long id, const std::string &method)
{
	TRACE_DURATION("example.cxx", "handle", TRACE_ARG_U64("id", id),
		       TRACE_ARG_STR("method", method.c_str()));
	/* An event per method name: interned by content, not copied each time. */
	TRACE_INSTANT("example.cxx", TRACE_DYN(method.c_str()),
		      TRACE_SCOPE_THREAD, TRACE_ARG_U64("id", id));

	if (id % 7 == 6)
		throw std::runtime_error("request " + std::to_string(id) +
					 " failed");
	if (method == "list")
		return 0;	/* nothing to count: the scope ends here too */
	TRACE_COUNTER("example.cxx", "bytes", 1, TRACE_ARG_U64("n", id * 64));
	return 1;
}

} // namespace

int main(int argc, char **argv)
{
	unsigned long n = 100, failed = 0, i;
	char *end;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		std::fprintf(stderr, "usage: fxt-example-cxx [N]\n"
				     "example: fxt-example-cxx 1000\n");
		return 2;
	}
	if (argc == 2) {
		n = std::strtoul(argv[1], &end, 10);
		if (*end || end == argv[1]) {
			std::fprintf(stderr, "fxt-example-cxx: not a count: %s\n",
				     argv[1]);
			return 2;
		}
	}
	for (i = 0; i < n; i++) {
		try {
			handle(i, methods[i % 3]);
		} catch (const std::exception &e) {
			TRACE_INSTANT("example.cxx", "failed",
				      TRACE_SCOPE_THREAD,
				      TRACE_ARG_STR("what", e.what()));
			failed++;
		}
	}
	std::printf("%lu requests, %lu failed\n", n, failed);
	return 0;
}
