#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The archive is written to a hidden file beside the output and renamed
# into place at stop: a failed start leaves a file at the output as it
# was, a running trace does not touch it, a stop replaces it in one step
# and keeps the old one as FILE.old.
. "$(dirname "$0")/lib.sh"

hidden() {
	ls -A "$T" | grep '^\.t\.fxt\.' || true
}

start_manager
start_provider first --events 20 --stay
echo precious >"$T/t.fxt"

# A start refused while another trace runs.
"$TRACECTL" start -o "$T/other.fxt" --kernel=off >/dev/null
"$TRACECTL" start -o "$T/t.fxt" --kernel=off 2>"$T/busy.err" &&
	fail "a second start succeeded"
grep -q "already running" "$T/busy.err" || { cat "$T/busy.err"; fail "no reason for the refusal"; }
[ "$(cat "$T/t.fxt")" = precious ] || fail "a refused start changed the file"
[ -z "$(hidden)" ] || fail "a refused start left $(hidden)"
"$TRACECTL" stop >/dev/null

# A start the kernel side refuses (no module on this machine).
if [ ! -e /dev/fxt_sched ]; then
	"$TRACECTL" start -o "$T/t.fxt" --kernel=kmod 2>/dev/null &&
		fail "an impossible --kernel=kmod did not fail"
	[ "$(cat "$T/t.fxt")" = precious ] || fail "a failed start changed the file"
	[ -z "$(hidden)" ] || fail "a failed start left $(hidden)"
fi

# While the trace runs the output keeps its old content; the stop
# replaces it whole and keeps the old one.
"$TRACECTL" start -o "$T/t.fxt" --mode streaming --buffer-size 16K --kernel=off >/dev/null
start_provider second --events 3000
wait_wrote second
[ "$(cat "$T/t.fxt")" = precious ] || fail "the running trace changed the output"
[ -n "$(hidden)" ] || fail "no hidden file while tracing"
"$TRACECTL" stop >"$T/stop.out" || fail "stop failed"
grep -q "^Trace written to $T/t.fxt" "$T/stop.out" || fail "stop does not name the archive"
check "$T/t.fxt"
expect_field second events 3000
[ "$(cat "$T/t.fxt.old")" = precious ] || fail "the replaced file was not kept as t.fxt.old"
[ -z "$(hidden)" ] || fail "the hidden file is left: $(hidden)"

# The old file cannot be kept (t.fxt.old is a directory): nothing is
# replaced, stop fails and says where the archive is.
cp "$T/t.fxt" "$T/before.fxt"
rm "$T/t.fxt.old"
mkdir "$T/t.fxt.old"
touch "$T/t.fxt.old/x"
"$TRACECTL" start -o "$T/t.fxt" --kernel=off >/dev/null
"$TRACECTL" stop >"$T/stop.out" 2>"$T/stop.err" && fail "stop succeeded without keeping the old file"
grep -q "cannot keep $T/t.fxt as $T/t.fxt.old: .*the archive is at $T/.t.fxt." "$T/stop.err" ||
	{ cat "$T/stop.err"; fail "stop does not say why and where"; }
cmp -s "$T/t.fxt" "$T/before.fxt" || fail "t.fxt was replaced"
check "$T"/.t.fxt.??????
stop_manager
echo "atomic: ok"
