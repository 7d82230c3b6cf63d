#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtraced with --kernel=bpf killed (SIGKILL) mid-trace under a service
# manager with a descriptor store (tests/integration/fdstore.py does what
# systemd does with FDSTORE=1, FDSTOREREMOVE=1 and LISTEN_FDS), in each
# mode: the store keeps the BPF ring map, programs and links, so the
# programs write on while no manager runs; the restarted manager takes
# them back and tracectl stop writes an archive, marked recovered, with
# context switches from before the kill, from while no manager ran and
# after the restart; the stop lets the store's links go (the programs
# detach). Last, a store without its trace's state is emptied at start.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
	! command -v python3 >/dev/null; then
	echo "skip: needs root, kernel BTF and python3"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
STORED="$T/stored"
STATE="$T/state"

uptime_ns() {
	awk '{ printf "%.0f\n", $1 * 1e9 }' /proc/uptime
}

# stored ROLE: how many descriptors of ROLE of the kernel capture the store keeps.
stored() {
	grep -c "^fxt-kernel-$1-" "$STORED" || true
}

no_manager() {
	! "$TRACECTL" status
}

ring_stored() {
	[ "$(stored bpf-ring)" = 1 ]
}

start_stored
for mode in oneshot circular streaming; do
	"$TRACECTL" start -o "$T/$mode.fxt" --mode "$mode" --kernel=bpf >"$T/start.out" ||
		fail "$mode: tracectl start --kernel=bpf"
	sleep 0.5
	ring_stored || fail "$mode: the ring map is not in the store: $(cat "$STORED")"
	links=$(grep -c "^fxt-kernel-bpf-link-.* anon_inode:bpf_link" "$STORED" || true)
	if [ "$links" = 0 ] || [ "$links" != "$(stored bpf-prog)" ]; then
		fail "$mode: the store keeps $links links: $(cat "$STORED")"
	fi
	killed_at=$(uptime_ns)
	kill -USR1 "$MGR"
	poll no_manager
	# No manager: the programs write on into the ring map the store keeps.
	sleep 1
	restarted_at=$(uptime_ns)
	kill -USR2 "$MGR"
	poll "$TRACECTL" status
	grep -q "Trace .* resumed after a restart of fxtraced: .*kernel bpf, its capture taken back from the descriptor store" "$T/fxtraced.log" ||
		fail "$mode: the BPF capture was not taken back"
	sleep 0.5
	"$TRACECTL" stop >"$T/stop.out" || { cat "$T/stop.out"; fail "$mode: tracectl stop"; }
	check "$T/$mode.fxt"
	grep -q "recovered" "$T/dump.out" || fail "$mode: the archive is not marked recovered"
	grep " context_switch " "$T/dump.out" | sed -n 's/.* ts=\([0-9]*\).*/\1/p' |
		sort -n >"$T/switches"
	before=$(awk -v k="$killed_at" '$1 < k' "$T/switches" | wc -l)
	between=$(awk -v k="$killed_at" -v r="$restarted_at" '$1 > k && $1 < r' "$T/switches" | wc -l)
	after=$(awk -v r="$restarted_at" '$1 > r' "$T/switches" | wc -l)
	echo "$mode: context switches before the kill $before, without a manager $between, after the restart $after"
	[ "$before" -gt 0 ] || fail "$mode: no context switch from before the kill"
	[ "$between" -gt 0 ] || fail "$mode: no context switch from while no manager ran"
	[ "$after" -gt 0 ] || fail "$mode: no context switch from after the restart"
	# The store lets go of everything: the links close, the programs detach.
	poll [ ! -s "$STORED" ]
done

# A trace killed, its state gone: the restarted manager lets the store's
# descriptors go rather than keep programs attached for nothing.
"$TRACECTL" start -o "$T/orphan.fxt" --kernel=bpf >"$T/start.out" ||
	fail "orphan: tracectl start --kernel=bpf"
poll ring_stored
kill -USR1 "$MGR"
poll no_manager
rm -f "$STATE/trace-state"
kill -USR2 "$MGR"
poll "$TRACECTL" status
poll [ ! -s "$STORED" ]
grep -q "^State: idle" <("$TRACECTL" status) || fail "orphan: a trace runs"
echo "restart_store_bpf: ok"
