#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The systemd units verify, the service's sandbox rates 5.0 or lower in
# systemd-analyze security, and fxtraced serves a socket it is handed the
# way systemd's socket activation hands it (sd_listen_fds); so activated,
# it exits when idle (no trace, provider or controller), never before.
. "$(dirname "$0")/lib.sh"

: "${FXTRACED_SERVICE:?}" "${FXTRACED_SOCKET_UNIT:?}"
if ! command -v systemd-analyze >/dev/null ||
   ! command -v systemd-socket-activate >/dev/null; then
	echo "units: systemd-analyze or systemd-socket-activate missing; skipped"
	exit 77
fi
sed "s|^ExecStart=.*|ExecStart=$FXTRACED|" "$FXTRACED_SERVICE" >"$T/fxtraced.service"
cp "$FXTRACED_SOCKET_UNIT" "$T/fxtraced.socket"
# --man=no: the man pages that Documentation= names are installed only
# with the packages (tests/packaging/check_debs.sh verifies against them).
systemd-analyze verify --man=no "$T/fxtraced.service" "$T/fxtraced.socket" \
	>"$T/verify.out" 2>&1 || { cat "$T/verify.out"; fail "systemd-analyze verify"; }
[ ! -s "$T/verify.out" ] || { cat "$T/verify.out"; fail "systemd-analyze verify warns"; }
# The sandbox: "systemd-analyze security" rates the unit 5.0 or lower.
exposure=$(systemd-analyze security --offline=true "$T/fxtraced.service" 2>&1 |
	sed -n 's/.*Overall exposure level for fxtraced.service: \([0-9.]*\).*/\1/p')
[ -n "$exposure" ] || fail "systemd-analyze security gave no exposure level"
awk -v e="$exposure" 'BEGIN { exit !(e <= 5.0) }' ||
	fail "systemd-analyze security rates fxtraced.service $exposure (above 5.0)"
echo "units: exposure $exposure"

systemd-socket-activate --seqpacket -l "$FXTRACE_SOCKET" "$FXTRACED" \
	>"$T/fxtraced.log" 2>&1 &
MGR=$!
poll test -S "$FXTRACE_SOCKET"
start_provider activated --events 10
"$TRACECTL" start -o "$T/a.fxt" --kernel=off
wait_wrote activated
"$TRACECTL" stop
check "$T/a.fxt"
expect_field activated events 10
grep -q "Listening on the socket from the service manager" "$T/fxtraced.log" ||
	fail "fxtraced did not take the passed socket"
stop_manager

# Idle exit: not while a provider is connected or a trace runs, then
# with status 0 once nothing is left.
rm -f "$FXTRACE_SOCKET"
systemd-socket-activate --seqpacket -l "$FXTRACE_SOCKET" "$FXTRACED" \
	--idle-exit 1 --allow-uid "$(id -u)" >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll test -S "$FXTRACE_SOCKET"
kill -9 $BG_PIDS 2>/dev/null || true
BG_PIDS=""
start_provider stays --events 5
sleep 2
kill -0 "$MGR" 2>/dev/null || fail "fxtraced exited with a provider connected"
"$TRACECTL" start -o "$T/idle.fxt" --kernel=off >/dev/null
wait_wrote stays
kill -9 $BG_PIDS
BG_PIDS=""
sleep 2
kill -0 "$MGR" 2>/dev/null || fail "fxtraced exited during a trace"
"$TRACECTL" stop >/dev/null
check "$T/idle.fxt"
expect_field stays events 5
poll sh -c "! kill -0 $MGR"
wait "$MGR" || fail "the idle exit was not clean (status $?)"
MGR=""
grep -q "Idle for 1 s: exiting" "$T/fxtraced.log" || fail "no idle exit logged"
# Without socket activation there is no idle exit by default.
start_manager --idle-exit 1
sleep 2
"$TRACECTL" status >/dev/null || fail "fxtraced exited without socket activation"
stop_manager
echo "units: ok"
