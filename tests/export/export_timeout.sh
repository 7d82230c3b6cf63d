#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A server that answers 2 bytes a second (never below curl's low-speed
# limit) does not keep tracectl export running: a request is given up
# after --timeout, an archive after --archive-timeout, each with a clear
# message naming the archive NOT stored and exit 1. The defaults are in
# --help and the man page; bad values are usage errors.
. "$(dirname "$0")/lib.sh"

make_fleet
python3 "$(dirname "$0")/slow_server.py" "$work/port" &
slow=$!
trap 'kill "$slow" 2>/dev/null || true; cleanup' EXIT
for ((i = 0; i < 360; i++)); do [ -s "$work/port" ] && break; sleep 0.5; done
[ -s "$work/port" ] || { echo "the slow server did not start" >&2; exit 1; }
slow_url="http://127.0.0.1:$(cat "$work/port")/"

# slow_export LIMIT PATTERN ARGS...: tracectl export ARGS against the slow
# server ends with exit 1 in less than LIMIT s, saying PATTERN.
slow_export() {
	local limit=$1 pattern=$2 rc=0 t0 t1 err took; shift 2
	t0=$(date +%s.%N)
	"$TRACECTL" export -c "$slow_url" "$@" >"$work/out" 2>"$work/err" || rc=$?
	t1=$(date +%s.%N)
	err=$(cat "$work/err")
	sed 's/^/  | /' "$work/err"
	took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	[ "$rc" -eq 1 ] || { fail "export $*: exit $rc, want 1: $err"; return; }
	awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t < l) }' ||
		{ fail "export $*: took $took s, want less than $limit"; return; }
	grep -qE -- "$pattern" <<<"$err" || { fail "export $*: no '$pattern' in: $err"; return; }
	grep -q "^tracectl export: NOT stored: ${FLEET[0]}\( \|\$\)" <<<"$err" ||
		{ fail "export $*: the archive not named as not stored: $err"; return; }
	ok "export $*: exit 1 after $took s"
}

# A request's limit: 3 s (the loaded machine: well within 60 s).
slow_export 60 "timed out: no whole answer within 3 s" --timeout 3 "${FLEET[0]}"
# The archive's limit, shorter than the request's.
slow_export 60 "timed out: the archive's time limit of 4 s is up" \
	--timeout 600 --archive-timeout 4 "${FLEET[0]}"
# The first archive timed out: the next is not tried (it would wait as long).
slow_export 60 "timed out" --timeout 3 "${FLEET[0]}" "${FLEET[1]}"
grep -q "NOT stored: ${FLEET[0]} ${FLEET[1]}\$" "$work/err" &&
	ok "both named as not stored" || fail "not both named: $(cat "$work/err")"

# Bad values: usage errors.
for bad in "--timeout 0" "--timeout x" "--archive-timeout 86401" "--archive-timeout -1"; do
	rc=0
	"$TRACECTL" export -c "$slow_url" $bad "${FLEET[0]}" >/dev/null 2>"$work/err" || rc=$?
	[ "$rc" -eq 2 ] && grep -q "1 to 86400" "$work/err" && ok "$bad: usage error" ||
		fail "$bad: exit $rc: $(cat "$work/err")"
done

# The defaults, said where the options are.
help=$("$TRACECTL" export --help)
grep -q -- "--timeout S" <<<"$help" && grep -A1 -- "--timeout S" <<<"$help" | grep -q "(default 300)" &&
	ok "--help: --timeout, default 300 s" || fail "--help says no default of --timeout: $help"
grep -A2 -- "--archive-timeout S" <<<"$help" | grep -q "(default 1800)" &&
	ok "--help: --archive-timeout, default 1800 s" || fail "--help says no default of --archive-timeout: $help"
man=$(dirname "$0")/../../daemon/tracectl/tracectl.1.scd
grep -A3 -- '^\*--timeout\*' "$man" | grep -q "default 300" &&
	grep -A4 -- '^\*--archive-timeout\*' "$man" | grep -q "default 1800" &&
	ok "the man page gives both defaults" || fail "the man page lacks the timeouts' defaults"
finish
