#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# start --duration: the manager stops by itself and writes the archive
# beside the output; the next stop puts it in place and says so; a stop
# after that names the file.
. "$(dirname "$0")/lib.sh"

idle() {
	"$TRACECTL" status | grep '^State: idle' >/dev/null
}

start_manager
start_provider timed --events 100
"$TRACECTL" start -o "$T/d.fxt" --duration 200ms --kernel=off
wait_wrote timed
poll idle
[ ! -e "$T/d.fxt" ] || fail "the manager put the archive in place itself"
"$TRACECTL" status | grep "^Last trace: $T/d.fxt, not yet in place" >/dev/null ||
	fail "status does not say the archive waits for a stop"
"$TRACECTL" stop >"$T/stop.out" || fail "the stop after the duration failed"
grep -q "the trace had already ended" "$T/stop.out" || fail "stop does not say the trace had ended"
grep -q "^Trace written to $T/d.fxt" "$T/stop.out" || fail "stop does not name the archive"
check "$T/d.fxt"
expect_field timed events 100
set +e
"$TRACECTL" stop 2>"$T/stop.err"
status=$?
set -e -o pipefail
[ "$status" -eq 1 ] || fail "stop with no trace exited $status"
grep -q "no trace is running (the last one was written to $T/d.fxt)" "$T/stop.err" ||
	fail "stop does not name the last archive"
stop_manager
echo "duration: ok"
