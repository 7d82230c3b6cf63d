#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The systemd units verify, and fxtraced serves a socket it is handed the
# way systemd's socket activation hands it (sd_listen_fds).
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
systemd-analyze verify --man=no "$T/fxtraced.service" "$T/fxtraced.socket" ||
	fail "systemd-analyze verify"

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
echo "units: ok"
