#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Providers that lie or break the protocol: a liar's end marks, counters
# and generations are clamped, the memfd's seals hold, and a provider
# sending descriptors, another version, a wrong length or an impossible
# SAVE is dropped with a log line. The other providers' records are all
# there, and the manager keeps no descriptor of any of them.
. "$(dirname "$0")/lib.sh"

start_manager
idle=$(idle_fds)
start_provider good --events 100
start_provider liar --events 100 --abuse lie
start_provider sealer --events 100 --abuse seals
droppers="fds ctrunc version length save"
for a in $droppers; do
	start_provider "$a" --abuse "$a"
done
"$TRACECTL" start -o "$T/abuse.fxt" --kernel=off
wait_wrote good
wait_wrote liar
wait_wrote sealer
grep -q "seals held" "$T/sealer.out" || fail "the sealer did not try"
for a in $droppers; do
	poll grep -q "Provider $a\\[[0-9]*\\] dropped" "$T/fxtraced.log"
done
grep -c "sent a bad message" "$T/fxtraced.log" | grep -x 5 >/dev/null ||
	fail "not one log line per dropped provider"
"$TRACECTL" stop >"$T/stop.out"
cat "$T/stop.out"
check "$T/abuse.fxt"
expect_field good events 100
expect_field liar events 100
expect_field sealer events 100
# Everyone is gone once the trace is written: so are their descriptors.
has_idle_fds() {
	[ "$(manager_fds)" -eq "$idle" ]
}
poll has_idle_fds
"$TRACECTL" status >/dev/null

# Streaming: a provider that floods SAVE and never reads SAVED fills its
# own receive queue; the manager never blocks on it, and drops it.
start_provider saver --abuse saveflood
start_provider calm --events 100 --stay
"$TRACECTL" start -o "$T/flood.fxt" --mode streaming --kernel=off
poll grep -q "Provider saver\\[[0-9]*\\] dropped" "$T/fxtraced.log"
grep -q "Provider saver\\[[0-9]*\\] does not read its socket" "$T/fxtraced.log" ||
	fail "no reason given for dropping saver"
wait_wrote calm
"$TRACECTL" stop >/dev/null
check "$T/flood.fxt"
expect_field calm events 100
stop_manager
echo "abuse: ok"
