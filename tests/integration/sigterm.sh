#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# SIGTERM during a trace: fxtraced finishes the archive, removes its
# socket and exits 0.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider calm --events 600 --stay
"$TRACECTL" start -o "$T/s.fxt" --mode streaming --kernel=off
wait_wrote calm
stop_manager
[ ! -e "$FXTRACE_SOCKET" ] || fail "socket left behind"
check "$T/s.fxt"
expect_field calm events 600
echo "sigterm: ok"
