# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the export tests: queries to the server at $URL, and an
# archive's events counted two ways, by what the server stored and by
# tracectl's own reading of the archive.

# q SQL: the answer (TabSeparated); a failure fails the test.
q() { curl -sS --fail-with-body --max-time 120 "$URL" --data-binary "$1"; }

# The rows of each table for a trace id, "slices=N instants=N ...".
EVENT_TABLES="slices instants counters flows async context_switches wakeups samples"
stored_counts() {
	local t out=""
	for t in $EVENT_TABLES; do
		out+="$t=$(q "SELECT count() FROM fxtrace.$t WHERE trace_id = '$1'") "
	done
	echo "${out% }"
}

# What the archive holds, in the same form: slices as tracectl summary
# --json counts them (the sum of slices[].count less its async spans,
# which export stores in the async table), the other kinds the
# records tracectl dump shows, the samples as summary --json counts them
# (on the CPU and off it).
expected_counts() {
	local json dump
	json=$("$TRACECTL" summary --json --all "$1")
	dump=$("$TRACECTL" dump "$1" 2>/dev/null | awk '{ print $2 }')
	printf 'slices=%s instants=%s counters=%s flows=%s async=%s ' \
		"$(jq '[.slices[] | .count - (.async // 0)] | add // 0' <<<"$json")" \
		"$(grep -cx instant <<<"$dump" || true)" \
		"$(grep -cx counter <<<"$dump" || true)" \
		"$(grep -c '^flow_' <<<"$dump" || true)" \
		"$(grep -c '^async_' <<<"$dump" || true)"
	printf 'context_switches=%s wakeups=%s samples=%s\n' \
		"$(grep -cx context_switch <<<"$dump" || true)" \
		"$(grep -cx thread_wakeup <<<"$dump" || true)" \
		"$(jq '(.stacks.samples // 0) + (.stacks.offcpu_samples // 0)' \
			<<<"$json")"
}

# summary's switch-ins: the switches to a thread (not to idle).
expected_switch_ins() {
	"$TRACECTL" summary --json --all "$1" | jq '[.threads[].switches] | add // 0'
}
stored_switch_ins() {
	q "SELECT count() FROM fxtrace.context_switches WHERE trace_id = '$1' AND in_tid != 0"
}
