#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Connections cost the manager descriptors: a user (not root) gets a
# bounded number, and a manager out of descriptors pauses accepting
# instead of spinning, then serves again.
. "$(dirname "$0")/lib.sh"

: "${CONN_FLOOD:?}"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null ||
	! command -v prlimit >/dev/null; then
	echo "conn_limits: needs root, setpriv and prlimit; skipped"
	exit 77
fi
install -m 755 "$CONN_FLOOD" "$T/conn-flood"

start_manager
# 400 is over the per-user limit and under the manager's descriptors.
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$T/conn-flood" status 400 >"$T/flood.out"
cat "$T/flood.out"
read -r _ yes _ no <"$T/flood.out"
[ "$no" -gt 0 ] || fail "all 400 connections of one user were kept"
[ "$yes" -ge 16 ] || fail "only $yes connections of a user were served"
grep -q "Refusing connections of uid $(id -u nobody)" "$T/fxtraced.log" ||
	fail "no log line for the refused connections"
"$TRACECTL" status >/dev/null || fail "root is not served after a flood"
stop_manager

# Out of descriptors (root has no per-user limit): no busy loop.
prlimit --nofile=40:40 "$FXTRACED" --socket "$FXTRACE_SOCKET" \
	>"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
"$T/conn-flood" hold 200 3000
n=$(grep -c "Failed to accept" "$T/fxtraced.log" || true)
echo "accept failures logged: $n"
[ "$n" -le 10 ] || fail "accept failed $n times in 3 s: a busy loop"
poll "$TRACECTL" status
start_provider after
"$TRACECTL" start -o "$T/after.fxt" --kernel=off
wait_wrote after
"$TRACECTL" stop
check "$T/after.fxt"
expect_field after events 100
stop_manager
echo "conn_limits: ok"
