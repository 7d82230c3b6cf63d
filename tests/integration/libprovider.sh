#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The real provider library (libprovider/examples fxt-example) against the
# real manager: a provider that joins a running trace, one traced with
# tracectl record in each mode, and one killed mid-trace. Archives must
# pass tracectl dump --strict.
. "$(dirname "$0")/lib.sh"

if [ -z "${FXT_EXAMPLE:-}" ]; then
	echo "libprovider: fxt-example not built; skipped"
	exit 77
fi

strict_dump() {
	"$TRACECTL" dump --strict "$1" >"$T/dump.out" 2>&1 ||
		{ tail -20 "$T/dump.out"; fail "tracectl dump --strict $1"; }
}

count() {
	grep -c "$1" "$T/dump.out" || true
}

# The first call site waits until the trace is joined (a ceiling, not a
# delay): no event is written before START, whatever the machine's load.
export FXTRACE_START_WAIT_MS=60000

start_manager
for mode in oneshot circular streaming; do
	"$TRACECTL" record -o "$T/$mode.fxt" --mode "$mode" --kernel=off -- \
		"$FXT_EXAMPLE" --iterations 200 --threads 2 | tee "$T/rec.out"
	grep -q '^fxt-example .*(exited)' "$T/rec.out" || fail "$mode: no fxt-example in stop output"
	check "$T/$mode.fxt"
	strict_dump "$T/$mode.fxt"
	grep -q '"fxt-example"' "$T/dump.out" || fail "$mode: provider name missing"
	[ "$(count 'name="tick"')" -gt 0 ] || fail "$mode: no tick events"
	[ "$(count 'name="done"')" -eq 1 ] || fail "$mode: the last event (done) is missing"
	# the progress counter: iterations left, down to 1, never below
	[ "$(count 'name="progress" id=[0-9]* iterations=199 remaining=1$')" -eq 2 ] ||
		fail "$mode: progress does not count down to 1"
done

# Bound by time instead, progress counts the milliseconds left, never
# below 0 (not iterations "left" of none given).
"$TRACECTL" record -o "$T/seconds.fxt" --kernel=off -- \
	"$FXT_EXAMPLE" --seconds 1 --threads 1 >/dev/null
strict_dump "$T/seconds.fxt"
[ "$(count 'name="progress" id=[0-9]* iterations=[0-9]* remaining_ms=[0-9]*$')" -gt 0 ] ||
	fail "--seconds: no progress in milliseconds left"
if grep -q 'name="progress".*=-' "$T/dump.out"; then
	fail "--seconds: a negative progress counter"
fi

# The C++ example, from each C++ compiler: every request's scope is in
# the archive, those left by an exception too. No start wait of ours:
# record sets it for the command, so that its first events are kept.
for cxx in ${FXT_EXAMPLES_CXX:-}; do
	env -u FXTRACE_START_WAIT_MS "$TRACECTL" record -o "$T/cxx.fxt" \
		--kernel=off -- "$cxx" 100 >"$T/rec.out"
	grep -q '^100 requests, 14 failed$' "$T/rec.out" || fail "$cxx: bad run"
	strict_dump "$T/cxx.fxt"
	[ "$(count 'name="handle"')" -eq 100 ] || fail "$cxx: handle events lost"
	[ "$(count 'name="failed"')" -eq 14 ] || fail "$cxx: failed events lost"
	[ "$(count 'name="bytes"')" -eq 57 ] || fail "$cxx: counter events lost"
	# the instants named by TRACE_DYN(method)
	[ "$(count 'instant .* name="get"')" -eq 34 ] || fail "$cxx: get events lost"
	[ "$(count 'instant .* name="list"')" -eq 33 ] || fail "$cxx: list events lost"
done

