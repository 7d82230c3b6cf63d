#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Archives of the real manager into a real clickhouse-server: a trace
# (with the kernel's scheduling and stack samples when this machine can
# capture them), a snapshot of a circular trace, and a trace of a
# manager and provider in a time namespace whose BOOTTIME runs 300 s
# ahead (another "host" as far as clocks go), with the kernel's
# scheduling when this machine can capture it: the kernel stamps those
# records with its own BOOTTIME, the manager moves them to its
# namespace's, or they land 300 s early. Every event of each lands
# in ClickHouse (counts equal tracectl summary --json and tracectl dump
# per archive), and every row's REALTIME falls between the test's own
# readings of the wall clock before and after, the namespace's 300 s of
# BOOTTIME taken out.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/counts.sh"

ch_dir=$T/clickhouse
trap 'st=$?; "$CLICKHOUSE_SERVER" stop "$ch_dir" >/dev/null 2>&1; (exit $st); cleanup' EXIT
rc=0
URL=$("$CLICKHOUSE_SERVER" start "$ch_dir") || rc=$?
[ "$rc" -ne 77 ] || exit 77
[ "$rc" -eq 0 ] || fail "cannot start clickhouse-server"

wall() { date +%s%N; }
real0=$(wall)
start_manager
kernel=off
sampling=()
"$TRACECTL" start -o "$T/probe.fxt" --kernel=bpf >/dev/null 2>&1 &&
	"$TRACECTL" stop >/dev/null && kernel=bpf &&
	sampling=(--categories kernel:sched,kernel:proc,kernel:sample,kernel:offcpu
		  --sample-rate 997)
start_provider p --events 2000
"$TRACECTL" start -o "$T/a.fxt" --kernel=$kernel "${sampling[@]}" >/dev/null
wait_wrote p
"$TRACECTL" stop >/dev/null
start_provider q --events 2000
"$TRACECTL" start -o "$T/c.fxt" --mode circular --kernel=off >/dev/null
wait_wrote q
"$TRACECTL" snapshot -o "$T/s.fxt" >/dev/null
"$TRACECTL" stop >/dev/null
stop_manager
archives=("$T/a.fxt" "$T/s.fxt")

if [ "$(id -u)" -eq 0 ] && unshare --time --boottime 300 --fork true 2>/dev/null; then
	ns=(unshare --time --boottime 300 --kill-child)
	export FXTRACE_SOCKET="$T/ns.sock"
	"${ns[@]}" "$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
		>"$T/fxtraced.log" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	poll "$TRACECTL" status
	: >"$T/n.out"
	"${ns[@]}" "$PROTO_PROVIDER" --name n --events 2000 >"$T/n.out" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	poll provider_connected n
	ns_sched=()
	[ "$kernel" = off ] || ns_sched=(--categories kernel:sched)
	"$TRACECTL" start -o "$T/n.fxt" --kernel=$kernel "${ns_sched[@]}" \
		>/dev/null
	wait_wrote n
	"$TRACECTL" stop >/dev/null
	archives+=("$T/n.fxt")
else
	echo "export_daemon: no time namespace here; that part skipped"
fi
real1=$(wall)

"$TRACECTL" export -c "$URL" "${archives[@]}" || fail "export: exit $?"
for f in "${archives[@]}"; do
	id=$("$TRACECTL" summary --json "$f" | jq -r .host.trace_id)
	want=$(expected_counts "$f")
	got=$(stored_counts "$id")
	[ "$got" = "$want" ] || fail "${f##*/}: stored $got, the archive holds $want"
	[ "$(stored_switch_ins "$id")" = "$(expected_switch_ins "$f")" ] ||
		fail "${f##*/}: switch-ins differ from summary's"
	echo "${f##*/} (kernel $kernel): $got"
	for t in $EVENT_TABLES; do
		out=$(q "SELECT countIf(ts < $real0 OR ts > $real1) FROM fxtrace.$t WHERE trace_id = '$id'")
		[ "$out" = 0 ] || fail "${f##*/}: $out rows of $t outside the wall-clock window $real0..$real1"
	done
	n=$(q "SELECT count() FROM fxtrace.instants WHERE trace_id = '$id' AND category != 'fxtrace'")
	[ "$n" -gt 0 ] || fail "${f##*/}: no provider instant stored"
done
# With the kernel's stack samples, some are stored, with their names.
if [ "$kernel" = bpf ]; then
	id=$("$TRACECTL" summary --json "$T/a.fxt" | jq -r .host.trace_id)
	n=$(q "SELECT count() FROM fxtrace.samples WHERE trace_id = '$id' AND notEmpty(stack) AND stack[1] != ''")
	[ "$n" -gt 0 ] || fail "a.fxt: no stack sample with a named stack stored"
	echo "a.fxt: $n samples with their stacks"
fi
echo "export_daemon: ok"
