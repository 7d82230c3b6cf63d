#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtraced killed (SIGKILL) mid-trace and started again, as systemd's
# Restart= does, in each mode: the providers (the real library) keep
# recording meanwhile and hand their buffers back, and tracectl stop
# writes an archive with every record written before the kill and
# after, marked as recovered; the archive passes tracectl dump --strict,
# a record the kill left torn cut away.
# With --kernel=bpf (where BPF works: root, BTF), the restarted manager
# captures the kernel again: the archive has kernel records (oneshot and
# circular: streaming's kernel section never stops growing, so the
# archive cannot be seen to settle before the kill). Last, the archive
# comes back as systemd's descriptor store passes it (LISTEN_FDS).
. "$(dirname "$0")/lib.sh"

: "${RESUME_PROVIDER:?}"
# The first call site waits until the trace is joined (a ceiling).
export FXTRACE_START_WAIT_MS=60000
STATE="$T/state"

start_restartable() {
	start_manager --state-dir "$STATE"
}

# As systemd restarts it: the archive from the descriptor store, fd 3
# named fxt-archive (LISTEN_FDS, LISTEN_FDNAMES, LISTEN_PID).
start_from_store() {
	bash -c 'export LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=fxt-archive
		exec "$0" --socket "$1" --allow-uid "$2" --state-dir "$3" 3<>"$4"' \
		"$FXTRACED" "$FXTRACE_SOCKET" "$(id -u)" "$STATE" "$1" \
		>"$T/fxtraced.log" 2>&1 &
	MGR=$!
	poll "$TRACECTL" status
}

# start_resuming NAME EVENTS MORE [PACE]: a library provider that writes
# lost NAME: records provider NAME lost, as the stop's table says (DROPS).
# Streaming: a half the manager had not saved yet when a loaded machine's
# writer filled the other loses its records, counted (DROPS, the
# archive's overflow records): every event is there or counted lost.
# The other modes keep all: 0.
lost() {
	local n=0
	[ "$mode" != streaming ] ||
		n=$(awk -v n="$1" '$1 == n { print $5 }' "$T/stop.out")
	[ -n "$n" ] || fail "$mode: no DROPS for $1 in the stop's table"
	echo "$n"
}

# EVENTS events, then MORE once $T/go-NAME exists.
start_resuming() {
	: >"$T/$1.out"	# not the child's redirection: see start_provider
	"$RESUME_PROVIDER" --name "$1" --events "$2" --more "$3" \
		--go "$T/go-$1" --pace-us "${4:-0}" >"$T/$1.out" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	eval "pid_$(echo "$1" | tr -c 'a-z0-9\n' _)=$!"
}

wrote_more() {
	grep -q '^wrote-more' "$T/$1.out"
}

hidden_file() {
	ls -a "$T" | grep -x "\.$1\.fxt\.......*" | head -1
}

# The archive's hidden file stops growing: what was saved is on disk.
settled_size() {
	a=$(stat -c %s "$T/$1")
	sleep 0.2
	[ "$a" = "$(stat -c %s "$T/$1")" ]
}

kernel_works() {
	[ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]
}

runs="oneshot:off circular:off streaming:off"
if kernel_works; then
	runs="$runs oneshot:bpf circular:bpf"
else
	echo "restart: no BPF here (needs root and kernel BTF); kernel runs skipped"
fi

