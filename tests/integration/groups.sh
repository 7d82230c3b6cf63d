#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Group 'tracing' lets a user control traces however many other groups it
# has (the kernel's list of the peer's groups, not a guess of its size),
# and being in many groups but not 'tracing' does not. As README.md says:
# other users get no control, not even tracectl status (an error naming
# the group), but their programs may be providers.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "groups: needs root and setpriv; skipped"
	exit 77
fi
gid=$(getent group tracing | cut -d: -f3)
if [ -z "$gid" ]; then
	echo "groups: no group 'tracing' here; skipped"
	exit 77
fi
install -m 755 "$TRACECTL" "$T/tracectl"
install -m 755 "$PROTO_PROVIDER" "$T/proto_provider"
"$FXTRACED" --socket "$FXTRACE_SOCKET" >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
many=$(seq -s, 50000 50399)
setpriv --reuid=nobody --regid=nogroup --groups="$many,$gid" \
	"$T/tracectl" status >/dev/null ||
	fail "a member of 'tracing' with 401 groups was refused"
set +e
setpriv --reuid=nobody --regid=nogroup --groups="$many" \
	"$T/tracectl" status >/dev/null 2>"$T/status.err"
status=$?
set -e -o pipefail
[ "$status" -eq 1 ] || fail "400 groups without 'tracing' got control (exit $status)"
grep -q "group 'tracing'" "$T/status.err" ||
	fail "a refused status does not name the group: $(cat "$T/status.err")"
: >"$T/nobody.out"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$T/proto_provider" --name nobody-app --stay >"$T/nobody.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll provider_connected nobody-app
stop_manager
echo "groups: ok"
