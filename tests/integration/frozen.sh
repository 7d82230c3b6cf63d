#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The archive is written by a thread of its own: with its file system
# frozen (fsfreeze of an ext4 image on a loop device, in a private mount
# namespace), status answers, a provider connects and gets its buffer,
# and SAVE hand-overs go on; a stop gives up waiting at its --timeout
# and says so, and the next stop puts the archive in place; once thawed,
# the archive holds everything.
# The timeouts are ceilings that catch a hang, not measurements.
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
	! command -v fsfreeze >/dev/null || ! command -v mkfs.ext4 >/dev/null ||
	! losetup -f >/dev/null 2>&1; then
	echo "frozen: needs root, unshare, fsfreeze, mkfs.ext4 and a loop device; skipped"
	exit 77
fi
if [ -z "${FXT_PRIVATE_MOUNTS:-}" ]; then
	FXT_PRIVATE_MOUNTS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

truncate -s 32M "$T/fs.img"
mkfs.ext4 -q "$T/fs.img"
mkdir "$T/frz"
mount -o loop "$T/fs.img" "$T/frz" || { echo "frozen: cannot mount a loop device; skipped"; exit 77; }
# Thawed before anything else, whatever happens (a frozen file system
# holds every writer, the manager's exit too).
thaw() {
	fsfreeze -u "$T/frz" 2>/dev/null || true
}
trap 's=$?; set +e; thaw; umount -l "$T/frz" 2>/dev/null; (exit $s); cleanup' EXIT
(sleep 100; fsfreeze -u "$T/frz") >/dev/null 2>&1 &
BG_PIDS="$BG_PIDS $!"

start_manager
start_provider before --events 20000 --stay
"$TRACECTL" start -o "$T/frz/z.fxt" --mode streaming --buffer-size 64K \
	--kernel=off >/dev/null
wait_wrote before
fsfreeze -f "$T/frz"
timeout 20 "$TRACECTL" status >/dev/null || fail "status hangs on a frozen file system"
start_provider during --events 20000 --stay
wait_wrote during
timeout 20 "$TRACECTL" status >"$T/status.out" || fail "status hangs after SAVEs"
rc=0
timeout 20 "$TRACECTL" stop --timeout 2s >"$T/stop1.out" 2>"$T/stop1.err" || rc=$?
cat "$T/stop1.err"
[ "$rc" -eq 1 ] || fail "stop on a frozen file system exited $rc, not 1 after its timeout"
grep -q "has not finished writing the archive in time" "$T/stop1.err" ||
	fail "stop does not say why it gave up"
[ ! -e "$T/frz/z.fxt" ] || fail "an archive appeared while the file system was frozen"
thaw
"$TRACECTL" stop >"$T/stop.out" || { cat "$T/stop.out"; fail "stop failed"; }
check "$T/frz/z.fxt"
expect_field before events 20000
expect_field during events 20000
expect_field during distinct 20000
stop_manager
echo "frozen: ok"