for run in $runs oneshot:off:store; do
	mode=$(echo "$run" | cut -d: -f1)
	kernel=$(echo "$run" | cut -d: -f2)
	how=$(echo "$run" | cut -d: -f3)
	opts="--kernel=$kernel"
	pace=0
	if [ "$mode" = streaming ]; then
		# 64K buffers: halves of 28K, saved many times before the kill.
		opts="$opts --buffer-size 64K"
		pace=2000
	fi
	start_restartable
	rm -f "$T/$mode.fxt" "$T/$mode.fxt.old" "$T"/go-*
	"$TRACECTL" start -o "$T/$mode.fxt" --mode "$mode" $opts
	start_resuming "alpha-$mode" 3000 500 "$pace"
	start_resuming "beta-$mode" 1000 200 "$pace"
	wait_wrote "alpha-$mode"
	wait_wrote "beta-$mode"
	hidden=$(hidden_file "$mode")
	[ -n "$hidden" ] || fail "$mode: no hidden archive beside the output"
	poll settled_size "$hidden"
	if [ "$mode" = streaming ]; then
		[ "$(stat -c %s "$T/$hidden")" -gt 40000 ] ||
			fail "streaming: too little saved before the kill for a test"
	fi
	kill -KILL "$MGR"
	wait "$MGR" 2>/dev/null || true
	MGR=""
	[ -e "$STATE/trace-state" ] || fail "$mode: no trace state kept in $STATE"
	[ ! -e "$T/$mode.fxt" ] || fail "$mode: an archive appeared at the output"
	# A write the kill cut short: a record header whose record is not
	# all there (an event of 2 words, 1 present). The restart cuts it.
	whole=$(stat -c %s "$T/$hidden")
	printf '\044\000\000\000\000\000\000\000' >>"$T/$hidden"
	# No manager: the providers record on, into their buffers.
	touch "$T/go-alpha-$mode" "$T/go-beta-$mode"
	poll wrote_more "alpha-$mode"
	poll wrote_more "beta-$mode"

	if [ "$how" = store ]; then
		start_from_store "$T/$hidden"
		grep -q "came from the service manager's descriptor store" "$T/fxtraced.log" ||
			fail "$run: the stored archive was not taken"
	else
		start_restartable
	fi
	grep -q "Trace .* resumed after a restart of fxtraced: $T/$mode.fxt keeps $whole bytes" "$T/fxtraced.log" ||
		fail "$mode: the restarted manager did not resume the trace with the $whole whole bytes"
	poll grep -q "Provider alpha-$mode.*its buffer back" "$T/fxtraced.log"
	poll grep -q "Provider beta-$mode.*its buffer back" "$T/fxtraced.log"
	"$TRACECTL" status >"$T/status.out"
	grep -q "^State: tracing" "$T/status.out" && grep -q "^Output: $T/$mode.fxt" "$T/status.out" ||
		fail "$mode: status after the restart: $(cat "$T/status.out")"
	grep -q "^Archive: resumed after a restart of fxtraced: 2 of 2 provider(s) handed their buffers back" "$T/status.out" ||
		fail "$mode: status does not say the trace was resumed"
	"$TRACECTL" stop | tee "$T/stop.out"
	[ -e "$T/$mode.fxt" ] || fail "$mode: no archive at the output"
	check "$T/$mode.fxt"
	lost=$(lost "alpha-$mode")
	expect_field "alpha-$mode" events $((3500 - lost))
	expect_field "alpha-$mode" distinct $((3500 - lost))
	expect_field "alpha-$mode" imax 3499
	if [ "$lost" -eq 0 ]; then
		expect_field "alpha-$mode" overflow 0
	else
		[ "$(field "alpha-$mode" overflow)" -gt 0 ] ||
			fail "$mode: $lost records lost and no overflow record says so"
	fi
	expect_field "alpha-$mode" recovered 1
	lost=$(lost "beta-$mode")
	expect_field "beta-$mode" events $((1200 - lost))
	expect_field "beta-$mode" distinct $((1200 - lost))
	expect_field "beta-$mode" recovered 1
	expect_field trace recovered 1
	if [ "$kernel" != off ]; then
		[ "$(field kernel sched)" -gt 0 ] ||
			fail "$run: no kernel records after the restart"
		grep -q "Trace .* resumed .*kernel bpf" "$T/fxtraced.log" ||
			fail "$run: the kernel capture did not start again"
	fi
	grep -q "recovered" "$T/dump.out" ||
		fail "$mode: tracectl dump does not show the recovery"
	[ ! -e "$STATE/trace-state" ] || fail "$mode: the trace state outlived the trace"
	stop_manager
	for p in $BG_PIDS; do kill -9 "$p" 2>/dev/null || true; done
	BG_PIDS=""
done
echo "restart: ok"
