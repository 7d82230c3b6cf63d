#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtraced --socket removes only a stale socket of a dead manager: never
# a file that is not a socket, never the socket of a live manager.
. "$(dirname "$0")/lib.sh"

echo precious >"$T/file"
set +e
timeout 30 "$FXTRACED" --socket "$T/file" >"$T/file.log" 2>&1
status=$?
set -e -o pipefail
[ "$status" -ne 0 ] || fail "fxtraced bound over a regular file"
grep -qx precious "$T/file" || fail "fxtraced removed a regular file"

start_manager
set +e
timeout 30 "$FXTRACED" --socket "$FXTRACE_SOCKET" >"$T/second.log" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "a second fxtraced took a live manager's socket"
grep -q "is another fxtraced running" "$T/second.log" || fail "no hint about the live manager"
"$TRACECTL" status >/dev/null || fail "the live manager lost its socket"
stop_manager
echo "socket_path: ok"
