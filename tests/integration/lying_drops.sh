#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A provider whose drop counter says more than it could have dropped (here
# 2^64-1): status, the stop's table and record show the count as
# implausible, never the number, and leave it out of the drop warning;
# the manager's log says so, once, with the bound instead. A provider's
# true drops are still shown and summed.
. "$(dirname "$0")/lib.sh"

RAW=18446744073709551615

no_raw() {
	! grep -q "$RAW" "$1" || fail "$1 shows the raw count: $(grep "$RAW" "$1")"
}

start_manager
start_provider liar --events 100 --abuse drops
start_provider small --events 2000
"$TRACECTL" start -o "$T/lie.fxt" --mode oneshot --buffer-size 16K --kernel=off
wait_wrote liar
wait_wrote small
"$TRACECTL" status >"$T/status.out"
grep -q "^  liar .*, implausible dropped$" "$T/status.out" ||
	fail "status: $(cat "$T/status.out")"
no_raw "$T/status.out"
"$TRACECTL" stop >"$T/stop.out"
cat "$T/stop.out"
no_raw "$T/stop.out"
[ "$(awk '$1 == "liar" { print $5 }' "$T/stop.out")" = implausible ] ||
	fail "stop: the liar's DROPS are not marked implausible"
drops=$(awk '$1 == "small" { print $5 }' "$T/stop.out")
[ "$drops" -gt 0 ] || fail "stop: the small buffer's drops are '$drops'"
grep -q "^Warning: $drops provider records were dropped" "$T/stop.out" ||
	fail "stop: the drop warning does not sum the true drops alone"
grep -q "^Warning: 1 provider(s) claimed more dropped records than they could have dropped (DROPS implausible)" \
	"$T/stop.out" || fail "stop: no warning about the implausible count"
poll grep -q "Provider liar\\[[0-9]*\\] (uid [0-9]*) claims more dropped records than it could have dropped (at most [0-9]* since its buffer was made): its drop count is shown as implausible" \
	"$T/fxtraced.log"
[ "$(grep -c 'claims more dropped records' "$T/fxtraced.log")" -eq 1 ] ||
	fail "the log names the liar more than once"
no_raw "$T/fxtraced.log"
check "$T/lie.fxt"
expect_field liar events 100

# tracectl record's line for the command's provider.
"$TRACECTL" record -o "$T/rec.fxt" --kernel=off -- "$PROTO_PROVIDER" \
	--name recliar --events 10 --abuse drops --exit-after-write >"$T/rec.out"
no_raw "$T/rec.out"
grep -q "^The command's provider recliar (pid [0-9]*): 14 records written, implausible dropped$" \
	"$T/rec.out" || fail "record: $(cat "$T/rec.out")"
stop_manager
echo "lying_drops: ok"
