#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl start --memory-budget: the trace's buffers (every provider's,
# the kernel rings of every CPU) stay within it. Buffer sizes not given
# come from it (an eighth of it per provider; the kernel rings half of
# it, a power of two per CPU); a provider whose buffer would go over it
# gets none, stays connected, and start, status and the journal say why;
# in circular mode the buffer of a provider gone makes room for one that
# comes (logged); the archive holds the providers that have a buffer. A
# budget too small for what was asked is refused with the reason; a size
# that is not one is a usage error. Status shows the trace's name and the budget.
. "$(dirname "$0")/lib.sh"

kernel_works() {
	[ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]
}

refused() {
	start_refused "$expect" "$@"
	"$TRACECTL" status | grep "^State: idle" >/dev/null || fail "start $* left a trace"
}

start_manager
expect=2
refused "--memory-budget lots: give bytes" --memory-budget lots
refused "--memory-budget 1K: give bytes" --memory-budget 1K
refused "--name a/b: a name is" --name a/b
"$TRACECTL" start --help | grep -- "--memory-budget SIZE" >/dev/null ||
	fail "start --help does not describe --memory-budget"
expect=1
refused "a provider buffer of 65536 bytes does not fit the 8192 bytes" \
	--memory-budget 8K --buffer-size 64K --kernel=off
if kernel_works; then
	refused "cannot hold the kernel rings of" --memory-budget 4096 --kernel=bpf
	refused "leaves nothing of the memory budget of 1048576 bytes" \
		--memory-budget 1M --kernel=bpf --kernel-buffer-size 1M
fi

# Derived: 256K, no kernel: 32K a provider.
"$TRACECTL" start -o "$T/derived.fxt" --mode circular --kernel=off \
	--memory-budget 256K >"$T/start.out"
grep -q "^Memory budget: 262144 bytes, 0 in use, 32768 per provider buffer" \
	"$T/start.out" || fail "derived size: $(cat "$T/start.out")"
"$TRACECTL" stop >/dev/null

# Three buffers of 64K fit in 200000 bytes, the fourth provider gets none.
for n in p1 p2 p3 p4; do
	start_provider "$n" --events 50 --stay
	eval "pid_$n=$!"
done
"$TRACECTL" start -o "$T/b.fxt" --mode circular --kernel=off \
	--name flight-recorder --buffer-size 64K --memory-budget 200000 \
	>"$T/start.out"
grep -q "1 provider(s) got no buffer: the trace's buffers reached its memory budget of 200000 bytes" \
	"$T/start.out" || fail "start does not say who got no buffer: $(cat "$T/start.out")"
"$TRACECTL" status >"$T/status.out"
grep -q "^Name: flight-recorder" "$T/status.out" || fail "status: no name"
grep -q "^Memory budget: 200000 bytes, 196608 in use (buffers of 65536 bytes per provider)" \
	"$T/status.out" || fail "status: no budget: $(cat "$T/status.out")"
