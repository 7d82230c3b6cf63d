#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fxtrace-flight-recorder.service as shipped: it verifies (systemd-analyze),
# and its ExecStart and ExecStop, expanded as systemd expands them with
# the shipped flight-recorder.conf (%S a temporary state directory, the
# built tracectl), start the named circular trace within the budget, with
# the triggers armed within the snapshot budget of the settings file;
# fxt-example's --trigger writes a snapshot into the snapshot directory
# that passes dump --strict; the stop writes the archive. The booted-system test (scripts/qemu/system-test.sh) runs the
# unit under systemd itself.
. "$(dirname "$0")/lib.sh"

: "${FLIGHT_RECORDER_SERVICE:?}" "${FLIGHT_RECORDER_CONF:?}" "${FXT_EXAMPLE:?}"
export FXTRACE_START_WAIT_MS=60000
unit="$T/fxtrace-flight-recorder.service"
state="$T/var-lib"
sed -e "s|/[^ ]*/tracectl |$TRACECTL |" "$FLIGHT_RECORDER_SERVICE" >"$unit"

if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify --man=no "$unit" >"$T/verify.out" 2>&1 || true
	# Alone, it cannot find fxtraced.socket: only that may be said.
	if grep -v "fxtraced.socket\|fxtraced.service" "$T/verify.out" | grep . >/dev/null; then
		cat "$T/verify.out"
		fail "systemd-analyze verify"
	fi
else
	echo "flight_recorder: no systemd-analyze; verify skipped"
fi
grep -q "^EnvironmentFile=-/.*/fxtrace/flight-recorder.conf$" "$unit" ||
	fail "the unit does not read flight-recorder.conf"
grep -q "^\[Install\]" "$unit" && grep -q "^WantedBy=multi-user.target" "$unit" ||
	fail "the unit cannot be enabled for boot"

# exec_line KEY: the command line of KEY=, continuation lines joined,
# expanded as systemd does: ${VAR} from the environment file, %S.
exec_line() {
	awk -v k="$1=" 'index($0, k) == 1 { on = 1; sub("^" k "-?", "") }
		on { c = sub(/\\$/, ""); gsub(/\t/, ""); printf "%s", $0; if (!c) on = 0 }' \
		"$unit" | sed -e "s|%S|$state|g"
}
mkdir -p "$state/fxtrace/snapshots"
start_manager
(
	# systemd's defaults (Environment=), then the file over them.
	eval "$(sed -n 's/^Environment=//p' "$unit" | tr ' ' '\n' | sed 's/^/export /')"
	set -a
	. "$FLIGHT_RECORDER_CONF"
	set +a
	line=$(exec_line ExecStart)
	eval "set -- $line"
	"$@" >"$T/start.out" 2>&1
) || fail "ExecStart: $(cat "$T/start.out")"
cat "$T/start.out"
"$TRACECTL" status >"$T/status.out"
grep -q "^Name: flight-recorder" "$T/status.out" &&
	grep -q "^Mode: circular" "$T/status.out" &&
	grep -q "^Memory budget: 67108864 bytes" "$T/status.out" &&
	grep -q "^Triggers: snapshots to $state/fxtrace/snapshots" "$T/status.out" &&
	grep -Eq "^  trigger flight-recorder +fired 0" "$T/status.out" &&
	grep -Eq "^  budget: 0 of 100 snapshots kept, 0 of [0-9]+[KM]?;" "$T/status.out" ||
	fail "status of the flight recorder: $(cat "$T/status.out")"
grep -q "Snapshots in $state/fxtrace/snapshots kept within [0-9]* bytes and 100 files" \
	"$T/fxtraced.log" || fail "the snapshot budget of the settings file is not armed"
"$FXT_EXAMPLE" --seconds 1 --trigger flight-recorder >"$T/provider.out" 2>&1 ||
	fail "fxt-example: $(cat "$T/provider.out")"
has_snapshot() {
	ls "$state"/fxtrace/snapshots | grep '^flight-recorder-.*\.fxt$' >/dev/null
}
poll has_snapshot
check "$(ls "$state"/fxtrace/snapshots/flight-recorder-*.fxt)" >/dev/null
grep -q '"done"' "$T/dump.out" || fail "the snapshot lacks fxt-example's events"
eval "set -- $(exec_line ExecStop)"
"$@" >"$T/stop.out" || fail "ExecStop: $(cat "$T/stop.out")"
check "$state/fxtrace/flight-recorder.fxt" >/dev/null
"$TRACECTL" status | grep "^State: idle" >/dev/null || fail "ExecStop left the trace running"
stop_manager
echo "flight_recorder: ok"
