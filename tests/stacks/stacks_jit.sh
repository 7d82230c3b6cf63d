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
#   map is /tmp/perf-1.map in a tmpfs only its root shows): named;
# - node --perf-prof run by the user in a directory of theirs, no perf
#   map at all: its jitdump (jit-PID.dump, which node v20 writes in its
#   working directory and maps executable) names hotA and hotB, hotA
#   with more self samples; the manager's log counts the dump's reads;
# - the jitdump of node --perf-prof replaced, once mapped and before the
#   trace starts, by a symlink to a root-only jitdump or by another
#   user's: neither is ever read (their names never appear; each trace's
#   log counts a jitdump refused and none read).
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
	if [ -e "/tmp/perf-$pid.map" ]; then
		touch "$T/$name.had-perf-map"
	fi
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

# named NAME WHAT: NAME's summary names hotA and hotB as node wrote them,
# hotA with more self samples; WHAT says which node it was.
named() {
	local a b
	a=$(self "$1" "hotA $SCRIPT:")
	b=$(self "$1" "hotB $SCRIPT:")
	echo "stacks_jit: $2: hotA $a, hotB $b self samples;" \
		"top: $(jq -c '[.functions[] | {name, self}][:4]' "$T/$1.sum")"
	[ "$b" -ge 20 ] || fail "$1: hotB is not named in its samples ($b)"
	[ "$a" -gt "$b" ] ||
		fail "$1: hotA ($a) has no more samples than hotB ($b)"
	jq -e '[.functions[] | select(.name | test("^JS:[*~^]?hot[AB] /"))] |
		length >= 2' "$T/$1.sum" >/dev/null ||
		fail "$1: the functions are not named as node wrote them"
}

start_manager

record node "${AS_USER[@]}" "$NODE" --perf-basic-prof "$SCRIPT" 2.5
named node "node --perf-basic-prof"
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

# node --perf-prof alone: its names can come from its jitdump only.
JITDIR=$T/jitdir
install -d -o $USER_ID -g $USER_ID "$JITDIR"
logged=$(wc -l <"$T/fxtraced.log")
cd "$JITDIR"
record prof "${AS_USER[@]}" "$NODE" --perf-prof "$SCRIPT" 2.5
cd "$OLDPWD"
pid=$(cat "$T/prof.pid")
[ ! -e "$T/prof.had-perf-map" ] || fail "prof: node --perf-prof wrote a perf map"
[ -s "$JITDIR/jit-$pid.dump" ] || fail "prof: no jit-$pid.dump in its directory"
named prof "node --perf-prof, $JITDIR/jit-$pid.dump of $(stat -c %s \
	"$JITDIR/jit-$pid.dump") bytes"
said=$(tail -n +"$((logged + 1))" "$T/fxtraced.log" | grep "JIT dumps read")
echo "stacks_jit: prof: ${said#*: }"
grep -q "JIT dumps read [1-9][0-9]* times" <<<"$said" ||
	fail "prof: the manager's log does not count the jitdump's reads"

# jitdump NAME CODE: one load naming all of user space NAME, on stdout.
jitdump() {
	python3 -c 'import struct, sys
name = sys.argv[1].encode() + b"\0"
hdr = struct.pack("=IIIIIIQQ", 0x4A695444, 1, 40, 62, 0, 1, 0, 0)
load = struct.pack("=IIQIIQQQQ", 0, 56 + len(name), 0, 1, 1,
		   0x1000, 0x1000, 0x7ffffffff000 - 0x1000, 1)
sys.stdout.buffer.write(hdr + load + name)' "$1"
}

# hostile NAME MAKE...: node --perf-prof run by the user in a directory
# of theirs; once it maps its jitdump, MAKE given the dump's path; then
# a trace while it runs. Nothing is read before: the trace starts after.
hostile() {
	local name=$1 dir=$T/$1.dir pid
	shift
	install -d -o $USER_ID -g $USER_ID "$dir"
	(cd "$dir" && exec "${AS_USER[@]}" "$NODE" --perf-prof "$SCRIPT" 60) \
		>"$T/$name.node.out" 2>&1 &
	pid=$!
	for _ in $(seq 1500); do
		grep -q "/jit-$pid.dump" "/proc/$pid/maps" 2>/dev/null && break
		sleep 0.02
	done
	grep -q "/jit-$pid.dump" "/proc/$pid/maps" ||
		fail "$name: node did not map its jitdump"
	"$@" "$dir/jit-$pid.dump"
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M --categories kernel:sample \
		--sample-rate 997 -- sleep 2 >"$T/$name.out" 2>&1 ||
		fail "$name: tracectl record"
	kill "$pid"
	wait "$pid" || true
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/$name.dump" 2>&1 ||
		fail "$name: tracectl dump --strict"
	"$TRACECTL" summary --json --pid "$pid" "$T/$name.fxt" >"$T/$name.sum" ||
		fail "$name: summary --json --pid"
	[ "$(self "$name" "")" -ge 20 ] || fail "$name: node was not sampled"
}

# swap_as UID NAME PATH: PATH replaced whole by a jitdump naming NAME,
# owned by UID.
swap_as() {
	jitdump "$2" >"$T/planted.dump"
	chown "$1:$1" "$T/planted.dump"
	mv -f "$T/planted.dump" "$3"
}

# swap_link TARGET PATH: PATH replaced by a symlink to TARGET.
swap_link() {
	ln -s "$1" "$2.link"
	mv -f "$2.link" "$2"
}

logged=$(wc -l <"$T/fxtraced.log")
hostile dother swap_as $OTHER_ID OTHER_USER_DUMP_NAME
! grep -aqF OTHER_USER_DUMP_NAME "$T/dother.fxt" ||
	fail "dother: another user's jitdump names the process's frames"
jitdump TOPSECRET_ROOT_DUMP >"$T/root.dump"
chmod 0600 "$T/root.dump"
hostile dlink swap_link "$T/root.dump"
! grep -aqF TOPSECRET_ROOT_DUMP "$T/dlink.fxt" ||
	fail "dlink: a symlink to a root-only jitdump was read"
said=$(tail -n +"$((logged + 1))" "$T/fxtraced.log" | grep "JIT dumps read")
echo "$said" | sed 's/^.*: JIT/stacks_jit: hostile: JIT/'
n=$(grep -c "JIT dumps read 0 times, [1-9][0-9]* refused" <<<"$said" || true)
[ "$n" -eq 2 ] || fail "the refused jitdumps are not counted in each trace ($n)"

stop_manager
echo "stacks_jit: ok"
