#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtrace-export.service as built: systemd-analyze verify takes it (its
# manual is not installed here: --man=no); its ExecCondition skips it
# while flight-recorder.conf leaves FXT_EXPORT_CLICKHOUSE empty (as
# shipped) and lets it run once set; its ExecStart carries no URL: run with the settings in its environment (a
# password in the URL) it stores a snapshot, and neither its command
# line (ps) nor what it says shows the password.
. "$(dirname "$0")/lib.sh"

unit=$work/fxtrace-export.service
sed "s|^ExecStart=[^ ]*/tracectl|ExecStart=$TRACECTL|" "$EXPORT_UNIT" >"$unit"
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify --man=no "$unit" 2>&1 | grep -v 'fxtrace-flight-recorder.service' || true)
	[ -z "$out" ] && ok "systemd-analyze verify" || fail "verify: $out"
fi
grep -qx 'EnvironmentFile=-.*/fxtrace/export-clickhouse.conf' "$unit" &&
	ok "reads export-clickhouse.conf (the URL with a password)" || fail "no EnvironmentFile for a password"
execstart=$(awk '/^ExecStart=/ { on = 1 } on { print; if (!/\\$/) exit }' "$unit")
grep -q -e 'CLICKHOUSE' -e '--clickhouse' -e ' -c ' <<<"$execstart" &&
	fail "the URL is on ExecStart: $execstart" || ok "ExecStart carries no URL"
grep -qx 'Wants=fxtrace-export.service' "$FLIGHT_RECORDER_UNIT" &&
	ok "the flight recorder wants it" || fail "the flight recorder does not start it"

# The settings as shipped, then set.
set -a
. "$FLIGHT_RECORDER_CONF"
set +a
[ -z "$FXT_EXPORT_CLICKHOUSE" ] && ok "shipped off" || fail "shipped with an export URL"
cond=$(sed -n "s/^ExecCondition=\/bin\/sh -c '\(.*\)'$/\1/p" "$unit" | sed 's/\$\$/$/g')
[ -n "$cond" ] || fail "no ExecCondition"
if sh -c "$cond"; then fail "runs with FXT_EXPORT_CLICKHOUSE empty"; else ok "skipped while off"; fi

ch_start
make_fleet
mkdir -p "$work/state/fxtrace/snapshots"
cp "${FLEET[0]}" "$work/state/fxtrace/snapshots/"
secret=fxt-test-secret
export FXT_EXPORT_CLICKHOUSE=${URL/http:\/\//http://writer:$secret@}
sh -c "$cond" && ok "runs once set" || fail "skipped with FXT_EXPORT_CLICKHOUSE set"

# ExecStart= and its continuation lines, as systemd would run it.
cmd=$(awk '/^ExecStart=/ { on = 1; sub(/^ExecStart=/, "") } on { line = line " " $0; if (!/\\$/) { print line; exit } }' "$unit" |
	sed -e 's/\\//g' -e "s|%S|$work/state|g" -e "s|\${FXT_EXPORT_DATABASE}|$FXT_EXPORT_DATABASE|")
$cmd >"$work/unit.out" 2>&1 &
pid=$!
for ((i = 0; i < 360; i++)); do
	[ "$(q "SELECT count() FROM fxtrace.traces WHERE trace_id = '$TRACE_ALPHA' AND complete = 1" 2>/dev/null)" = 1 ] && break
	sleep 0.5
done
# Running, its snapshot stored: what every user may read of it.
kill -0 "$pid" 2>/dev/null || fail "ExecStart ended early: $(cat "$work/unit.out")"
cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
grep -q "$secret" <<<"$cmdline" && fail "the password in /proc/$pid/cmdline: $cmdline" ||
	ok "no password in /proc/PID/cmdline: $cmdline"
seen=$(ps -o args= -p "$pid")
[ -n "$seen" ] && ! grep -q -e "$secret" -e writer <<<"$seen" &&
	ok "no credentials in ps: $seen" || fail "ps shows: $seen"
kill -TERM "$pid"
wait "$pid" || fail "ExecStart: exit $?: $(cat "$work/unit.out")"
got=$(stored_counts $TRACE_ALPHA)
[ "$got" = "slices=200 instants=104 counters=100 flows=100 async=200 context_switches=200 wakeups=100 samples=110" ] &&
	ok "the unit's command stores a snapshot" || fail "the unit's command: $got; $(cat "$work/unit.out")"
grep -q "$secret" "$work/unit.out" && fail "the password in its messages" || ok "no password in its messages"

# A wrong password: refused, said without it.
FXT_EXPORT_CLICKHOUSE=${URL/http:\/\//http://writer:wrong-$secret@} \
	"$TRACECTL" export "${FLEET[1]}" >"$work/wrong.out" 2>&1 && fail "a wrong password stored it"
grep -q "$secret" "$work/wrong.out" && fail "a wrong password said: $(cat "$work/wrong.out")" ||
	ok "a wrong password: refused, not said: $(head -n 1 "$work/wrong.out")"
finish
