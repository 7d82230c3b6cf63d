#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The EXAMPLE of libfxt-provider(3) compiles as printed (against the
# built library and headers, with strict warnings) and, under tracectl
# record, writes what the page says: flows begun, stepped and ended in
# durations, async begin and end, the counter. The examples the -dev
# package ships as sources build on their own too (no build-system
# defines).
. "$(dirname "$0")/lib.sh"
: "${PROVIDER_MAN:?}" "${PROVIDER_LIB:?}" "${PROVIDER_SRC:?}" "${FXT_INCLUDE:?}"

libdir=$(dirname "$PROVIDER_LIB")
# Against a sanitized library, the program carries the sanitizers' runtime
# too (it must come first).
sanitize=${FXT_SANITIZED:+-fsanitize=address,undefined}
build() {	# OUT SOURCE COMPILER: as pkg-config would give it
	# shellcheck disable=SC2086
	"$3" -Wall -Wextra -Werror $sanitize -I"$FXT_INCLUDE" -o "$1" "$2" \
		-L"$libdir" -Wl,-rpath,"$libdir" -lfxt-provider -pthread ||
		fail "$2 does not compile"
}

# The first code block of the EXAMPLE section, as the page prints it.
awk '/^# EXAMPLE/ { in_ex = 1; next } /^# / { in_ex = 0 }
	in_ex && /^```/ { if (code) exit; code = 1; next }
	in_ex && code { print }' "$PROVIDER_MAN" >"$T/demo.c"
grep -q 'int main(void)' "$T/demo.c" || fail "no program in the EXAMPLE: $(cat "$T/demo.c")"
build "$T/demo" "$T/demo.c" cc

start_manager
"$TRACECTL" record -o "$T/demo.fxt" --kernel=off -- "$T/demo" >"$T/rec.out" ||
	fail "record of the example"
"$TRACECTL" dump --strict "$T/demo.fxt" >"$T/dump.out" || fail "dump --strict"
for what in 'flow_begin .*name="request"' 'flow_step .*name="request"' \
	'flow_end .*name="request"' 'async_begin .*name="reply"' \
	'async_end .*name="reply"' 'counter .*name="queue" id=0 waiting='; do
	[ "$(grep -c "$what" "$T/dump.out")" -eq 3 ] ||
		fail "the example did not write 3 of: $what"
done
stop_manager

build "$T/fxt-example" "$PROVIDER_SRC/examples/fxt-example.c" cc
"$T/fxt-example" --version | grep '^fxt-example (built on its own)' >/dev/null ||
	fail "the shipped fxt-example.c built on its own: $("$T/fxt-example" --version)"
build "$T/fxt-example-cxx" "$PROVIDER_SRC/examples/fxt-example-cxx.cc" c++
echo "man_example: ok"
