#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Stack samples of a hostile local user's processes, recorded by a root
# manager with --kernel=bpf: the archive names no function of a file that
# user could not read, tells nothing of the kernel's layout, and the stop
# stays bounded however the user's files are made.
# - a 0711 (runnable, unreadable) root binary run by the user: unnamed
#   (the same binary at 0755: named, so the names are looked for);
# - a user namespace with a bind mount over a root-only path, and a
#   private mount namespace the same way: the user's own file is named,
#   never the root-only one the path leads to in the manager's root;
# - the mapped file's directory swapped for a symlink to a root-only
#   directory, and to one holding a FIFO: the user's file named, the path
#   never opened for reading (strace of the manager);
# - a kernel address planted as a return address on the user's stack:
#   "[kernel]", with no name of the kernel's;
# - a hundred hard links to a 1M-symbol ELF run at once, and an ELF
#   claiming a 640 MB .symtab (sparse): the stop ends, the manager's peak
#   memory grows by under 256 MB, the one file is read once, the claim is
#   refused; figures printed; while that stop names frames (seconds of
#   it), the manager answers status: each answer's round trip timed by
#   conn-flood (no tracectl start in it), the median within 100 ms.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${HOSTILE_SECRET:?}" "${HOSTILE_VISIBLE:?}" "${GEN_BIG_ELF:?}" "${CONN_FLOOD:?}"

USER_ID=4242
SECRET=TOPSECRET_root_only_inner
VISIBLE=user_visible_inner

AS_USER=(setpriv --reuid $USER_ID --regid $USER_ID --clear-groups)

# record NAME CMD...: CMD recorded into $T/NAME.fxt, stack samples only.
record() {
	name=$1
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M --categories kernel:sample \
		-- "$@" >"$T/$name.out" 2>&1 || fail "$name: tracectl record"
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/$name.dump" 2>&1 ||
		fail "$name: tracectl dump --strict"
}

has() {
	grep -aqF -- "$2" "$T/$1.fxt"
}

unnamed_secret() {
	! has "$1" $SECRET || fail "$1: the root-only $SECRET is named"
	has "$1" "$VISIBLE" || fail "$1: the user's own $VISIBLE is not named"
}

# Root's files; the user's, in a directory of theirs.
H=$T/h
U=$T/u
mkdir -m 0755 "$H" "$H/rootonly" "$H/fifodir" "$U"
install -m 0711 "$HOSTILE_SECRET" "$H/secret-0711"
install -m 0755 "$HOSTILE_SECRET" "$H/secret-0755"
install -m 0700 "$HOSTILE_SECRET" "$H/rootonly/app"
mkfifo -m 0666 "$H/fifodir/app"
for d in swap swap-fifo; do
	mkdir "$U/$d"
	cp "$HOSTILE_VISIBLE" "$U/$d/app"
done
cp "$HOSTILE_VISIBLE" "$U/visible"
chown -R $USER_ID:$USER_ID "$U"

start_manager

record a0755 "${AS_USER[@]}" "$H/secret-0755" 2
has a0755 $SECRET || fail "a0755: a readable binary's function is not named"
record a0711 "${AS_USER[@]}" "$H/secret-0711" 2
! has a0711 $SECRET || fail "a0711: an unreadable binary's function is named"

record userns "${AS_USER[@]}" unshare -Urm sh -c \
	"mount --bind '$U/visible' '$H/rootonly/app' && exec '$H/rootonly/app' 2"
unnamed_secret userns
record mountns unshare -m sh -c \
	"mount --bind '$U/visible' '$H/rootonly/app' && exec setpriv --reuid $USER_ID --regid $USER_ID --clear-groups '$H/rootonly/app' 2"
unnamed_secret mountns

record swap "${AS_USER[@]}" "$U/swap/app" 2 --swap "$U/swap" "$H/rootonly"
unnamed_secret swap

# The manager's opens, for this recording: a manager started under
# strace with a seccomp filter stops at its opens alone (attached with
# -p, strace stops it at every system call: on a loaded machine it then
# drops most samples and mappings, and the user's function goes unnamed).
stop_manager
strace -f -qq --seccomp-bpf -e trace=open,openat,openat2 \
	-o "$T/strace.log" "$FXTRACED" --socket "$FXTRACE_SOCKET" \
	--allow-uid "$(id -u)" >"$T/fxtraced.log" 2>&1 &
STRACE=$!
BG_PIDS="$BG_PIDS $STRACE"
poll "$TRACECTL" status
record swap-fifo "${AS_USER[@]}" "$U/swap-fifo/app" 2 --swap "$U/swap-fifo" "$H/fifodir"
pkill -TERM -P "$STRACE" -x fxtraced
wait "$STRACE" || fail "swap-fifo: the manager under strace exited with $?"
start_manager
has swap-fifo "$VISIBLE" || fail "swap-fifo: the user's own $VISIBLE is not named"
if grep -F 'swap-fifo/app' "$T/strace.log" | grep -v O_PATH | grep -q .; then
	grep -F 'swap-fifo/app' "$T/strace.log"
	fail "swap-fifo: the manager opened the swapped path for reading"
fi

# An entry stub no 64-bit process runs: its name must not come out.
ksym=$(awk '$3 ~ /^__ia32_sys_/ && $2 ~ /^[tT]$/ { print $1, $3; exit }' /proc/kallsyms)
[ -n "$ksym" ] && [ "${ksym%% *}" != 0000000000000000 ] ||
	fail "no __ia32_sys_ symbol in /proc/kallsyms"
