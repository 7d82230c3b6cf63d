#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# start --duration: the manager stops by itself and writes the archive;
# a later stop says so and names the file.
. "$(dirname "$0")/lib.sh"

idle() {
	"$TRACECTL" status | grep -q '^State: idle'
}

start_manager
start_provider timed --events 100
"$TRACECTL" start -o "$T/d.fxt" --duration 200ms --kernel=off
wait_wrote timed
poll idle
check "$T/d.fxt"
expect_field timed events 100
set +e
"$TRACECTL" stop 2>"$T/stop.err"
status=$?
set -e
[ "$status" -eq 1 ] || fail "stop with no trace exited $status"
grep -q "no trace is running (the last one was written to $T/d.fxt)" "$T/stop.err" ||
	fail "stop does not name the last archive"
stop_manager
echo "duration: ok"
