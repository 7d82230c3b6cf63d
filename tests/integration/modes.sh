#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Each buffering mode with two providers that have room for every event:
# all events arrive, once each, in sections with names and init records.
# Streaming with small buffers writes the archive while the trace runs.
. "$(dirname "$0")/lib.sh"

start_manager
for mode in oneshot circular streaming; do
	size=1M
	[ "$mode" = streaming ] && size=16K
	start_provider "a-$mode" --events 3000
	start_provider "b-$mode" --events 2000
	"$TRACECTL" start -o "$T/$mode.fxt" --mode "$mode" --buffer-size "$size" \
		--kernel=off
	wait_wrote "a-$mode"
	wait_wrote "b-$mode"
	if [ "$mode" = streaming ]; then
		# 5000 events of 32 bytes through 7K halves: most are on
		# disk, in the hidden file beside the output until stop.
		[ ! -e "$T/$mode.fxt" ] || fail "streaming: the output exists before stop"
		bytes=$(stat -c %s "$T/.$mode.fxt".??????)
		[ "$bytes" -gt 65536 ] ||
			fail "streaming: only $bytes bytes written before stop"
	fi
	"$TRACECTL" stop | tee "$T/stop.out"
	grep -q "^a-$mode .* 3004 " "$T/stop.out" ||
		fail "stop output lacks a-$mode with 3004 records"
	check "$T/$mode.fxt"
	! ls "$T/.$mode.fxt".?????? 2>/dev/null || fail "$mode: the hidden file is left"
	for p in "a-$mode:3000" "b-$mode:2000"; do
		n=${p%%:*}
		c=${p#*:}
		expect_field "$n" events "$c"
		expect_field "$n" distinct "$c"
		expect_field "$n" imin 0
		expect_field "$n" overflow 0
		[ "$(field "$n" init)" -ge 1 ] || fail "$n: no init record"
		expect_field "$n" strings 3
	done
done
stop_manager
echo "modes: ok"
