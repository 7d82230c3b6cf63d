#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl snapshot while a circular trace runs, with a real provider
# writing instants as fast as it can and BPF kernel capture: 20 snapshots,
# each a complete archive of its own (check-archive, dump --strict) with
# the provider's events and the kernel's records, the newest of each no
# older than a second before the request (a stale copy; how fresh it is
# is printed, a measure: on a loaded machine the writer itself may not
# run for tens of milliseconds); the trace goes on and its stop
# writes a complete archive. Refused with a message without a trace and
# for a mode that keeps everything; nothing is left behind then. Prints
# the provider's event rate with and without snapshots (a measure, not
# asserted). A sanitized build (FXT_SANITIZED) copies slower than its
# provider writes, so a snapshot may hold none of its events there (none
# torn all the same).
. "$(dirname "$0")/lib.sh"

: "${INSTANT_RATE:?}"
# A provider starts writing once it joined the trace.
export FXTRACE_START_WAIT_MS=60000
SNAPSHOTS=20
FRESH_NS=1000000000

if [ "$(id -u)" -ne 0 ]; then
	echo "snapshot: needs root for BPF kernel capture; skipped"
	exit 77
fi

# refused WHY FILE: the snapshot fails, says WHY, and leaves no file.
refused() {
	if "$TRACECTL" snapshot -o "$2" >"$T/refused.out" 2>&1; then
		fail "snapshot succeeded: $(cat "$T/refused.out")"
	fi
	grep -q "$1" "$T/refused.out" ||
		fail "snapshot refusal does not say '$1': $(cat "$T/refused.out")"
	[ ! -e "$2" ] || fail "a refused snapshot left $2"
	! ls -A "$(dirname "$2")" | grep "^\.$(basename "$2")" >/dev/null ||
		fail "a refused snapshot left its temporary file"
}

# now NAME KEY: field of the newest provider NAME (the last one started).
now() {
	field "$1" "$2" | tail -n 1
}

# in_order I: the provider's events in the last check count up, each
# with its argument (none torn, none twice, halves oldest first), plus its
# "first" instant at most. What the provider wrote into the chunk the copy
# had just passed may be missing (counted in $gaps).
gaps=0
in_order() {
	events=$(now instant-rate events)
	ievents=$(now instant-rate ievents)
	backs=$(now instant-rate backs)
	[ "$backs" -eq 0 ] && [ $((events - ievents)) -le 1 ] ||
		fail "snapshot $1: events=$events ievents=$ievents backs=$backs: a record torn, out of order or twice"
	gaps=$((gaps + $(now instant-rate breaks)))
}

# rate_run OUT: runs instant-rate until $T/go appears (rate_end).
rate_run() {
	rm -f "$T/go"
	"$INSTANT_RATE" --run-until "$T/go" >"$T/$1" &
	rate_pid=$!
	BG_PIDS="$BG_PIDS $rate_pid"
	poll grep -q '^running' "$T/$1"
}

# rate_end OUT: stops it; its events per second in $rate.
rate_end() {
	touch "$T/go"
	wait "$rate_pid" || fail "instant-rate exited with status $?"
	rate=$(awk '$1 == "events" { print $6 }' "$T/$1")
}

start_manager

refused "no trace is running" "$T/none.fxt"
"$TRACECTL" start -o "$T/oneshot.fxt" --mode oneshot --kernel=off >/dev/null
refused "circular" "$T/oneshot-snap.fxt"
"$TRACECTL" stop >/dev/null

"$TRACECTL" start -o "$T/trace.fxt" --mode circular --kernel=bpf \
	--buffer-size 1M || fail "circular trace with --kernel=bpf"
"$TRACECTL" snapshot --help | grep "Usage: tracectl snapshot" >/dev/null ||
	fail "snapshot --help"
set +e
"$TRACECTL" snapshot -o a b >/dev/null 2>&1
[ $? -eq 2 ] || fail "snapshot: a stray argument is not a usage error"
set -e -o pipefail

# The rate without snapshots, then with them, in the same trace.
rate_run rate0.out
sleep 2
rate_end rate0.out
rate0=$rate

