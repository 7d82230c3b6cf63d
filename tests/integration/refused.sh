#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Control needs root, group 'tracing' or --allow-uid: another user is
# refused with what to do, and may still be a provider. Also: a clear
# error when no manager runs.
. "$(dirname "$0")/lib.sh"

set +e
FXTRACE_SOCKET="$T/none.sock" "$TRACECTL" status 2>"$T/none.err"
status=$?
set -e -o pipefail
[ "$status" -eq 1 ] || fail "status without a manager exited $status"
# the socket is not the default: fxtraced on it, FXTRACE_SOCKET as it is
grep -q "^is fxtraced running on $T/none.sock (FXTRACE_SOCKET)? start it with: fxtraced --socket $T/none.sock &\$" "$T/none.err" ||
	fail "no hint to start fxtraced on the socket: $(cat "$T/none.err")"
grep -q "systemctl\|FXTRACE_SOCKET=" "$T/none.err" &&
	fail "a hint for another socket or machine: $(cat "$T/none.err")"
# the default socket: systemd's unit only where systemd is PID 1
if [ ! -e /run/fxtrace/manager.sock ]; then
	set +e
	env -u FXTRACE_SOCKET "$TRACECTL" status 2>"$T/default.err"
	set -e
	if [ -d /run/systemd/system ]; then
		hint="start it with: sudo systemctl start fxtraced.socket$"
	else
		hint="PID 1 is not systemd here: start it with: sudo fxtraced &$"
	fi
	grep -q "$hint" "$T/default.err" ||
		fail "default socket: $(cat "$T/default.err")"
fi

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "refused: needs root and setpriv to act as nobody; skipped"
	exit 77
fi
if getent group tracing | grep '\bnobody\b' >/dev/null; then
	echo "refused: nobody is in group tracing here; skipped"
	exit 77
fi
"$FXTRACED" --socket "$FXTRACE_SOCKET" >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
# Binaries in a build tree nobody may not enter: run copies.
install -m 755 "$TRACECTL" "$T/tracectl"
install -m 755 "$PROTO_PROVIDER" "$T/proto-provider"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
for cmd in status stop "start -o $T/x.fxt"; do
	set +e
	# shellcheck disable=SC2086
	as_nobody "$T/tracectl" $cmd 2>"$T/refused.err"
	status=$?
	set -e
	[ "$status" -eq 1 ] || fail "nobody: tracectl $cmd exited $status"
	grep -q "run with sudo or add yourself to group 'tracing'" "$T/refused.err" ||
		{ cat "$T/refused.err"; fail "nobody: refusal does not say what to do"; }
	grep -q "sudo usermod -aG tracing nobody, then log in again" "$T/refused.err" ||
		{ cat "$T/refused.err"; fail "nobody: refusal does not say how to join"; }
done
[ ! -e "$T/x.fxt" ] || fail "a refused start created the archive"

# Any user may be a provider.
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$T/proto-provider" --name nobodys --events 50 >"$T/nobodys.out" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll provider_connected nobodys
"$TRACECTL" start -o "$T/p.fxt" --kernel=off
wait_wrote nobodys
"$TRACECTL" stop
check "$T/p.fxt"
expect_field nobodys events 50
stop_manager

# An allowed user cannot make root's fxtraced write where it may not:
# the archive is created with the controller's rights, and is its own.
install -d -o nobody -m 755 "$T/nobody"
"$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid nobody >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
set +e
as_nobody "$T/tracectl" start -o "$T/root-owned.fxt" --kernel=off 2>"$T/perm.err"
status=$?
set -e
[ "$status" -eq 1 ] || fail "nobody could start a trace into a root directory"
grep -q "cannot create $T/root-owned.fxt: Permission denied" "$T/perm.err" ||
	{ cat "$T/perm.err"; fail "no permission error"; }
[ ! -e "$T/root-owned.fxt" ] || fail "root-owned.fxt was created"
as_nobody "$T/tracectl" start -o "$T/nobody/mine.fxt" --kernel=off
as_nobody "$T/tracectl" stop
[ "$(stat -c %U "$T/nobody/mine.fxt")" = nobody ] || fail "the archive is not nobody's"
stop_manager

# --allow-uid lets one more user control; a manager without privileges
# cannot capture the kernel: auto says why in one line and goes on.
install -m 755 "$FXTRACED" "$T/fxtraced"
export FXTRACE_SOCKET="$T/nobody/manager.sock"
# Not through the function: $! must be fxtraced itself.
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$T/fxtraced" --socket "$FXTRACE_SOCKET" --allow-uid nobody \
	>"$T/fxtraced.log" 2>&1 &
MGR=$!
poll as_nobody "$T/tracectl" status
as_nobody "$T/tracectl" start -o "$T/nobody/k.fxt" --kernel=auto | tee "$T/start.out"
grep -q "kernel off" "$T/start.out" || fail "auto without privileges is not off"
[ "$(wc -l <"$T/start.out")" -eq 2 ] || fail "auto did not explain in one line"
set +e
as_nobody "$T/tracectl" stop >/dev/null
as_nobody "$T/tracectl" start -o "$T/nobody/k2.fxt" --kernel=bpf 2>"$T/bpf.err"
status=$?
set -e
[ "$status" -eq 1 ] || fail "an impossible --kernel=bpf did not fail"
cat "$T/bpf.err"
[ ! -e "$T/nobody/k2.fxt" ] || fail "a failed start left its archive"
stop_manager
echo "refused: ok"
