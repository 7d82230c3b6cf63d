#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl record: starts, runs the command (a provider that exits when
# done), stops when it exits, and exits with its status; prints, per
# provider of the command (its own process, or one the manager announced
# joined from a process it started), records written and dropped. A
# relative -o is resolved against tracectl's directory.
. "$(dirname "$0")/lib.sh"

start_manager
cd "$T"
"$TRACECTL" record -o rec.fxt --kernel=off -- \
	"$PROTO_PROVIDER" --name app --events 400 --exit-after-write | tee "$T/rec.out"
grep -q "^Trace written to $T/rec.fxt" "$T/rec.out" || fail "archive path not absolute"
check "$T/rec.fxt"
expect_field app events 400
# per provider of the command: what the archive holds, what it lost
grep -q "^The command's provider app (pid [0-9]*): 404 records written, 0 dropped$" "$T/rec.out" ||
	fail "no line for the command's provider"

# A provider in a process the command started (sh forks it): the manager
# tells record it joined, so it is reported as the command's too.
"$TRACECTL" record -o rec4.fxt --kernel=off -- sh -c \
	"\"$PROTO_PROVIDER\" --name grandchild --events 50 --exit-after-write; true" |
	tee "$T/rec4.out"
grep -q "^The command's provider grandchild (pid [0-9]*): 54 records written, 0 dropped$" "$T/rec4.out" ||
	fail "the command's grandchild provider not reported"

# Piped (stdout fully buffered), tracectl's lines still come first.
"$TRACECTL" record -o rec5.fxt --kernel=off -- echo from-the-command |
	cat >"$T/rec5.out"
[ "$(head -n 1 "$T/rec5.out")" = "Tracing to $T/rec5.fxt (mode streaming, kernel off)" ] ||
	fail "piped, the command's output came first: $(cat "$T/rec5.out")"
grep -q "^from-the-command$" "$T/rec5.out" || fail "piped: no output of the command"

set +e
"$TRACECTL" record -o rec2.fxt --kernel=off -- sh -c 'exit 3'
status=$?
set -e -o pipefail
[ "$status" -eq 3 ] || fail "record exited $status, the command 3"
[ -s "$T/rec2.fxt" ] || fail "no archive for the failing command"

set +e
"$TRACECTL" record -o rec3.fxt >/dev/null 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "record without a command: exit $status, not 2"
stop_manager
echo "record: ok"
