#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every program answers --version and --help; a usage error is one line
# naming the mistake and the --help to read, with exit status 2
# (tracectl's subcommands: tests/unit/test_dump.sh).
. "$(dirname "$0")/lib.sh"
: "${FXT_EXAMPLE:?}"
DEMO="$(dirname "$0")/../../scripts/demo.sh"

# usage_error NAME ARGS...: NAME ARGS exits 2 with one line ending in
# "see 'NAME --help'".
usage_error() {
	name=$1
	shift
	set +e
	"$@" >"$T/out" 2>"$T/err"
	status=$?
	set -e
	[ "$status" -eq 2 ] || fail "$*: exit $status, not 2"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$*: not one line: $(cat "$T/err")"
	grep -q "^$name: .*; see '$name --help'\$" "$T/err" ||
		fail "$*: $(cat "$T/err")"
}

answers() {	# NAME ARGS...: --version and --help exit 0 with output
	name=$1
	shift
	"$@" --version >"$T/out" || fail "$* --version"
	grep -q "^$name " "$T/out" || fail "$* --version: $(cat "$T/out")"
	"$@" --help >"$T/out" || fail "$* --help"
	[ -s "$T/out" ] || fail "$* --help printed nothing"
}

answers fxtraced "$FXTRACED"
answers fxt-example "$FXT_EXAMPLE"
answers demo.sh bash "$DEMO"
answers tracectl "$TRACECTL"

usage_error fxtraced "$FXTRACED" --bogus
usage_error fxtraced "$FXTRACED" stray
usage_error fxt-example "$FXT_EXAMPLE" --bogus
usage_error fxt-example "$FXT_EXAMPLE" --threads 0
usage_error fxt-example "$FXT_EXAMPLE" stray
usage_error demo.sh bash "$DEMO" --bogus
usage_error demo.sh bash "$DEMO" --seconds
usage_error tracectl "$TRACECTL" frob
echo "usage: ok"
