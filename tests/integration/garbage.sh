#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider writing a metadata record (only the manager may): it is
# skipped and counted, and everything around it is kept.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider liar --events 1000 --garbage
"$TRACECTL" start -o "$T/g.fxt" --kernel=off
wait_wrote liar
"$TRACECTL" stop | tee "$T/stop.out"
[ "$(awk '$1 == "liar" { print $6 }' "$T/stop.out")" = 1 ] ||
	fail "the skipped metadata record is not counted"
check "$T/g.fxt"
expect_field liar events 1000
[ -z "$(field imposter events)" ] || fail "the provider's metadata reached the archive"
stop_manager
echo "garbage: ok"
