#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider that never acknowledges STOP: stop still completes (after the
# manager's timeout) with the records it had committed.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider mute --events 300 --ignore-stop
start_provider fine --events 200
"$TRACECTL" start -o "$T/n.fxt" --kernel=off
wait_wrote mute
wait_wrote fine
"$TRACECTL" stop | tee "$T/stop.out"
grep -q "^mute .*did not acknowledge stop" "$T/stop.out" ||
	fail "stop does not say mute ignored it"
check "$T/n.fxt"
expect_field mute events 300
expect_field fine events 200
stop_manager
echo "no_ack: ok"
