#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A large oneshot archive from several providers (each area is copied into
# the archive in one run, in chunks larger than a huge page, and handed to
# the writer in pieces of a few MiB while the rest is validated): read back,
# it holds every event each provider wrote, each once, and passes
# dump --strict. In one of the buffers a metadata record and a malformed
# record sit in the middle: both are skipped and counted, and the records
# after them are kept (the kept runs are closed up over the gap).
. "$(dirname "$0")/lib.sh"

events=1000000
start_manager
for n in big0 big1 big2; do
	start_provider "$n" --events "$events"
done
start_provider bad --events "$events" --garbage --malformed
"$TRACECTL" start -o "$T/large.fxt" --mode oneshot --buffer-size 40M --kernel=off
for n in big0 big1 big2 bad; do
	wait_wrote "$n"
done
"$TRACECTL" stop | tee "$T/stop.out"
for n in big0 big1 big2; do
	[ "$(awk -v n="$n" '$1 == n { print $6 }' "$T/stop.out")" = 0 ] ||
		fail "$n: records skipped in a clean buffer"
done
[ "$(awk '$1 == "bad" { print $6 }' "$T/stop.out")" = 2 ] ||
	fail "the metadata and the malformed record are not both counted as skipped"
check "$T/large.fxt"
for n in big0 big1 big2 bad; do
	expect_field "$n" events "$events"
	expect_field "$n" distinct "$events"
	expect_field "$n" imin 0
	expect_field "$n" imax $((events - 1))
	expect_field "$n" overflow 0
	expect_field "$n" strings 3
done
[ -z "$(field imposter events)" ] || fail "the provider's metadata reached the archive"
stop_manager
echo "large_oneshot: ok"
