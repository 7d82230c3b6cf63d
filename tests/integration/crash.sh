#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider killed (SIGKILL) mid-trace, between a record's payload and
# its header: the manager notices, and the archive keeps everything up to
# its last well-formed record; the other provider is unaffected.
. "$(dirname "$0")/lib.sh"

for mode in oneshot circular; do
	start_manager
	start_provider "victim-$mode" --events 5000 --crash-after 1234
	start_provider "steady-$mode" --events 800
	pid=$(awk -v n="victim-$mode" '$1 == n { print $3 }' <("$TRACECTL" status))
	"$TRACECTL" start -o "$T/$mode.fxt" --mode "$mode" --kernel=off
	wait_wrote "steady-$mode"
	# The manager notices the death (socket closed) by itself.
	poll sh -c "\"\$TRACECTL\" status | grep -q '^  victim-$mode .*(exited)'"
	[ -n "$pid" ] || fail "no pid for the victim"
	"$TRACECTL" stop | tee "$T/stop.out"
	grep -q "^victim-$mode .* 1238 .*(exited)" "$T/stop.out" ||
		fail "stop: victim should have 1234 events + 4 names, exited"
	check "$T/$mode.fxt"
	expect_field "victim-$mode" events 1234
	expect_field "victim-$mode" distinct 1234
	expect_field "victim-$mode" imax 1233
	expect_field "steady-$mode" events 800
	stop_manager
done
echo "crash: ok"
