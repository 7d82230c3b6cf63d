#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A trace state names a file for the restarted manager to cut, write and
# have renamed: it is believed only from a directory the manager's uid
# alone can write. An unprivileged user plants a state naming a file of
# root's in a world-writable directory; root's fxtraced on a socket
# there keeps no state there, and neither it nor root's tracectl stop
# touches the file. Also refused, each logged with its reason: a state
# directory given through a symbolic link, or of another owner; a state
# file of mode 0644 or of another owner; an archive of another owner
# than the trace's, or not named as tracectl names one; a snapshot
# directory that changed owner, for the triggers.
. "$(dirname "$0")/lib.sh"

: "${PLANT_STATE:?}"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "planted_state: needs root and setpriv; skipped"
	exit 77
fi
unset RUNTIME_DIRECTORY
install -m 755 "$PLANT_STATE" "$T/plant-state"
install -m 755 "$TRACECTL" "$T/tracectl"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
NOBODY=$(id -u nobody)
SECRET="root's own file: no trace state may cut, write or move it."

# Root's files, in a directory only root can write.
install -d -m 755 "$T/root"
# new_victim NAME: a root-owned file $T/root/NAME holding $SECRET.
new_victim() {
	printf '%s' "$SECRET" >"$T/root/$1"
	chmod 644 "$T/root/$1"
}
# untouched NAME: it is still there, as it was, and nothing took its place.
untouched() {
	[ "$(cat "$T/root/$1" 2>/dev/null)" = "$SECRET" ] ||
		fail "$1 was changed or moved: $(ls -la "$T/root")"
	[ ! -e "$T/root/victim.fxt" ] || fail "$1 was renamed to victim.fxt"
}
logged() {
	grep -qF -- "$1" "$T/fxtraced.log" ||
		fail "no log line '$1': $(cat "$T/fxtraced.log")"
}
# no_trace: nothing was resumed, and a stop puts nothing in place.
no_trace() {
	"$TRACECTL" status >"$T/status.out"
	grep -q "^State: idle" "$T/status.out" ||
		fail "a trace runs: $(cat "$T/status.out")"
	"$TRACECTL" stop >"$T/stop.out" 2>&1 || true
	! grep -q "resumed after a restart" "$T/fxtraced.log" || fail "a trace was resumed"
}

# The helper writes a state the manager takes: from its own directory,
# naming an archive as tracectl names one, of the trace's owner.
install -d -m 700 "$T/state"
: >"$T/root/.ok.fxt.Ab12cD"
"$T/plant-state" "$T/state" "$T/root/ok.fxt" .ok.fxt.Ab12cD 0 0
start_manager --state-dir "$T/state"
logged "resumed after a restart of fxtraced: $T/root/ok.fxt keeps 0 bytes"
"$TRACECTL" stop >/dev/null
[ -s "$T/root/ok.fxt" ] || fail "the resumed trace was not put in place"
stop_manager

# The attack: nobody plants a state in a world-writable directory, naming
# root's file (its inode, owner 0, a hidden name that fits, a finish mark
# to cut it at); root's manager listens on a socket there.
install -d -m 1777 "$T/shared"
new_victim .victim.fxt.Zz9Yy8
as_nobody "$T/plant-state" "$T/shared" "$T/root/victim.fxt" .victim.fxt.Zz9Yy8 0 17
[ "$(stat -c %U "$T/shared/trace-state")" = nobody ] || fail "the plant is not nobody's"
export FXTRACE_SOCKET="$T/shared/fxt.sock"
start_manager
logged "Not keeping the running trace's state in $T/shared: it is writable by others (mode 1777)"
no_trace
untouched .victim.fxt.Zz9Yy8
[ -e "$T/shared/trace-state" ] || fail "the manager removed a file in $T/shared"
stop_manager
export FXTRACE_SOCKET="$T/manager.sock"

