#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# When tracectl export cannot store an archive it exits non-zero and says
# which archives are stored and which not: the server down, a bad URL, a
# read-only user, a refused insert (a table of the wrong shape), an
# archive without host records. An export cut short by a refused insert
# is replaced whole by the next one: no row twice.
. "$(dirname "$0")/lib.sh"

make_fleet
"$FLEET_GEN" "$work/old.fxt" - - 1

# expect_fail RC PATTERN... -- ARGS: tracectl export ARGS exits RC and
# says each PATTERN (grep -E) on stderr.
expect_fail() {
	local want=$1 rc=0 err; shift
	local patterns=()
	while [ "$1" != -- ]; do patterns+=("$1"); shift; done
	shift
	"$TRACECTL" export "$@" >"$work/out" 2>"$work/err" || rc=$?
	err=$(cat "$work/err")
	if [ "$rc" -ne "$want" ]; then
		fail "export $*: exit $rc, want $want: $err"
		return
	fi
	sed 's/^/  | /' "$work/err"
	for p in "${patterns[@]}"; do
		grep -qE -- "$p" <<<"$err" || { fail "export $*: no '$p' in: $err"; return; }
	done
	ok "export $* (exit $rc)"
}

# Bad usage and bad URLs: 2, nothing tried.
expect_fail 2 "not an http:// or https:// URL" -- -c ftp://127.0.0.1/ "${FLEET[0]}"
expect_fail 2 "not an http:// or https:// URL" -- -c 'http://[::1' "${FLEET[0]}"
"$TRACECTL" export -c 'ftp://u:pw-hidden@127.0.0.1/?user=u&password=pw-hidden' "${FLEET[0]}" 2>"$work/err" && fail "an ftp:// URL taken"
grep -q "ftp://\*\*\*@127.0.0.1/?user=\*\*\*&password=\*\*\*: not an http" "$work/err" && ! grep -q pw-hidden "$work/err" &&
	ok "a bad URL said without its credentials" || fail "a bad URL said: $(cat "$work/err")"
expect_fail 2 "database name" -- -c http://127.0.0.1:1/ -d 'x;DROP' "${FLEET[0]}"
expect_fail 2 "required" -- "${FLEET[0]}"
expect_fail 2 "no archive FILE" -- -c http://127.0.0.1:1/
expect_fail 1 "give a file, not standard input" "NOT stored: -\$" -- -c http://127.0.0.1:1/ -

# No server there: every archive named as not stored.
expect_fail 1 "cannot reach ClickHouse at 127.0.0.1:1" "stored: none" \
	"NOT stored: ${FLEET[0]} ${FLEET[1]}\$" -- -c http://127.0.0.1:1/ "${FLEET[0]}" "${FLEET[1]}"
expect_fail 1 "cannot reach ClickHouse at no-such-host.invalid:8123" "NOT stored: ${FLEET[0]}\$" -- \
	-c http://no-such-host.invalid:8123/ "${FLEET[0]}"

ch_start

# An archive without host and clock records: refused, the others stored.
expect_fail 1 "old.fxt: no host and clock records" "stored: ${FLEET[0]}\$" \
	"NOT stored: $work/old.fxt\$" -- -c "$URL" "$work/old.fxt" "${FLEET[0]}"

# A read-only user: the server refuses, and says so.
expect_fail 1 "ClickHouse at 127.0.0.1:[0-9]+ refused: .*readonly" "NOT stored: ${FLEET[1]}\$" -- \
	-c "${URL}?user=reader" "${FLEET[1]}"

# A refused insert: counters of the wrong shape. The archive's slices
# went in before the counters were refused: a partial export.
q "RENAME TABLE fxtrace.counters TO fxtrace.counters_kept"
q "CREATE TABLE fxtrace.counters (x UInt8) ENGINE = MergeTree ORDER BY x"
expect_fail 1 "refused: .*(host|column)" "stored: none" "NOT stored: ${FLEET[1]}\$" -- \
	-c "$URL" "${FLEET[1]}"
got=$(q "SELECT count() FROM fxtrace.slices WHERE trace_id = '$TRACE_BETA'")
[ "$got" -gt 0 ] && ok "a partial export of beta ($got slices)" || fail "no partial export to replace (slices $got)"
got=$(q "SELECT groupArray(complete) FROM fxtrace.traces WHERE trace_id = '$TRACE_BETA'")
[ "$got" = "[0]" ] && ok "beta marked as begun only" || fail "beta's traces rows: $got"

# The table mended: the partial export is replaced, nothing twice.
q "DROP TABLE fxtrace.counters"
q "RENAME TABLE fxtrace.counters_kept TO fxtrace.counters"
out=$("$TRACECTL" export -c "$URL" "${FLEET[1]}" 2>&1) || fail "export after the mend: $out"
grep -q "replacing a partial export" <<<"$out" && ok "partial export replaced" || fail "said: $out"
want="slices=200 instants=104 counters=100 flows=100 async=200 context_switches=200 wakeups=100 samples=110"
got=$(stored_counts $TRACE_BETA)
[ "$got" = "$want" ] && ok "beta whole, once: $got" || fail "beta: $got, want $want"
got=$(q "SELECT groupArray(complete) FROM (SELECT complete FROM fxtrace.traces WHERE trace_id = '$TRACE_BETA' ORDER BY complete)")
[ "$got" = "[0,1]" ] && ok "beta begun and complete" || fail "beta's traces rows: $got"
# alpha (stored before) untouched by beta's replacement
got=$(stored_counts $TRACE_ALPHA)
[ "$got" = "$want" ] && ok "alpha untouched" || fail "alpha: $got, want $want"

# The server stopped: the next archive is not stored, and said so.
ch_stop
expect_fail 1 "cannot reach ClickHouse" "NOT stored: ${FLEET[2]}\$" -- -c "$URL" "${FLEET[2]}"
finish