kaddr=$(printf '%#x' $((0x${ksym%% *} + 0x10)))
record planted "${AS_USER[@]}" "$U/visible" 2 --plant "$kaddr"
! has planted "${ksym#* }" || fail "planted: ${ksym#* } named from a user's stack"
has planted "[kernel]" || fail "planted: no [kernel] frame"
has planted spin_planted || fail "planted: the user's own spin_planted is not named"

# A hundred links to a million symbols, and a claimed 640 MB .symtab.
python3 "$GEN_BIG_ELF" "$U/big" 1000000
python3 "$GEN_BIG_ELF" "$U/sparse" 1000 671088640
chmod 0755 "$U/big" "$U/sparse"
for i in $(seq 1 100); do ln "$U/big" "$U/big.$i"; done
# Copies are files of their own: naming them takes seconds.
for i in $(seq 1 6); do cp "$U/big" "$U/copy.$i"; done
chown -R $USER_ID:$USER_ID "$U"
"$TRACECTL" start -o "$T/big.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories kernel:sample >"$T/big.start" 2>&1 ||
	fail "big: $(cat "$T/big.start")"
SPIN=""
for i in $(seq 1 100); do
	"${AS_USER[@]}" "$U/big.$i" &
	SPIN="$SPIN $!"
done
for i in $(seq 1 6); do
	"${AS_USER[@]}" "$U/copy.$i" &
	SPIN="$SPIN $!"
done
"${AS_USER[@]}" "$U/sparse" &
SPIN="$SPIN $!"
BG_PIDS="$BG_PIDS $SPIN"
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$MGR/status"; }
# The manager's CPU time, in clock ticks.
cpu() { awk '{ print $14 + $15 }' "/proc/$MGR/stat"; }
before=$(hwm)
sleep 3 # the spinners sampled
# Gone before the stop: their mappings and open files are kept.
# shellcheck disable=SC2086
kill -9 $SPIN
# shellcheck disable=SC2086
wait $SPIN 2>/dev/null || true
# status_ms: one tracectl status, its wall time in ms (the process's own
# start included), appended to $T/status.ms.
status_ms() {
	s0=$(date +%s%N)
	"$TRACECTL" status >/dev/null 2>&1 || fail "big: tracectl status failed"
	s1=$(date +%s%N)
	echo $(((s1 - s0) / 1000000)) >>"$T/status.ms"
}
median_ms() { sort -n "$T/status.ms" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }'; }
: >"$T/status.ms"
for i in $(seq 1 10); do status_ms; done
idle=$(median_ms)
c0=$(cpu)
t0=$(date +%s%N)
"$TRACECTL" stop >"$T/big.stop" 2>&1 &
STOP=$!
# The manager answers while the stop names frames: each status timed,
# by tracectl runs and by conn-flood's round trips beside them.
"$CONN_FLOOD" timed 20 >"$T/status.us" 2>"$T/timed.err" &
TIMED=$!
BG_PIDS="$BG_PIDS $TIMED"
slowest=0
answers=0
: >"$T/status.ms"
while kill -0 $STOP 2>/dev/null; do
	status_ms
	last=$(tail -n 1 "$T/status.ms")
	[ "$last" -le "$slowest" ] || slowest=$last
	answers=$((answers + 1))
done
kill $TIMED
median=$(median_ms)
wait $STOP || fail "big: $(cat "$T/big.stop")"
t1=$(date +%s%N)
c1=$(cpu)
took=$(((t1 - t0) / 1000000))
echo "big: $answers status answers during the stop (tracectl run each time), median $median ms, the slowest $slowest ms (idle before it: median $idle ms)"
# Not a timing: a status that waited for the names would wait about as
# long as the stop; one served meanwhile, a fraction of it, and several
# are answered. The median, not the slowest: a loaded machine may leave
# one tracectl waiting for a CPU as long as the stop.
[ "$answers" -ge 3 ] && [ $((median * 2)) -lt "$took" ] ||
	fail "big: $answers status answers, median $median ms (the slowest $slowest), during a stop of $took ms"
rounds=$(wc -l <"$T/status.us")
rt_median=$(sort -n "$T/status.us" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }')
rt_slowest=$(sort -n "$T/status.us" | tail -n 1)
echo "big: $rounds status round trips during the stop, median $rt_median us, the slowest $rt_slowest us (load average $(cut -d' ' -f1 /proc/loadavg))"
# The manager's own answer: the median within 100 ms, loaded or not (a
# busy machine delays some answers, not most).
[ "$rounds" -ge 3 ] || fail "big: $rounds status round trips: $(cat "$T/timed.err")"
[ "$rt_median" -le 100000 ] ||
	fail "big: status answered in a median $rt_median us during the stop (over 100 ms)"
after=$(hwm)
grow=$(((after - before) / 1024))
echo "big: stop took $took ms ($(((c1 - c0) * 1000 / $(getconf CLK_TCK))) ms of the manager's CPU), manager peak +$grow MB ($before -> $after kB)"
[ "$grow" -lt 256 ] || fail "big: the manager grew by $grow MB"
"$TRACECTL" dump --strict "$T/big.fxt" >"$T/big.dump" 2>&1 ||
	fail "big: tracectl dump --strict"
has big big_fn_ || fail "big: the 1M-symbol file's functions are not named"

stop_manager
echo "stacks_hostile: ok"