rate_run rate1.out
for i in $(seq 1 $SNAPSHOTS); do
	"$INSTANT_RATE" --now >"$T/req$i"
	"$TRACECTL" snapshot -o "$T/snap$i.fxt" >"$T/snap.out" ||
		{ cat "$T/snap.out"; fail "snapshot $i"; }
	grep -q "^Snapshot written to $T/snap$i.fxt" "$T/snap.out" ||
		fail "snapshot $i: $(cat "$T/snap.out")"
	sleep 0.1
done
rate_end rate1.out
rate1=$rate

"$TRACECTL" status | grep "^State: tracing" >/dev/null ||
	fail "the trace did not go on after the snapshots"

oldest_provider=-$FRESH_NS
oldest_kernel=-$FRESH_NS
with_events=0
for i in $(seq 1 $SNAPSHOTS); do
	check "$T/snap$i.fxt" >/dev/null
	req=$(cat "$T/req$i")
	sources=kernel
	if [ "$(now instant-rate events)" -gt 0 ]; then
		sources="instant-rate kernel"
		with_events=$((with_events + 1))
	elif [ -z "${FXT_SANITIZED:-}" ]; then
		fail "snapshot $i: no provider events"
	fi
	[ "$(now instant-rate strings)" -gt 0 ] ||
		fail "snapshot $i: no string records for the provider's events"
	in_order "$i"
	[ "$(field kernel sched)" -gt 0 ] ||
		fail "snapshot $i: no kernel scheduling records"
	[ "$(field kernel kobj)" -gt 0 ] ||
		fail "snapshot $i: no kernel object names"
	for src in $sources; do
		tmax=$(now $src tmax)
		age=$((req - tmax))
		[ "$age" -le $FRESH_NS ] ||
			fail "snapshot $i: the newest $src record is $((age / 1000)) us older than the request"
		if [ $src = kernel ]; then
			[ $age -le $oldest_kernel ] || oldest_kernel=$age
		else
			[ $age -le $oldest_provider ] || oldest_provider=$age
		fi
	done
done

"$TRACECTL" stop >"$T/stop.out"
check "$T/trace.fxt" >/dev/null
[ "$(now instant-rate events)" -gt 0 ] || fail "the trace lost its events"
[ "$(field kernel sched)" -gt 0 ] || fail "the trace lost the kernel records"

echo "snapshot: $with_events of $SNAPSHOTS snapshots through 1 MiB buffers hold provider events, $gaps gaps"

# Halves of 28 KiB, reused hundreds of times a second while copied.
"$TRACECTL" start -o "$T/small.fxt" --mode circular --kernel=bpf \
	--buffer-size 64K --kernel-buffer-size 64K >/dev/null
rate_run rate2.out
gaps=0
for i in $(seq 1 $SNAPSHOTS); do
	"$TRACECTL" snapshot -o "$T/small$i.fxt" >/dev/null ||
		fail "small snapshot $i"
done
rate_end rate2.out
# A provider that wraps such halves faster than they are copied may
# leave a snapshot without its events: never with torn ones.
with_events=0
for i in $(seq 1 $SNAPSHOTS); do
	check "$T/small$i.fxt" >/dev/null
	[ "$(now instant-rate events)" -eq 0 ] ||
		with_events=$((with_events + 1))
	in_order "small $i"
done
echo "snapshot: through 64 KiB buffers, $gaps gaps in all"
"$TRACECTL" stop >/dev/null

echo "snapshot: $SNAPSHOTS snapshots pass check-archive and dump --strict; through 64 KiB buffers $with_events of $SNAPSHOTS hold provider events"
echo "snapshot: the newest record of a snapshot was at most $((oldest_provider / 1000)) us (provider), $((oldest_kernel / 1000)) us (kernel) older than the request (negative: newer)"
echo "snapshot: provider rate $rate0 events/s without snapshots, $rate1 with: $(awk -v a="$rate0" -v b="$rate1" 'BEGIN { printf "%.1f", 100 * b / a }')%"
