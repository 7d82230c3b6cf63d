#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Tiny buffers. Oneshot keeps the first events and reports the drops (in
# tracectl stop and as a buffer-overflow record); circular keeps the last
# events, a contiguous run ending at the newest.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider small --events 2000
"$TRACECTL" start -o "$T/oneshot.fxt" --mode oneshot --buffer-size 16K --kernel=off
wait_wrote small
"$TRACECTL" stop | tee "$T/stop.out"
drops=$(awk '$1 == "small" { print $5 }' "$T/stop.out")
[ "$drops" -gt 0 ] || fail "tracectl stop reports no drops: '$drops'"
grep -q "^Warning: $drops provider records were dropped" "$T/stop.out" ||
	fail "no drop warning in tracectl stop"
check "$T/oneshot.fxt"
expect_field small overflow 1
expect_field small imin 0
events=$(field small events)
[ "$events" -lt 2000 ] || fail "oneshot kept $events events in 16K"
[ $((events + drops)) -eq 2000 ] || fail "kept $events + dropped $drops != 2000"
expect_field small distinct "$events"
expect_field small imax $((events - 1))

start_provider wrap --events 2000
"$TRACECTL" start -o "$T/circular.fxt" --mode circular --buffer-size 16K --kernel=off
wait_wrote wrap
"$TRACECTL" stop | tee "$T/stop.out"
check "$T/circular.fxt"
expect_field wrap overflow 0
expect_field wrap imax 1999
expect_field wrap strings 3
events=$(field wrap events)
imin=$(field wrap imin)
[ "$events" -lt 2000 ] || fail "circular kept $events events in 16K"
expect_field wrap distinct "$events"
[ $((1999 - imin + 1)) -eq "$events" ] || fail "circular run is not contiguous"
stop_manager
echo "drops: ok"
