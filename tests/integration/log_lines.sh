#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What controllers and providers name (an archive path, a provider name)
# is one log line however it is spelled: a newline in it cannot forge a
# line with a priority prefix of its own.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider "$(printf 'evil\n<0>forged-by-provider')" --events 5
nl_path="$T/$(printf 'x\n<0>forged-by-controller')"
"$TRACECTL" start -o "$nl_path" --kernel=off >/dev/null
"$TRACECTL" stop >/dev/null
[ -s "$nl_path" ] || fail "no archive at a path with a newline"
! grep -q "^<0>forged" "$T/fxtraced.log" || {
	cat "$T/fxtraced.log"
	fail "a name forged a log line"
}
grep -q "Trace started: $T/x?<0>forged-by-controller" "$T/fxtraced.log" ||
	fail "the path is not logged on one line"
stop_manager
echo "log_lines: ok"