[ "$(grep -c "not tracing: the trace's buffers reached its memory budget (tracectl start --memory-budget)" "$T/status.out")" = 1 ] ||
	fail "status does not say which provider has no buffer: $(cat "$T/status.out")"
grep -q "Provider p[1-4]\[[0-9]*\] gets no buffer: trace .* holds 196608 bytes of its memory budget of 200000, a buffer is 65536 (tracectl start --memory-budget)" \
	"$T/fxtraced.log" || fail "the refusal is not logged"
# One more provider later: none either.
start_provider p5 --events 50 --stay
"$TRACECTL" status | grep -E "^  p5 .*not tracing: the trace's buffers reached its memory budget" >/dev/null ||
	fail "a provider joining later went over the budget"
for n in p1 p2 p3 p4; do
	if ! "$TRACECTL" status | grep -E "^  $n .*not tracing" >/dev/null; then
		wait_wrote "$n"
	fi
done
# Circular: a provider gone gives its buffer up to one that comes.
gone=$(grep -E "^  p[1-4] .* buffer " "$T/status.out" | head -n 1 | awk '{ print $1 }')
[ -n "$gone" ] || fail "no provider with a buffer: $(cat "$T/status.out")"
wait_wrote "$gone"
eval "kill -9 \$pid_$gone"
exited() {
	"$TRACECTL" status | grep -E "^  $gone .*\(exited\)" >/dev/null
}
poll exited
start_provider p6 --events 50 --stay
"$TRACECTL" status >"$T/status.out"
grep -Eq "^  p6 .* buffer " "$T/status.out" ||
	fail "the buffer of $gone, gone, made no room: $(cat "$T/status.out")"
grep -q "^  $gone " "$T/status.out" && fail "$gone, its buffer given up, is still listed"
grep -q "^Memory budget: 200000 bytes, 196608 in use" "$T/status.out" ||
	fail "status: the budget after the eviction: $(cat "$T/status.out")"
grep -q "Provider $gone\[[0-9]*\], gone, leaves trace .*: its buffer makes room within the memory budget" \
	"$T/fxtraced.log" || fail "the eviction is not logged"
wait_wrote p6
for n in p1 p2 p3 p4; do
	if [ "$n" != "$gone" ] && "$TRACECTL" status | grep -E "^  $n .* buffer " >/dev/null; then
		wait_wrote "$n"
	fi
done
"$TRACECTL" stop >/dev/null
check "$T/b.fxt" >/dev/null
got=0
for n in p1 p2 p3 p4 p5 p6; do
	[ -z "$(field "$n" events)" ] || { expect_field "$n" events 50; got=$((got + 1)); }
done
[ "$got" = 3 ] || fail "$got providers in the archive, the budget holds 3"
[ -z "$(field "$gone" events)" ] || fail "$gone's buffer, given up, is in the archive"
expect_field p6 events 50

if kernel_works; then
	# Half of 64M for the kernel: a power of two per possible CPU.
	"$TRACECTL" start -o "$T/k.fxt" --mode circular --kernel=bpf \
		--memory-budget 64M >"$T/start.out"
	line=$(grep "memory budget 67108864 bytes" "$T/fxtraced.log")
	per=$(echo "$line" | sed -n 's/.*kernel rings \([0-9]*\) per CPU x \([0-9]*\).*/\1/p')
	cpus=$(echo "$line" | sed -n 's/.*kernel rings \([0-9]*\) per CPU x \([0-9]*\).*/\2/p')
	[ -n "$per" ] && [ $((per & (per - 1))) = 0 ] && [ $((per * cpus)) -le 33554432 ] &&
		[ $((per * cpus * 2)) -gt 33554432 ] ||
		fail "kernel rings from the budget: $line"
	"$TRACECTL" status >"$T/status.out"
	used=$(sed -n 's/^Memory budget: 67108864 bytes, \([0-9]*\) in use.*/\1/p' "$T/status.out")
	# Five providers of 1M (the default, under an eighth) and the rings.
	[ "$used" = $((per * cpus + 5 * 1048576)) ] ||
		fail "bytes in use $used, expected the rings and five buffers: $(cat "$T/status.out")"
	sleep 0.3
	"$TRACECTL" stop >/dev/null
	check "$T/k.fxt" >/dev/null
	[ "$(field kernel sched)" -gt 0 ] || fail "no kernel records within the budget"
else
	echo "memory_budget: no BPF here (needs root and kernel BTF); kernel run skipped"
fi
stop_manager

# After a restart of the manager, the providers of before it that do not
# come back (they died meanwhile) give their share up once the resume
# deadline (3 s) passed.
start_manager --state-dir "$T/state"
for n in r1 r2; do
	start_provider "$n" --events 50 --stay
	eval "pid_$n=$!"
done
"$TRACECTL" start -o "$T/r.fxt" --mode circular --kernel=off \
	--buffer-size 64K --memory-budget 131072 >/dev/null
wait_wrote r1
wait_wrote r2
kill -9 "$MGR" "$pid_r1" "$pid_r2"
wait "$MGR" 2>/dev/null || true
start_manager --state-dir "$T/state"
grep -q "Trace .* resumed after a restart of fxtraced" "$T/fxtraced.log" ||
	fail "the trace was not resumed"
sleep 4
start_provider r3 --events 50 --stay
"$TRACECTL" status >"$T/status.out"
grep -Eq "^  r3 .* buffer " "$T/status.out" ||
	fail "the providers that did not come back kept their share: $(cat "$T/status.out")"
grep -q "Provider r[12]\[[0-9]*\] of before the restart did not come back: its share of the memory budget goes to a provider that comes" \
	"$T/fxtraced.log" || fail "giving their share up is not logged"
wait_wrote r3
"$TRACECTL" stop >/dev/null
check "$T/r.fxt" >/dev/null
expect_field r3 events 50
stop_manager
echo "memory_budget: ok"
