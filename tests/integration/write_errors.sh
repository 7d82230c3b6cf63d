#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Write errors tell the truth: a full file system (a 2 MiB tmpfs in a
# private mount namespace), RLIMIT_FSIZE (EFBIG, no SIGXFSZ death), the
# archive's file removed mid-trace. The archive ends at a whole record
# (dump --strict passes), the stop table counts what the archive holds,
# status shows the error while the trace runs, stop exits 1 and says
# why; streaming writes again once there is room, the providers holding
# their records meanwhile (proto-provider waits for SAVED: it loses
# nothing), and then the archive lacks nothing.
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
	! command -v prlimit >/dev/null; then
	echo "write_errors: needs root, unshare and prlimit; skipped"
	exit 77
fi
if [ -z "${FXT_PRIVATE_MOUNTS:-}" ]; then
	FXT_PRIVATE_MOUNTS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

mkdir "$T/small"
mount -t tmpfs -o size=2m tmpfs "$T/small"
trap 's=$?; set +e; umount -l "$T/small" 2>/dev/null; (exit $s); cleanup' EXIT

# stop_into_files: tracectl stop, its output in stop.out and stop.err,
# its exit status in $status.
stop_into_files() {
	set +e
	"$TRACECTL" stop >"$T/stop.out" 2>"$T/stop.err"
	status=$?
	set -e
	cat "$T/stop.out" "$T/stop.err"
}

status_says() {
	"$TRACECTL" status | grep "^Archive: .*$1" >/dev/null
}

# records NAME FILE: the RECORDS column of the stop table.
records() {
	awk -v n="$1" '$1 == n { print $3 }' "$2"
}

# The table counts what the archive holds: its events and the provider's
# string and thread records, nothing claimed beyond.
expect_table_matches_archive() {
	n=$(records "$1" "$2")
	ev=$(field "$1" events)
	st=$(field "$1" strings)
	[ -n "$n" ] || fail "no table line for $1"
	[ "$n" -eq $((ev + st + 1)) ] ||
		fail "$1: the table says $n records, the archive holds $ev events and $st strings"
}

start_manager

# Streaming into a full file system, then room again.
head -c 1600k /dev/zero >"$T/small/filler"
start_provider big --events 40000 --stay
"$TRACECTL" start -o "$T/small/s.fxt" --mode streaming --buffer-size 64K \
	--kernel=off >/dev/null
poll status_says "writing $T/small/s.fxt fails: No space left on device"
rm "$T/small/filler"
wait_wrote big
poll status_says "then resumed"
"$TRACECTL" stop >"$T/stop.out" 2>"$T/stop.err" ||
	{ cat "$T/stop.out" "$T/stop.err"; fail "stop after the disk had room again failed"; }
grep -q "failed for a while (No space left on device)" "$T/stop.out" ||
	fail "stop does not say writing failed for a while"
check "$T/small/s.fxt"
expect_table_matches_archive big "$T/stop.out"
expect_field big events 40000
expect_field big distinct 40000
grep -q "Writing $T/small/s.fxt again" "$T/fxtraced.log" || fail "writing did not resume"
[ "$(grep -c "Failed to write $T/small/s.fxt" "$T/fxtraced.log")" -le 2 ] ||
	fail "a log line per failed write"
rm -f "$T/small/s.fxt"
kill -9 $BG_PIDS
BG_PIDS=""

# Oneshot, written at stop onto a disk too small for it: whole providers
# or none, the table says which.
head -c 1900k /dev/zero >"$T/small/filler"
start_provider one --events 1000 --stay
start_provider two --events 20000 --stay
"$TRACECTL" start -o "$T/small/o.fxt" --buffer-size 1M --kernel=off >/dev/null
wait_wrote one
wait_wrote two
stop_into_files
[ "$status" -eq 1 ] || fail "stop onto a full disk exited $status"
check "$T/small/o.fxt"
expect_field one events 1000
[ "$(records two "$T/stop.out")" -eq 0 ] || fail "two is counted, it did not fit"
[ -z "$(field two events)" ] || fail "two has events in the archive"
rm -f "$T/small/o.fxt" "$T/small/filler"
kill -9 $BG_PIDS
BG_PIDS=""

# Kernel capture (BPF, where it works here) streaming onto a full disk:
# the kernel records that could not be written are not counted.
head -c 1950k /dev/zero >"$T/small/filler"
if "$TRACECTL" start -o "$T/small/k.fxt" --mode streaming --kernel=bpf \
	>/dev/null 2>&1; then
	poll status_says "fails: No space left on device"
	stop_into_files
	[ "$status" -eq 1 ] || fail "stop with kernel records lost exited $status"
	grep -q "incomplete: .*No space left on device" "$T/stop.err" || fail "stop does not say why"
	check "$T/small/k.fxt"
	claimed=$(records kernel "$T/stop.out")
	held=$("$TRACECTL" dump "$T/small/k.fxt" | sed -n 's/^ *[0-9]* "kernel": \([0-9]*\) records.*/\1/p')
	[ -n "$claimed" ] && [ "$claimed" -le "${held:-0}" ] ||
		fail "the table claims $claimed kernel records, the archive holds ${held:-0}"
else
	echo "write_errors: no BPF kernel capture here; its part skipped"
fi
rm -f "$T/small/k.fxt" "$T/small/filler"
stop_manager

# Past RLIMIT_FSIZE: EFBIG, handled like a full disk, not SIGXFSZ.
prlimit --fsize=300000 "$FXTRACED" --socket "$FXTRACE_SOCKET" \
	--allow-uid "$(id -u)" >"$T/fxtraced.log" 2>&1 &
MGR=$!
poll "$TRACECTL" status
start_provider limited --events 100000 --stay
"$TRACECTL" start -o "$T/f.fxt" --mode streaming --buffer-size 64K \
	--kernel=off >/dev/null
poll status_says "File too large"
kill -0 "$MGR" || fail "fxtraced died past RLIMIT_FSIZE"
stop_into_files
[ "$status" -eq 1 ] || fail "stop past RLIMIT_FSIZE exited $status"
grep -q "incomplete: .*File too large" "$T/stop.err" || fail "stop does not say why"
check "$T/f.fxt"
expect_table_matches_archive limited "$T/stop.out"
[ "$(stat -c %s "$T/f.fxt")" -le 300000 ] || fail "the archive passed the limit"
kill -9 $BG_PIDS
BG_PIDS=""
stop_manager

# The archive's file removed mid-trace: stop says so, claims no archive.
start_manager
start_provider gone --events 100 --stay
"$TRACECTL" start -o "$T/u.fxt" --kernel=off >/dev/null
wait_wrote gone
rm "$T"/.u.fxt.??????
poll status_says "was removed"
stop_into_files
[ "$status" -eq 1 ] || fail "stop of a removed archive exited $status"
! grep -q "Trace written" "$T/stop.out" || fail "stop claims an archive that is gone"
grep -q "was removed" "$T/stop.err" || fail "stop does not say the file was removed"
[ ! -e "$T/u.fxt" ] || fail "u.fxt exists"
stop_manager
echo "write_errors: ok"
