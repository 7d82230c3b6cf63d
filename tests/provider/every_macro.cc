// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every <fxt/provider.h> macro from C++, with literal and run-time values,
 * with literal names and then with names chosen at run time (TRACE_DYN).
 * Built with -Wall -Wextra -pedantic -Werror by g++ and clang++, from
 * C++11 on, with and without FXT_NTRACE (tests/provider/meson.build).
 */
#include <stdexcept>
#include <string>

#include <fxt/provider.h>

#include "every_macro.h"

namespace {

int object;

/* A scope left by an early return still writes its event. */
int early_return(int n)
{
	TRACE_DURATION("cat", "cxx-early", TRACE_ARG_I32("n", n));
	if (n > 0)
		return n;
	TRACE_INSTANT("cat", "cxx-not-reached", TRACE_SCOPE_THREAD);
	return 0;
}

/* And one left by an exception. */
void throws(const std::string &peer)
{
	TRACE_DURATION("cat", "cxx-throw", TRACE_ARG_STR("peer", peer.c_str()));
	throw std::runtime_error(peer);
}

/* Every macro again, names chosen at run time: "cxx-dyn-<n>", "field". */
unsigned int every_macro_dyn(const char *peer, int n, uint64_t at)
{
	std::string cat_s = std::string("c") + "at";
	std::string name_s = "cxx-dyn-" + std::to_string(n);
	std::string at_s = "cxx-at-dyn-" + std::to_string(n);
	std::string field_s = "field";
	const char *cat = cat_s.c_str(), *name = name_s.c_str();
	const char *at_name = at_s.c_str(), *field = field_s.c_str();
	uint64_t start = fxt_now();
	unsigned int events = 0;
	const char blob[] = "0123";

	if (TRACE_ENABLED(TRACE_DYN(cat)))
		TRACE_INSTANT(TRACE_DYN(cat), TRACE_DYN(name),
			      TRACE_SCOPE_THREAD);
	TRACE_INSTANT("cat", TRACE_DYN(name), TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_INSTANT(TRACE_DYN(cat), "cxx-dyn-cat", TRACE_SCOPE_PROCESS,
		      TRACE_ARG_STR(TRACE_DYN(field), peer));
	TRACE_COUNTER("cat", TRACE_DYN(name), n,
		      TRACE_ARG_I64(TRACE_DYN(field), n));
	TRACE_DURATION_BEGIN(TRACE_DYN(cat), TRACE_DYN(name),
			     TRACE_ARG_U32("n", n));
	TRACE_DURATION_END(TRACE_DYN(cat), TRACE_DYN(name));
	TRACE_COMPLETE("cat", TRACE_DYN(name), start, fxt_now(),
		       TRACE_ARG_I32(TRACE_DYN(field), n));
	events += 7;
	{
		TRACE_DURATION(TRACE_DYN(cat), TRACE_DYN(name),
			       TRACE_ARG_I32(TRACE_DYN(field), n));
		TRACE_DURATION("cat", TRACE_DYN(name));
	}
	events += 2;
	TRACE_ASYNC_BEGIN("cat", TRACE_DYN(name), n);
	TRACE_ASYNC_INSTANT(TRACE_DYN(cat), TRACE_DYN(name), n,
			    TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_ASYNC_END(TRACE_DYN(cat), TRACE_DYN(name), n);
	TRACE_FLOW_BEGIN("cat", TRACE_DYN(name), n + 1);
	TRACE_FLOW_STEP(TRACE_DYN(cat), TRACE_DYN(name), n + 1,
			TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_FLOW_END(TRACE_DYN(cat), TRACE_DYN(name), n + 1);
	events += 6;
	TRACE_INSTANT_AT("cat", TRACE_DYN(at_name), at, TRACE_SCOPE_THREAD);
	TRACE_INSTANT_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at,
			 TRACE_SCOPE_GLOBAL, TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_COUNTER_AT("cat", TRACE_DYN(at_name), at, n,
			 TRACE_ARG_I32("n", n));
	TRACE_DURATION_BEGIN_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at);
	TRACE_DURATION_END_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at,
			      TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_ASYNC_BEGIN_AT("cat", TRACE_DYN(at_name), at, n);
	TRACE_ASYNC_INSTANT_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at, n,
			       TRACE_ARG_STR("peer", peer));
	TRACE_ASYNC_END_AT("cat", TRACE_DYN(at_name), at, n);
	TRACE_FLOW_BEGIN_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at, n);
	TRACE_FLOW_STEP_AT("cat", TRACE_DYN(at_name), at, n,
			   TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_FLOW_END_AT(TRACE_DYN(cat), TRACE_DYN(at_name), at, n);
	events += 11;
	TRACE_BLOB(TRACE_DYN(cat), TRACE_DYN(name), FXT_BLOB_DATA, blob,
		   sizeof(blob) - 1);
	TRACE_LOG(TRACE_DYN(cat), name, name_s.size());
	TRACE_LOGF(TRACE_DYN(cat), "cxx-dyn %s %d", peer, n);
	TRACE_USERSPACE_OBJECT(TRACE_DYN(cat), &object, TRACE_DYN(name),
			       TRACE_ARG_I32(TRACE_DYN(field), n));
	TRACE_KERNEL_OBJECT(TRACE_DYN(cat), 1000 + n, FXT_ZX_OBJ_THREAD,
			    TRACE_DYN(name), TRACE_ARG_I32(TRACE_DYN(field), n));
	return events;
}

} // namespace

unsigned int every_macro_write(const char *peer, int n, uint64_t at)
{
	std::string text = std::string("peer ") + peer;
	uint64_t start = fxt_now();
	unsigned int events = 0;
	const char blob[] = "0123";

	if (TRACE_ENABLED("cat"))
		TRACE_INSTANT("cat", "cxx-enabled", TRACE_SCOPE_THREAD);
	events++;
	TRACE_INSTANT("cat", "cxx-instant", TRACE_SCOPE_THREAD);
	TRACE_INSTANT("cat", "cxx-instant-args", TRACE_SCOPE_THREAD,
		      TRACE_ARG_NULL("null"), TRACE_ARG_I32("i32", n),
		      TRACE_ARG_U32("u32", n + 1), TRACE_ARG_I64("i64", -n),
		      TRACE_ARG_U64("u64", start),
		      TRACE_ARG_DOUBLE("double", n / 2.0),
		      TRACE_ARG_STR("str", text.c_str()),
		      TRACE_ARG_STR_LITERAL("lit", "literal"),
		      TRACE_ARG_PTR("ptr", &object),
		      TRACE_ARG_KOID("koid", n), TRACE_ARG_BOOL("bool", n > 1));
	TRACE_INSTANT("cat", "cxx-process", TRACE_SCOPE_PROCESS,
		      TRACE_ARG_I32("n", n));
	TRACE_COUNTER("cat", "cxx-counter", n, TRACE_ARG_I64("v", n * 2));
	TRACE_DURATION_BEGIN("cat", "cxx-begin", TRACE_ARG_U32("n", n));
	TRACE_DURATION_END("cat", "cxx-begin");
	TRACE_COMPLETE("cat", "cxx-complete", start, fxt_now(),
		       TRACE_ARG_I32("n", n));
	TRACE_COMPLETE("cat", "cxx-complete-noargs", start, start + 1);
	events += 8;
	{
		TRACE_DURATION("cat", "cxx-scoped", TRACE_ARG_I32("n", n),
			       TRACE_ARG_STR("peer", peer));
		TRACE_DURATION("cat", "cxx-scoped-noargs");
	}
	events += 2 + (early_return(n) == n);
	try {
		throws(peer);
	} catch (const std::runtime_error &) {
		events++;
	}
	TRACE_ASYNC_BEGIN("cat", "cxx-async", n);
	TRACE_ASYNC_INSTANT("cat", "cxx-async", n, TRACE_ARG_I32("n", n));
	TRACE_ASYNC_END("cat", "cxx-async", n);
	TRACE_FLOW_BEGIN("cat", "cxx-flow", n + 1);
	TRACE_FLOW_STEP("cat", "cxx-flow", n + 1, TRACE_ARG_I32("n", n));
	TRACE_FLOW_END("cat", "cxx-flow", n + 1);
	events += 6;
	TRACE_INSTANT_AT("cat", "cxx-at-instant", at, TRACE_SCOPE_THREAD);
	TRACE_INSTANT_AT("cat", "cxx-at-instant", at, TRACE_SCOPE_GLOBAL,
			 TRACE_ARG_I32("n", n));
	TRACE_COUNTER_AT("cat", "cxx-at-counter", at, n, TRACE_ARG_I32("n", n));
	TRACE_DURATION_BEGIN_AT("cat", "cxx-at-duration", at);
	TRACE_DURATION_END_AT("cat", "cxx-at-duration", at,
			      TRACE_ARG_I32("n", n));
	TRACE_ASYNC_BEGIN_AT("cat", "cxx-at-async", at, n);
	TRACE_ASYNC_INSTANT_AT("cat", "cxx-at-async", at, n,
			       TRACE_ARG_STR("peer", peer));
	TRACE_ASYNC_END_AT("cat", "cxx-at-async", at, n);
	TRACE_FLOW_BEGIN_AT("cat", "cxx-at-flow", at, n);
	TRACE_FLOW_STEP_AT("cat", "cxx-at-flow", at, n, TRACE_ARG_I32("n", n));
	TRACE_FLOW_END_AT("cat", "cxx-at-flow", at, n);
	events += 11;
	TRACE_BLOB("cat", "cxx-blob", FXT_BLOB_DATA, blob, sizeof(blob) - 1);
	TRACE_LOG("cat", text.c_str(), text.size());
	TRACE_LOGF("cat", "cxx %s %d", peer, n);
	TRACE_USERSPACE_OBJECT("cat", &object, text.c_str());
	TRACE_USERSPACE_OBJECT("cat", &object, "cxx-object",
			       TRACE_ARG_I32("n", n));
	TRACE_KERNEL_OBJECT("cat", 1000 + n, FXT_ZX_OBJ_THREAD, peer);
	TRACE_KERNEL_OBJECT("cat", 2000 + n, FXT_ZX_OBJ_PROCESS, "cxx-process",
			    TRACE_ARG_I32("n", n));
	return events + every_macro_dyn(peer, n, at);
}
