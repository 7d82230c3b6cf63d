#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Under systemd (stderr is the stream $JOURNAL_STREAM names) fxtraced logs
# to the journal with structured fields: the trace's start and end with
# FXT_TRACE_ID and FXT_OUTPUT, providers with FXT_PROVIDER_NAME and
# FXT_PROVIDER_PID. journald's socket is played by journal-sink, in a
# mount namespace of our own so the host's /run is left alone.
if [ -z "${FXT_JOURNAL_NS:-}" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
		echo "journal: needs root and unshare; skipped"
		exit 77
	fi
	FXT_JOURNAL_NS=1 exec unshare --mount --propagation private bash "$0"
fi
. "$(dirname "$0")/lib.sh"
: "${JOURNAL_SINK:?}"

mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/journal
"$JOURNAL_SINK" /run/systemd/journal/socket >"$T/journal.txt" 2>&1 &
BG_PIDS="$BG_PIDS $!"
poll test -S /run/systemd/journal/socket

: >"$T/fxtraced.log"
JOURNAL_STREAM=$(stat -c %d:%i "$T/fxtraced.log") \
	"$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
	2>>"$T/fxtraced.log" &
MGR=$!
poll "$TRACECTL" status
start_provider jprov --events 5
ppid=$(sed -n 's/^ *jprov *pid \([0-9]*\).*/\1/p' < <("$TRACECTL" status))
"$TRACECTL" start -o "$T/j.fxt" --kernel=off >/dev/null
wait_wrote jprov
"$TRACECTL" stop >/dev/null
check "$T/j.fxt"
stop_manager

# One journal entry: the lines between two "--".
entry() {
	awk -v want="$1" 'BEGIN { RS = "--\n" } index($0, want) { printf "%s", $0; exit }' \
		"$T/journal.txt"
}
started=$(entry "MESSAGE=Trace started: $T/j.fxt")
[ -n "$started" ] || { cat "$T/journal.txt"; fail "no start entry"; }
id=$(sed -n 's/^FXT_TRACE_ID=\([0-9a-f]\{32\}\)$/\1/p' <<<"$started")
[ -n "$id" ] || fail "the start entry has no FXT_TRACE_ID: $started"
grep -qx "FXT_OUTPUT=$T/j.fxt" <<<"$started" || fail "no FXT_OUTPUT at start"
grep -qx "PRIORITY=6" <<<"$started" || fail "the start entry's priority"
grep -qx "SYSLOG_IDENTIFIER=fxtraced" <<<"$started" || fail "no identifier"
written=$(entry "MESSAGE=Trace written to $T/j.fxt")
grep -qx "FXT_TRACE_ID=$id" <<<"$written" || fail "the end entry is not of trace $id: $written"
grep -qx "FXT_OUTPUT=$T/j.fxt" <<<"$written" || fail "no FXT_OUTPUT at the end"
provider=$(entry "MESSAGE=Provider jprov[$ppid]")
grep -qx "FXT_PROVIDER_NAME=jprov" <<<"$provider" || fail "no FXT_PROVIDER_NAME: $provider"
grep -qx "FXT_PROVIDER_PID=$ppid" <<<"$provider" || fail "no FXT_PROVIDER_PID"
# The journal has it all; stderr, the journal's stream, is not written twice.
! grep -q "Trace started" "$T/fxtraced.log" || fail "logged to stderr as well"
echo "journal: ok"
