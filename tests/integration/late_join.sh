#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Providers that connect while a trace runs join it; a provider that
# connected before stays in the next trace too.
. "$(dirname "$0")/lib.sh"

start_manager
start_provider early --events 500 --stay
"$TRACECTL" start -o "$T/late.fxt" --kernel=off
wait_wrote early
start_provider late1 --events 700
start_provider late2 --events 900
wait_wrote late1
wait_wrote late2
"$TRACECTL" status | tee "$T/status.out"
grep -q "^State: tracing" "$T/status.out" || fail "status is not tracing"
grep -q "^  late2 .* buffer " "$T/status.out" || fail "late2 has no buffer"
"$TRACECTL" stop
check "$T/late.fxt"
expect_field early events 500
expect_field late1 events 700
expect_field late1 distinct 700
expect_field late2 events 900

# The early provider stayed connected: the next trace includes it again.
: >"$T/early.out"
"$TRACECTL" start -o "$T/second.fxt" --kernel=off
wait_wrote early
"$TRACECTL" stop
check "$T/second.fxt"
expect_field early events 500
[ -z "$(field late1 events)" ] || fail "late1 exited but is in the second trace"
stop_manager
echo "late_join: ok"
