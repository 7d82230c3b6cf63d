#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# JIT-compiled code named from its process's /tmp/perf-PID.map, recorded
# by a root manager with --kernel=bpf (kernel:sample):
# - node --perf-basic-prof (Debian's nodejs) run by a local user, two hot
#   functions taking 70% and 30% of a loop: summary --json --pid names
#   both (node v20 writes "JS:*hotA /path/jit_hot.js:7:14"), hotA with
#   more self samples than hotB, in convert's stackFrames and report's
#   flame graph too; the archive stays strict-clean;
# - node without --perf-basic-prof, its map written by the test once the
#   process runs, naming all of user space: owned by the process's user,
#   its name appears (the map is read while the process lives; its
#   malformed line counted in the manager's log); owned by
#   another user, or a symlink to a root-only map, it never does, and the
#   manager counts a file the owner may not read;
# - node --perf-basic-prof in a pid and mount namespace of its own (its
#   map is /tmp/perf-1.map in a tmpfs only its root shows): named.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
NODE=$(command -v node || true)
if [ -z "$NODE" ]; then
	echo "skip: no node"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${JIT_HOT:?}"

USER_ID=4242
OTHER_ID=4343
AS_USER=(setpriv --reuid $USER_ID --regid $USER_ID --clear-groups)
SCRIPT=$T/jit_hot.js
install -m 0644 "$JIT_HOT" "$SCRIPT"

# record NAME CMD...: CMD (its pid in $T/NAME.pid) recorded into
# $T/NAME.fxt; its summary --json --pid into $T/NAME.sum.
record() {
	local name=$1 pid
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M --categories kernel:sample \
		--sample-rate 997 -- bash -c 'echo "pid=$$"; exec "$@"' \
		- "$@" >"$T/$name.out" 2>&1 || fail "$name: tracectl record"
	pid=$(sed -n 's/^pid=//p' "$T/$name.out")
	echo "$pid" >"$T/$name.pid"
	rm -f "/tmp/perf-$pid.map"
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/$name.dump" 2>&1 ||
		fail "$name: tracectl dump --strict"
	"$TRACECTL" summary --json --pid "$pid" "$T/$name.fxt" >"$T/$name.sum" ||
		fail "$name: summary --json --pid"
}

# self NAME FN: the self samples of NAME's functions whose name has FN.
self() {
	jq --arg f "$2" '[.functions[] | select(.name | contains($f)) |
		.self] | add // 0' "$T/$1.sum"
}

start_manager

record node "${AS_USER[@]}" "$NODE" --perf-basic-prof "$SCRIPT" 2.5
a=$(self node "hotA $SCRIPT:")
b=$(self node "hotB $SCRIPT:")
echo "stacks_jit: node --perf-basic-prof: hotA $a, hotB $b self samples;" \
	"top: $(jq -c '[.functions[] | {name, self}][:4]' "$T/node.sum")"
[ "$b" -ge 20 ] || fail "node: hotB is not named in its samples ($b)"
[ "$a" -gt "$b" ] || fail "node: hotA ($a) has no more samples than hotB ($b)"
jq -e '[.functions[] | select(.name | test("^JS:[*~^]?hot[AB] /"))] |
	length >= 2' "$T/node.sum" >/dev/null ||
	fail "node: the functions are not named as node wrote them"
"$TRACECTL" convert "$T/node.fxt" -o "$T/node.json" || fail "node: convert"
jq -e --arg f "hotA $SCRIPT:" '[.stackFrames[] | select(.name |
	contains($f))] | length > 0' "$T/node.json" >/dev/null ||
	fail "node: no stackFrames entry names hotA"
"$TRACECTL" report "$T/node.fxt" -o "$T/node.html" || fail "node: report"
grep -qF "hotA $SCRIPT:" "$T/node.html" ||
	fail "node: the report's flame graph lacks hotA"

# In a pid and mount namespace of its own, with a /tmp of its own: node
# is pid 1 there and writes /tmp/perf-1.map in its tmpfs, which only its
# root shows (summary of every process: the manager's pid is unshare's).
ns_run='s=$(cat "$1"); shift
mount -t tmpfs -o mode=1777 tmpfs /tmp
printf "%s\n" "$s" >/tmp/jit_hot.js
exec "$@" /tmp/jit_hot.js 2.5'
record ns unshare --pid --fork --mount --propagation private \
	sh -c "$ns_run" - "$SCRIPT" "${AS_USER[@]}" "$NODE" --perf-basic-prof
"$TRACECTL" summary --json "$T/ns.fxt" >"$T/ns.sum" ||
	fail "ns: summary --json"
a=$(self ns "hotA /tmp/jit_hot.js:")
b=$(self ns "hotB /tmp/jit_hot.js:")
echo "stacks_jit: in its own pid and mount namespace: hotA $a, hotB $b"
[ "$b" -ge 20 ] && [ "$a" -gt "$b" ] ||
	fail "ns: a JIT in its own namespaces is not named ($a, $b)"

# plant NAME MAKE...: node without a map of its own recorded as NAME;
# once its pid is known, MAKE run with the map's path as its last word.
plant() {
	local name=$1 pid=""
	shift
	(
		for _ in $(seq 200); do
			pid=$(sed -n 's/^pid=//p' "$T/$name.out" 2>/dev/null)
			[ -n "$pid" ] && break
			sleep 0.02
		done
		[ -n "$pid" ] && "$@" "/tmp/perf-$pid.map"
	) &
	record "$name" "${AS_USER[@]}" "$NODE" "$SCRIPT" 1.5
	wait $! || fail "$name: the map was not planted"
}

# map_as UID NAME PATH: a map naming all of user space NAME, owned by UID,
# put in place whole (made by root, it would be root's for a moment, and
# root's maps are read).
map_as() {
	printf 'zz 10 malformed\n1000 7ffffffff000 %s\n' "$2" >"$T/planted"
	chown "$1:$1" "$T/planted"
	mv -f "$T/planted" "$3"
}

plant own map_as $USER_ID USER_OWNED_JIT_NAME
grep -aqF USER_OWNED_JIT_NAME "$T/own.fxt" ||
	fail "own: the user's own perf map is not read"
grep "JIT perf maps read" "$T/fxtraced.log" | tail -n 1 |
	grep -q "read [1-9][0-9]* times, [1-9][0-9]* lines skipped" ||
	fail "own: the malformed line of its map is not counted"

logged=$(wc -l <"$T/fxtraced.log")
plant other map_as $OTHER_ID OTHER_USER_JIT_NAME
! grep -aqF OTHER_USER_JIT_NAME "$T/other.fxt" ||
	fail "other: another user's perf map names the process's frames"

printf '1000 7ffffffff000 TOPSECRET_ROOT_MAP\n' >"$T/root.map"
chmod 0600 "$T/root.map"
plant link ln -s "$T/root.map"
! grep -aqF TOPSECRET_ROOT_MAP "$T/link.fxt" ||
	fail "link: a symlink to a root-only map was read"
n=$(tail -n +"$((logged + 1))" "$T/fxtraced.log" |
	grep -c "unnamed: [1-9][0-9]* their process's owner may not read" ||
	true)
[ "$n" -eq 2 ] || fail "the refused maps are not counted in each trace ($n)"

stop_manager
echo "stacks_jit: ok"
