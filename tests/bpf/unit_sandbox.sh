#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtraced.service's sandbox holds on this machine: as an ordinary uid
# with only the unit's AmbientCapabilities= (CAP_BPF CAP_PERFMON, no
# CAP_SYS_ADMIN), the manager records a BPF trace of the named-thread
# ping-pong; and every system call it makes doing so (strace) is one the
# unit's SystemCallFilter= allows.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
   ! command -v setpriv >/dev/null || ! command -v strace >/dev/null ||
   ! command -v systemd-analyze >/dev/null; then
	echo "skip: needs root, kernel BTF, setpriv, strace and systemd-analyze"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${PINGPONG:?}" "${CHECK_KERNEL:?}" "${FXTRACED_SERVICE:?}"
export FXTRACE_SOCKET="$T/run/manager.sock"

caps=$(unit_caps)
[ -n "$caps" ] || fail "no AmbientCapabilities= in the unit"
[ "$(unit_value CapabilityBoundingSet)" = "$(unit_value AmbientCapabilities)" ] ||
	fail "the bounding set is not the ambient set"
echo "capabilities: $caps"

install -d -o nobody "$T/run"
install -m 755 "$FXTRACED" "$T/fxtraced"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	--inh-caps="-all,$caps" --ambient-caps="-all,$caps" \
	--bounding-set="-all,$caps" \
	strace -f -qq -o "$T/run/strace.txt" "$T/fxtraced" \
	--socket "$FXTRACE_SOCKET" --allow-uid 0 >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
# setpriv execs strace, whose one child is fxtraced.
daemon=$(tr -d " " <"/proc/$MGR/task/$MGR/children")
BG_PIDS="$BG_PIDS $daemon"
[ "$(awk '/^Uid:/ { print $2 }' "/proc/$daemon/status")" != 0 ] ||
	fail "fxtraced runs as root"

for mode in streaming oneshot; do
	"$TRACECTL" record -o "$T/$mode.fxt" --mode "$mode" --kernel=bpf -- \
		"$PINGPONG" 2000 0 >"$T/$mode.out" ||
		fail "tracectl record --kernel=bpf --mode $mode with $caps"
	ids=$(grep -o 'ping=[0-9]* pong=[0-9]* pid=[0-9]*' "$T/$mode.out") ||
		fail "no ping-pong output"
	set -- $(echo "$ids" | tr '=' ' ' | awk '{ print $2, $4, $6 }')
	"$CHECK_KERNEL" "$T/$mode.fxt" "$1" "$2" "$3" ||
		fail "$mode: kernel section check with $caps"
done
kill -TERM "$daemon"
wait "$MGR" || fail "fxtraced exited with status $?"
MGR=""
BG_PIDS=""

# The allowed set: the filter's groups expanded, nested groups too, less
# what its "~" lines refuse.
expand() {
	local s
	for s in "$@"; do
		case "$s" in
		@*) expand $(systemd-analyze syscall-filter "$s" 2>/dev/null |
			     awk '/^ +[@a-z]/ { print $1 }') ;;
		*) echo "$s" ;;
		esac
	done
}
unit_value SystemCallFilter | sed -n 's/^~//p' | tr ' ' '\n' >"$T/refused.txt"
# shellcheck disable=SC2046
expand $(unit_value SystemCallFilter | grep -v '^~') | sort -u |
	grep -vx -F -f "$T/refused.txt" >"$T/allowed.txt"
[ "$(wc -l <"$T/allowed.txt")" -gt 100 ] || fail "could not expand the filter"
sed -E 's/^[0-9]+ +//; s/\(.*//' "$T/run/strace.txt" |
	grep -E '^[a-z_0-9]+$' | sort -u >"$T/used.txt"
[ "$(wc -l <"$T/used.txt")" -gt 10 ] || fail "strace saw no system calls"
outside=$(comm -23 "$T/used.txt" "$T/allowed.txt")
[ -z "$outside" ] || fail "system calls the unit's filter would refuse: $outside"
echo "unit_sandbox: ok ($(wc -l <"$T/used.txt") system calls, all allowed)"
