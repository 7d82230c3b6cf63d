#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The archive is opened by tracectl with exactly the controller's rights:
# its own supplementary groups count, the manager's do not; the manager
# takes only a regular file opened for writing, so a FIFO or a device
# cannot hold it; a failed start removes only a file it created, and
# leaves one that was there as it was.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "archive_rights: needs root and setpriv; skipped"
	exit 77
fi
install -m 755 "$TRACECTL" "$T/tracectl"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
# A group nobody is not in, but the manager is (a supplementary group
# of the shell that started it).
G=4242
install -d -o root -g "$G" -m 770 "$T/grp"
# A group nobody is given below, the manager is not in.
G2=4343
install -d -o root -g "$G2" -m 770 "$T/grp2"
install -d -o root -m 755 "$T/ro"
install -m 666 /dev/null "$T/ro/keep.fxt"
echo precious >"$T/ro/keep.fxt"
mkfifo -m 666 "$T/fifo"

setpriv --groups="$G" "$FXTRACED" --socket "$FXTRACE_SOCKET" \
	--allow-uid nobody >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status

# A FIFO: refused at once, the manager still answers.
set +e
timeout 30 "$TRACECTL" start -o "$T/fifo" --kernel=off 2>"$T/fifo.err"
status=$?
set -e -o pipefail
[ "$status" -eq 1 ] || { cat "$T/fifo.err"; fail "start into a FIFO exited $status"; }
grep -q "not a regular file" "$T/fifo.err" || { cat "$T/fifo.err"; fail "no reason for the FIFO"; }
timeout 30 "$TRACECTL" status >/dev/null || fail "the manager does not answer after the FIFO"

# What the manager itself takes: a regular file opened for writing only.
: "${RAW_START:?}"
raw() {
	out=$(timeout 30 "$RAW_START" "$1" "$2") || fail "raw-start $1: no result"
	case "$out" in
	"error 0:"*) fail "the manager took $1 $2" ;;
	*"$3"*) ;;
	*) fail "raw-start $1 $2: '$out' does not say '$3'" ;;
	esac
}
raw none "$T/none.fxt" "tracectl opens the output"
raw rdonly "$T/ro/keep.fxt" "not opened for writing"
raw rdwr "$T/fifo" "not a regular file"
raw rdonly /dev/null "not a regular file"
[ "$(cat "$T/ro/keep.fxt")" = precious ] || fail "a refused descriptor changed the file"
timeout 30 "$TRACECTL" status >/dev/null || fail "the manager does not answer after the refusals"

# The manager's supplementary group must not open $T/grp to nobody.
set +e
as_nobody "$T/tracectl" start -o "$T/grp/leak.fxt" --kernel=off 2>"$T/leak.err"
status=$?
set -e
[ "$status" -eq 1 ] || fail "nobody wrote through the manager's group"
grep -q "Permission denied" "$T/leak.err" || { cat "$T/leak.err"; fail "no permission error"; }
[ ! -e "$T/grp/leak.fxt" ] || fail "leak.fxt was created"

# The controller's own supplementary group does (for the hidden file at
# start and its rename at stop).
setpriv --reuid=nobody --regid=nogroup --groups="$G2" \
	"$T/tracectl" start -o "$T/grp2/mine.fxt" --kernel=off
setpriv --reuid=nobody --regid=nogroup --groups="$G2" \
	"$T/tracectl" stop >/dev/null
[ "$(stat -c %U "$T/grp2/mine.fxt")" = nobody ] || fail "mine.fxt is not nobody's"

# Stopped by another uid (root): it does not rename nobody's file with
# its own rights; the archive stays whole under its hidden name until
# nobody's own stop puts it in place.
install -d -o nobody -m 755 "$T/own"
as_nobody "$T/tracectl" start -o "$T/own/o.fxt" --kernel=off
"$TRACECTL" stop >"$T/other.out" || fail "root's stop of nobody's trace failed"
grep -q "uid $(id -u nobody) started this trace" "$T/other.out" ||
	{ cat "$T/other.out"; fail "the other stopper is not told whose archive it is"; }
[ ! -e "$T/own/o.fxt" ] || fail "another uid put nobody's archive in place"
as_nobody "$T/tracectl" stop >"$T/owner.out" || fail "the owner's stop failed"
grep -q "^Trace written to $T/own/o.fxt" "$T/owner.out" || fail "the owner's stop did not place it"
[ "$(stat -c %U "$T/own/o.fxt")" = nobody ] || fail "o.fxt is not nobody's"
[ "$(ls -A "$T/own")" = o.fxt ] || fail "files left beside o.fxt: $(ls -A "$T/own")"

# A failed start leaves a file that was there (nobody may write it, not
# remove it); the kernel module is absent on this machine.
if [ ! -e /dev/fxt_sched ]; then
	set +e
	as_nobody "$T/tracectl" start -o "$T/ro/keep.fxt" --kernel=kmod 2>"$T/kmod.err"
	status=$?
	set -e
	[ "$status" -eq 1 ] || fail "an impossible --kernel=kmod did not fail"
	[ -e "$T/ro/keep.fxt" ] || fail "a failed start removed a file it did not create"
	[ "$(cat "$T/ro/keep.fxt")" = precious ] || fail "a failed start truncated a file"
	install -d -o nobody -m 755 "$T/nobody"
	as_nobody "$T/tracectl" start -o "$T/nobody/new.fxt" --kernel=kmod 2>/dev/null &&
		fail "an impossible --kernel=kmod did not fail"
	[ -z "$(ls -A "$T/nobody")" ] || fail "a failed start left a file: $(ls -A "$T/nobody")"
fi
stop_manager
echo "archive_rights: ok"