# plant DIR NAME OWNER [RUNNER...]: a state naming $T/root/NAME in DIR,
# written by RUNNER (e.g. as_nobody; none: root).
plant() {
	dir=$1 name=$2 owner=$3
	shift 3
	rm -f "$dir/trace-state"
	"$@" "$T/plant-state" "$dir" "$T/root/victim.fxt" "$name" "$owner" 17
}
# refused WHY ARGS...: the manager started with ARGS logs WHY, resumes
# nothing and leaves the victim as it was.
refused() {
	why=$1
	shift
	: >"$T/fxtraced.log"
	start_manager "$@"
	logged "$why"
	no_trace
	untouched .victim.fxt.Zz9Yy8
	stop_manager
}

# A state directory given through a symbolic link another user made, or
# could replace. (One of root's, where only root can write, is followed:
# systemd makes RuntimeDirectory= so under DynamicUser=.)
plant "$T/state" .victim.fxt.Zz9Yy8 0
install -d -o nobody -m 755 "$T/nobodys-links"
as_nobody ln -s "$T/state" "$T/nobodys-links/link"
refused "Not keeping the running trace's state in $T/nobodys-links/link: it is a symbolic link of uid $NOBODY" \
	--state-dir "$T/nobodys-links/link"
install -d -m 1777 "$T/open"
ln -s "$T/state" "$T/open/link"
refused "Not keeping the running trace's state in $T/open/link: it is a symbolic link in a directory other users can write" \
	--state-dir "$T/open/link"
# A state directory of another owner, or writable by its group.
install -d -o nobody -m 700 "$T/nobodys"
plant "$T/nobodys" .victim.fxt.Zz9Yy8 0 as_nobody
refused "Not keeping the running trace's state in $T/nobodys: it is owned by uid $NOBODY, not uid 0" \
	--state-dir "$T/nobodys"
install -d -m 770 "$T/grouped"
plant "$T/grouped" .victim.fxt.Zz9Yy8 0
refused "Not keeping the running trace's state in $T/grouped: it is writable by its group (mode 0770)" \
	--state-dir "$T/grouped"

# A state file another could have written: mode 0644, another owner.
plant "$T/state" .victim.fxt.Zz9Yy8 0
chmod 644 "$T/state/trace-state"
refused "Ignoring the trace state in $T/state: its mode is 0644, not 0600" \
	--state-dir "$T/state"
plant "$T/state" .victim.fxt.Zz9Yy8 0
chown nobody "$T/state/trace-state"
refused "Ignoring the trace state in $T/state: it is owned by uid $NOBODY, not uid 0" \
	--state-dir "$T/state"

# A state of the manager's own naming a file not of the trace's owner,
# or not by a name tracectl gives.
plant "$T/state" .victim.fxt.Zz9Yy8 "$NOBODY"
refused "is not taken again: it is owned by uid 0, not uid $NOBODY that started the trace" \
	--state-dir "$T/state"
new_victim notes.txt
plant "$T/state" notes.txt 0
refused "is not taken again: it is not a name tracectl gives an archive beside its output" \
	--state-dir "$T/state"
untouched notes.txt

# Triggers: their snapshot directory changed owner while no manager ran.
install -d -o nobody -m 755 "$T/own" "$T/snaps"
start_manager --state-dir "$T/state" --allow-uid nobody
as_nobody "$T/tracectl" start -o "$T/own/t.fxt" --mode circular \
	--kernel=off --trigger jank --snapshot-dir "$T/snaps" >/dev/null
kill -KILL "$MGR"
wait "$MGR" 2>/dev/null || true
MGR=""
chown 4242 "$T/snaps"
start_manager --state-dir "$T/state" --allow-uid nobody
logged "resumed after a restart of fxtraced: $T/own/t.fxt"
logged "its triggers are not armed again: their snapshot directory $T/snaps is owned by uid 4242, neither uid $NOBODY that armed them nor root"
"$TRACECTL" status | grep "^Triggers" >/dev/null && fail "triggers armed on a directory of another owner"
as_nobody "$T/tracectl" stop >/dev/null
stop_manager
echo "planted_state: ok"
