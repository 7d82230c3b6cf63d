#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# CPython's layout as py_layout.h reads it from Debian's interpreter's
# DWARF (python3.X-dbg) against the compiler's layout of CPython's own
# headers (py-layout-oracle, built with Py_BUILD_CORE): every offset and
# size the same, and the runtime's address the one the interpreter's
# dynamic symbol table gives _PyRuntime.
set -eu -o pipefail
DUMP=$1
ORACLE=$2
PY=$(readlink -f /usr/bin/python3)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! "$DUMP" "$PY" >"$T/ours" 2>"$T/err"; then
	if grep -q "no DWARF" "$T/err"; then
		echo "skip: $PY has no DWARF here (install $(basename "$PY")-dbg): $(cat "$T/err")"
		exit 77
	fi
	cat "$T/err"
	exit 1
fi
"$ORACLE" >"$T/theirs"
grep -v '^runtime=' "$T/ours" | diff -u "$T/theirs" - ||
	{ echo "FAIL: $PY's DWARF and CPython's headers disagree"; exit 1; }
ours=$(sed -n 's/^runtime=//p' "$T/ours")
symbol=$(nm -D "$PY" | awk '$3 == "_PyRuntime" { print $1 }')
[ -n "$symbol" ] && [ "$ours" -eq "$((16#$symbol))" ] ||
	{ echo "FAIL: _PyRuntime at $ours by DWARF, 0x$symbol by the symbol table"; exit 1; }
echo "$PY: $(wc -l <"$T/theirs") offsets and sizes as its headers lay them out; _PyRuntime at 0x$symbol"
