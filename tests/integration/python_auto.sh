#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# python3 -m fxtrace: every Python function call of a script, in every
# thread, a duration; the durations of each thread nest; --include and
# --exclude choose modules. Recorded by tracectl record, the real manager;
# a script of over a million calls loses none under record's defaults.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/py_lib.sh"
app=$(dirname "$0")/py_auto_app.py

# record NAME [options]: the app's events, typed, in $T/NAME.events.
record() {
	name=$1
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=off -- \
		"${FOREIGN[@]}" "$FXT_PYTHON" -m fxtrace "$@" "$app" 10 >"$T/$name.out" 2>&1 ||
		{ cat "$T/$name.out"; fail "$name: tracectl record failed"; }
	grep -q '^fib(10) = 55, caught 1$' "$T/$name.out" ||
		{ cat "$T/$name.out"; fail "$name: the script did not run"; }
	"$TRACECTL" dump --strict "$T/$name.fxt" >"$T/dump.out" 2>&1 ||
		{ tail -20 "$T/dump.out"; fail "$name: tracectl dump --strict"; }
	"$TYPED_EVENTS" "$T/$name.fxt" py_auto_app >"$T/$name.events"
}

# calls NAME FUNCTION [THREAD]: its duration_begin events.
calls() {
	awk -v f="$2" -v t="${3:-}" '$2 == "duration_begin" && $4 == f &&
		(t == "" || $1 == t)' "$T/$1.events" | wc -l
}

# Each thread's begins and ends nest: an end closes the last begin
# open, of the same name; none is left open.
nested() {
	awk '$2 == "duration_begin" { s[$1, ++d[$1]] = $4; next }
	     $2 == "duration_end" {
		if (d[$1] < 1 || s[$1, d[$1]] != $4) {
			print "bad end " $0; bad = 1; exit
		}
		d[$1]--
	     }
	     END { if (bad) exit 1
		   for (t in d) if (d[t]) { print t ": " d[t] " open"; exit 1 } }' "$T/$1.events"
}

start_manager
record all
nested all || fail "all: durations do not nest"
# fib(10): 177 calls; each a begin and an end on the main thread.
[ "$(calls all __main__.fib MainThread)" -eq 177 ] || fail "all: not 177 calls of fib"
[ "$(grep -c ' duration_end python __main__.fib$' "$T/all.events")" -eq 177 ] ||
	fail "all: not 177 returns of fib"
# The exception's unwinding returns too; the generator's every resume.
[ "$(calls all __main__.fails)" -eq 1 ] || fail "all: fails() not traced"
[ "$(calls all __main__.catches)" -eq 1 ] || fail "all: catches() not traced"
[ "$(calls all py_auto_lib.square auto-worker)" -eq 3 ] ||
	fail "all: square() not traced 3 times on the worker thread"
[ "$(calls all py_auto_lib.work.\<locals\>.\<genexpr\> auto-worker)" -eq 4 ] ||
	fail "all: the generator's 4 resumes not traced"
# Not the tracer's own code, nor the runner's.
grep -q ' \(fxtrace\|runpy\)\.' "$T/all.events" && fail "all: the tracer traced itself"

record exclude --exclude py_auto_lib
nested exclude || fail "exclude: durations do not nest"
grep -q ' py_auto_lib\.' "$T/exclude.events" && fail "--exclude py_auto_lib: its functions traced"
[ "$(calls exclude __main__.fib)" -eq 177 ] || fail "exclude: fib not traced"

record include --include py_auto_lib --category pyauto
nested include || fail "include: durations do not nest"
grep -v ' pyauto py_auto_lib\.' "$T/include.events" && fail "--include py_auto_lib: others traced"
[ "$(calls include py_auto_lib.work)" -eq 1 ] || fail "include: work() not traced"

# Over a million calls (2.9 million records) under record's defaults:
# none dropped; the recursion's total is its outermost call; the async
# spans are slices; names whole.
many=$(dirname "$0")/py_many_calls.py
"$TRACECTL" record -o "$T/many.fxt" --kernel=off -- \
	nice -n 10 "${FOREIGN[@]}" "$FXT_PYTHON" -m fxtrace "$many" 28 >"$T/many.out" 2>&1 ||
	{ cat "$T/many.out"; fail "many: tracectl record failed"; }
grep -q '^fib(28) = 317811, fetched 190$' "$T/many.out" ||
	{ cat "$T/many.out"; fail "many: the script did not run"; }
grep "^The command's provider py_many_calls " "$T/many.out"
# None dropped on an idle machine; a loaded one may lose some to a
# manager that waits for a CPU (5.8% seen in CI with the script at the
# manager's priority; it runs niced so that its own load does not add
# to that), said with the fix. What this guards: oneshot's default
# lost 97%.
read -r written dropped < <(sed -n "s/^The command's provider py_many_calls (pid [0-9]*): \([0-9]*\) records written, \([0-9]*\) dropped$/\1 \2/p" "$T/many.out")
[ -n "$written" ] && [ $((dropped * 4)) -le "$written" ] ||
	{ cat "$T/many.out"; fail "many: records dropped by default"; }
[ "$dropped" -eq 0 ] || grep -q -- "--buffer-size" "$T/many.out" ||
	{ cat "$T/many.out"; fail "many: drops not said with the fix"; }
"$TRACECTL" summary --json "$T/many.fxt" >"$T/many.json"
# The figures when nothing was dropped (a loaded machine may drop the
# end of a call; the rule itself is summary's unit tests' too).
if [ "$dropped" -eq 0 ]; then
	jq -e '.slices as $s |
		($s[] | select(.name == "__main__.fib_plain") |
			.count == 1028457 and .nested == 1028456 and
			.total_ns == .max_ns) and
		($s[] | select(.name == "__main__.main") | .total_ns) >=
			($s[] | select(.name == "__main__.fib_plain") | .total_ns) and
		($s[] | select(.category == "app" and .name == "fetch_one") |
			.count == 20)' "$T/many.json" >/dev/null ||
		{ jq -c '.slices[:8][]' "$T/many.json"; fail "many: slice figures"; }
else
	echo "many: $dropped of $written dropped on this machine: slice figures not checked"
fi
"$TRACECTL" summary --top 100 "$T/many.fxt" >"$T/many.txt"
for who in first second; do
	grep -q " python / __main__\.build_record_for_the_${who}_user$" "$T/many.txt" ||
		fail "many: a name cut in the summary"
done

# Usage errors: exit 2 with a word on what to do.
rc=0
"${FOREIGN[@]}" "$FXT_PYTHON" -m fxtrace >"$T/usage.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "no script: exit $rc, not 2"
grep -q 'give a script to run' "$T/usage.out" || fail "no script: no word on it"
stop_manager
echo "python_auto: ok"
