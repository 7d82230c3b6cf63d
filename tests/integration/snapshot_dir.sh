#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The snapshot directory of --trigger is the controller's: one owned by
# another user (nobody), writable by every user or by a group other than
# tracing, or a symbolic link (also given as LINK/) is refused at start
# (exit 1, as a missing directory is) with what to do, and no trace
# starts. The manager refuses such a directory itself, whatever the
# controller checked (a request sent without tracectl). A directory of
# root's, or root:tracing 2770 as the flight recorder's, is taken.
if [ "$(id -u)" != 0 ]; then
	echo "skip: needs root (directories of other users)"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

: "${RAW_START:?}"
start_manager

# refused DIR WHY: start with snapshots to DIR exits 1 saying WHY, and
# no trace runs after it.
refused() {
	start_refused 1 "$2" --mode circular --kernel=off --trigger jank \
		--snapshot-dir "$1"
	grep -q -- "--snapshot-dir" "$T/usage.out" ||
		fail "the refusal of $1 does not name the option: $(cat "$T/usage.out")"
	"$TRACECTL" status | grep "^State: idle" >/dev/null ||
		fail "a start refused for $1 left a trace running"
}

mkdir "$T/snaps" "$T/nobody" "$T/world" "$T/group"
chown nobody "$T/nobody"
chmod 1777 "$T/world"
chgrp 0 "$T/group"
chmod 0775 "$T/group"
ln -s "$T/snaps" "$T/link"

refused "$T/nobody" "belongs to uid $(id -u nobody), not to root"
grep -q "use a directory of your own (mkdir -m 0700 DIR)" "$T/usage.out" ||
	fail "the refusal does not say what to do: $(cat "$T/usage.out")"
refused "$T/world" "is writable by every user (mode 1777).*chmod o-w"
refused "$T/group" "is writable by group 0 (mode 0775).*chmod g-w"
refused "$T/link" "$T/link is a symbolic link: give the directory itself"
refused "$T/link/" "$T/link is a symbolic link"

# The manager's own check: a controller that does not check.
"$TRACECTL" start -o "$T/raw.fxt" --mode circular --kernel=off >/dev/null ||
	fail "start without triggers"
"$RAW_START" triggers "$T/nobody" >"$T/raw.out" || fail "raw-start: $(cat "$T/raw.out")"
grep -q "^error -1: --snapshot-dir $T/nobody belongs to uid $(id -u nobody)" "$T/raw.out" ||
	fail "the manager armed triggers in another user's directory: $(cat "$T/raw.out")"
"$RAW_START" triggers "$T/world" >"$T/raw.out" || fail "raw-start: $(cat "$T/raw.out")"
grep -q "^error -1: .*is writable by every user" "$T/raw.out" ||
	fail "the manager armed triggers in a directory everyone writes: $(cat "$T/raw.out")"
"$TRACECTL" status | grep "^Triggers" >/dev/null && fail "triggers armed after a refusal"
"$RAW_START" triggers "$T/snaps" >"$T/raw.out" || fail "raw-start: $(cat "$T/raw.out")"
grep -q "^error 0:" "$T/raw.out" || fail "root's directory refused: $(cat "$T/raw.out")"
"$TRACECTL" stop >/dev/null || fail "stop"

# Taken: root's own; the group tracing may write (the flight recorder's).
"$TRACECTL" start -o "$T/ok.fxt" --mode circular --kernel=off --trigger jank \
	--snapshot-dir "$T/snaps" >"$T/start.out" ||
	fail "root's 0755 directory: $(cat "$T/start.out")"
"$TRACECTL" stop >/dev/null || fail "stop"
if getent group tracing >/dev/null; then
	chgrp tracing "$T/group"
	chmod 2770 "$T/group"
	"$TRACECTL" start -o "$T/ok.fxt" --mode circular --kernel=off \
		--trigger jank --snapshot-dir "$T/group" >"$T/start.out" ||
		fail "a root:tracing 2770 directory: $(cat "$T/start.out")"
	"$TRACECTL" stop >/dev/null || fail "stop"
else
	echo "snapshot_dir: no group tracing; its directory not tried"
fi
echo "snapshot_dir: another user's, a shared or a linked directory refused"
