#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# SIGTERM during a trace: fxtraced finishes the archive, removes its
# socket and exits 0. No controller is there to put the archive in
# place: it is whole under its hidden name beside the output, and the
# log says so.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider calm --events 600 --stay
"$TRACECTL" start -o "$T/s.fxt" --mode streaming --kernel=off
wait_wrote calm
stop_manager
[ ! -e "$FXTRACE_SOCKET" ] || fail "socket left behind"
[ ! -e "$T/s.fxt" ] || fail "the archive was put in place without a controller"
grep -q "Trace .* is complete in .s.fxt.* beside $T/s.fxt" "$T/fxtraced.log" ||
	fail "the log does not say where the archive is"
check "$T"/.s.fxt.??????
expect_field calm events 600
echo "sigterm: ok"
