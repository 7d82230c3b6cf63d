#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Rust crate (libprovider/rust) against the real manager: its example
# making every call of the crate and of its tracing layer, from named
# threads, recorded with tracectl record. The archive passes dump --strict
# and holds exactly the expected events (every_call.expected): each
# thread's name, category, name and arguments; times and addresses left
# out. Twice: tracing through FxtLayer over the registry, then through
# FxtSubscriber; the same events. Built offline by cargo (cargo.sh)
# against this build.
. "$(dirname "$0")/../integration/lib.sh"

: "${RUST_CARGO:?}"
example=$("$RUST_CARGO" example fxtrace-every-call) || {
	status=$?
	[ "$status" -eq 77 ] && { echo "rust: cargo missing; skipped"; exit 77; }
	fail "cargo build of the example"
}

# record_and_check MODE: the example with tracing through MODE (layer or
# subscriber).
record_and_check() {
	local mode=$1 ids expected
	FXTRACE_EXAMPLE_TRACING=$mode env -u FXTRACE_START_WAIT_MS \
		"$TRACECTL" record -o "$T/$mode.fxt" --kernel=off \
		--categories rust,rust.tracing -- "${FOREIGN[@]}" "$example" >"$T/$mode.rec"
	grep -q '^fxtrace-every-call: fib(4) = 3$' "$T/$mode.rec" || fail "$mode: bad run"
	# The registry gives a closed span's id again (its slot's generation
	# wraps): the layer's caches must not take the new span for the old.
	[ "$mode" != layer ] ||
		grep -q '^fxtrace-every-call: span id given again: true$' "$T/$mode.rec" ||
		fail "$mode: the registry gave no span id again: reused ids untested"
	grep -q '^rust-every-call .* 0 dropped' "$T/$mode.rec" ||
		grep -q 'provider rust-every-call (pid [0-9]*): [0-9]* records written, 0 dropped' \
			"$T/$mode.rec" || fail "$mode: events dropped or provider name missing"
	"$TRACECTL" dump --strict "$T/$mode.fxt" >"$T/$mode.dump" 2>&1 ||
		{ tail -20 "$T/$mode.dump"; fail "$mode: tracectl dump --strict"; }

	# A span's duration ends after it begins (the writer reads the end).
	awk '/ duration_complete / {
		match($0, / ts=[0-9]+/); ts = substr($0, RSTART + 4, RLENGTH - 4) + 0
		match($0, / end_ts=[0-9]+/); end = substr($0, RSTART + 8, RLENGTH - 8) + 0
		if (end < ts || !ts) { print; bad = 1 }
	} END { exit bad }' "$T/$mode.dump" || fail "$mode: a duration ends before it begins"

	# Events as "thread-name type category name args", sorted: thread koids
	# become their names, times, pointers and span ids are left out.
	awk '
	/ kernel_object +type=thread / {
		match($0, /koid=[0-9]+/); k = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /name="[^"]*"/); names[k] = substr($0, RSTART + 6, RLENGTH - 7)
		next
	}
	/^0x[0-9a-f]+ +(instant|counter|duration_[a-z]+|async_[a-z]+|flow_[a-z]+) / {
		if ($0 ~ /category="fxtrace"/) next
		line = $0
		sub(/^0x[0-9a-f]+ +/, "", line)
		sub(/ +/, " ", line)
		gsub(/ (end_)?ts=[0-9]+/, "", line)
		gsub(/pointer\(0x[0-9a-f]+\)/, "pointer(ADDR)", line)
		gsub(/id=[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]+/, "id=SPAN", line)
		match(line, / thread=[0-9]+\/[0-9]+/)
		tid = substr(line, RSTART, RLENGTH); sub(/.*\//, "", tid)
		events[n++] = tid SUBSEP line
	}
	END {
		for (i = 0; i < n; i++) {
			split(events[i], e, SUBSEP)
			line = e[2]; sub(/ thread=[0-9]+\/[0-9]+/, "", line)
			print ((e[1] in names) ? names[e[1]] : "unnamed") " " line
		}
	}' "$T/$mode.dump" | LC_ALL=C sort >"$T/$mode.events"
	expected="$(dirname "$0")/every_call.expected"
	diff -u "$expected" "$T/$mode.events" || fail "$mode: the archive's events differ from $expected"

	# The span entered on another thread: one async span, its id that of both.
	ids=$(grep -E 'async_(begin|end) .*name="handoff"' "$T/$mode.dump" |
		sed 's/.* id=\([0-9]*\).*/\1/' | sort -u | wc -l)
	[ "$ids" -eq 1 ] || fail "$mode: the async span's begin and end ids differ"
	grep -q 'kernel_object .*type=process .*name="rust-every-call"' "$T/$mode.dump" ||
		fail "$mode: no process name"
	echo "rust: every call recorded ($mode)"
}

start_manager
record_and_check layer
record_and_check subscriber