# Every macro, with literal and TRACE_DYN names, from a C++17 program of
# each compiler: every event it wrote is in the archive, which conforms;
# the dynamic names are there, each string record once.
apps=0
for app in ${FXT_EVERY_MACRO_APPS:-}; do
	env -u FXTRACE_START_WAIT_MS "$TRACECTL" record -o "$T/every.fxt" \
		--kernel=off -- "$app" 5 >"$T/rec.out"
	wrote=$(sed -n 's/^every-macro-app: \([0-9]*\) events$/\1/p' "$T/rec.out")
	[ -n "$wrote" ] && [ "$wrote" -gt 100 ] || fail "$app: bad run: $(cat "$T/rec.out")"
	strict_dump "$T/every.fxt"
	got=$(grep -E '^0x[0-9a-f]+ +(instant|counter|duration_[a-z]+|async_[a-z]+|flow_[a-z]+) ' \
		"$T/dump.out" | grep -c 'name="cxx-' || true)
	[ "$got" -eq "$wrote" ] || fail "$app: $got of its $wrote events in the archive"
	echo "${app##*/}: $wrote events written, $got in the archive"
	[ "$(count 'name="cxx-dyn-7"')" -ge 5 ] || fail "$app: TRACE_DYN names missing"
	[ "$(grep -cE ' string +#[0-9]+ "cxx-dyn-7"$' "$T/dump.out")" -eq 1 ] ||
		fail "$app: the dynamic name not interned once"
	apps=$((apps + 1))
done
[ "$apps" -ge 1 ] || fail "no every-macro-app built"

# A command that cannot run is an error before any trace starts.
rc=0
"$TRACECTL" record -o "$T/none.fxt" -- "$T/no-such-command" 2>"$T/err" || rc=$?
[ "$rc" -eq 127 ] || fail "record of a missing command exited $rc"
grep -q 'no trace was started' "$T/err" || fail "no message for a missing command"
[ ! -s "$T/none.fxt" ] || fail "an archive was written for a missing command"

# Categories reach the provider: only example.io events are written.
"$TRACECTL" record -o "$T/cat.fxt" --categories example.io --kernel=off -- \
	"$FXT_EXAMPLE" --iterations 50 --threads 1 >/dev/null
strict_dump "$T/cat.fxt"
[ "$(count 'category="example.io"')" -gt 0 ] || fail "no example.io events"
[ "$(count 'category="example" ')" -eq 0 ] || fail "category example was not filtered"

# A live provider that fills its oneshot buffer: STOP, STOPPED, and its
# drops reported by tracectl stop and in the archive.
"$FXT_EXAMPLE" --seconds 600 --threads 2 >/dev/null &
ex=$!
BG_PIDS="$BG_PIDS $ex"
poll provider_connected fxt-example
"$TRACECTL" start -o "$T/full.fxt" --buffer-size 64K --kernel=off
full() {
	"$TRACECTL" status | grep -E '^  fxt-example .*\((9[0-9]|100)%\)' >/dev/null
}
poll full
"$TRACECTL" stop | tee "$T/stop.out"
drops=$(awk '$1 == "fxt-example" { print $5 }' "$T/stop.out")
[ "$drops" -gt 0 ] || fail "a full buffer reported no drops"
grep -q '^fxt-example .*(exited)' "$T/stop.out" && fail "the live provider shows as exited"
check "$T/full.fxt"
strict_dump "$T/full.fxt"
expect_field fxt-example overflow 1
kill "$ex"

# Joins a running trace, is killed mid-trace: whole records are kept.
"$TRACECTL" start -o "$T/kill.fxt" --kernel=off
"$FXT_EXAMPLE" --seconds 60 --threads 2 >/dev/null &
ex=$!
BG_PIDS="$BG_PIDS $ex"
has_data() {
	"$TRACECTL" status | grep '^  fxt-example .* buffer [1-9]' >/dev/null
}
poll has_data
kill -9 "$ex"
"$TRACECTL" stop | tee "$T/stop.out"
grep -q '^fxt-example .*(exited)' "$T/stop.out" || fail "killed provider not reported"
check "$T/kill.fxt"
strict_dump "$T/kill.fxt"
[ "$(count 'name="tick"')" -gt 0 ] || fail "killed provider: no events kept"
stop_manager
echo "libprovider: ok"
