# SPDX-License-Identifier: GPL-2.0-only
# Shared by the export tests: a clickhouse-server of the test's own
# (scripts/clickhouse-test-server.sh; the test is skipped, 77, without
# one), queries, the fleet of fleet_gen archives, checks.
set -eu -o pipefail

work=$(mktemp -d)
ch_dir=$work/clickhouse
cleanup() {
	"$CLICKHOUSE_SERVER" stop "$ch_dir" || true
	rm -rf "$work"
}
trap cleanup EXIT

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
finish() {
	[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
	echo "all checks passed"
}

# Starts the server: URL is where it answers.
ch_start() {
	local rc=0
	URL=$("$CLICKHOUSE_SERVER" start "$ch_dir") || rc=$?
	[ "$rc" -ne 77 ] || exit 77
	[ "$rc" -eq 0 ] || { echo "cannot start clickhouse-server" >&2; exit 1; }
}
ch_stop() { "$CLICKHOUSE_SERVER" stop "$ch_dir"; }

. "$(dirname "${BASH_SOURCE[0]}")/counts.sh"

# The fleet: alpha, beta, gamma (fleet_gen indices 1, 2, 3), each its
# own trace id; latency-*.fxt names for the snapshots the latency
# trigger would have written (beta once, gamma twice: the second time
# a short one of 10 rounds).
TRACE_ALPHA=a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1
TRACE_BETA=b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2
TRACE_GAMMA=c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3
TRACE_GAMMA2=c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4
make_fleet() {
	mkdir -p "$work/fleet"
	"$FLEET_GEN" "$work/fleet/alpha.fxt" alpha $TRACE_ALPHA 1
	"$FLEET_GEN" "$work/fleet/latency-1.fxt" beta $TRACE_BETA 2
	"$FLEET_GEN" "$work/fleet/latency-2.fxt" gamma $TRACE_GAMMA 3
	"$FLEET_GEN" "$work/fleet/latency-3.fxt" gamma $TRACE_GAMMA2 3 10
	FLEET=("$work/fleet/alpha.fxt" "$work/fleet/latency-1.fxt"
	       "$work/fleet/latency-2.fxt" "$work/fleet/latency-3.fxt")
}
