#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The snapshot budget of triggers (--snapshot-max-files,
# --snapshot-max-bytes): a flood of triggers (--trigger-limit 1000) leaves
# at most the budget's files and bytes in the directory, the newest ones,
# the oldest removed; status and the log count them. Files the trace did
# not write stay, even named like its snapshots, and do not count. A
# snapshot larger than the budget by itself is not kept, and counted. The
# snapshots kept outlive a kill of the manager: after the restart they
# still count, and the oldest of them makes room for a new one. Misused
# options are usage errors.
. "$(dirname "$0")/lib.sh"

: "${TRIGGER_PROVIDER:?}"
export FXTRACE_START_WAIT_MS=60000
STATE="$T/state"

start_manager --state-dir "$STATE"
mkdir "$T/snaps"

flood_start() {
	"$TRACECTL" start -o "$T/$1.fxt" --mode circular --kernel=off \
		--trigger flood --snapshot-dir "$T/snaps" --trigger-limit 1000 \
		"${@:2}" >"$T/start.out" || fail "start $*: $(cat "$T/start.out")"
}

# ours: the trace's snapshots in the directory (not the planted one).
ours() {
	snapshots flood | grep -v "^flood-20000101T"
}

# linked: the snapshots the log says were linked, in that order.
linked() {
	sed -n "s|^.*Trigger flood of .*: snapshot $T/snaps/\(flood-[^,]*\), .*|\1|p" \
		"$T/fxtraced.log"
}

# budget_is KEPT REMOVED NOT_KEPT: what status counts.
budget_is() {
	"$TRACECTL" status >"$T/status.out"
	grep -Eq "^  budget: $1 of [0-9]+ snapshots kept, .*; $2 oldest removed \(.*\), $3 not kept$" \
		"$T/status.out"
}

# floods N: the provider writes 200 events, then fires flood N times.
floods() {
	run_provider $(seq -f instant:%g 1 200) $(printf "trigger:flood %.0s" $(seq "$1"))
}

start_usage "snapshot-max-files 0: give a number of snapshots, 1 to 256" \
	--mode circular --trigger jank --snapshot-dir "$T/snaps" --snapshot-max-files 0
start_usage "snapshot-max-files 257" \
	--mode circular --trigger jank --snapshot-dir "$T/snaps" --snapshot-max-files 257
start_usage "snapshot-max-bytes 1K: give bytes, at least 4K" \
	--mode circular --trigger jank --snapshot-dir "$T/snaps" --snapshot-max-bytes 1K
start_usage "snapshot-max-bytes lots" \
	--mode circular --trigger jank --snapshot-dir "$T/snaps" --snapshot-max-bytes lots
start_usage "go with --trigger" --mode circular --snapshot-max-bytes 1G
"$TRACECTL" start --help | grep -- "--snapshot-max-bytes SIZE" >/dev/null ||
	fail "start --help does not describe --snapshot-max-bytes"

# The default: the lesser of 1 GiB and 10% of the file system.
fs=$(($(stat -f -c '%b * %S' "$T/snaps") / 100 * 10))
default=$((fs < 1073741824 ? fs : 1073741824))
flood_start default
grep -q "Snapshots in $T/snaps kept within $default bytes and 100 files" \
	"$T/fxtraced.log" || fail "the default budget is not $default bytes, 100 files"
"$TRACECTL" stop >/dev/null || fail "stop"

# Files: twelve snapshots in a row, three kept, the newest.
echo "not a snapshot" >"$T/snaps/notes.txt"
touch -d 2000-01-01 "$T/snaps/flood-20000101T000000.000Z.fxt"
flood_start files --snapshot-max-files 3
floods 12
poll budget_is 3 9 0
[ "$(ours | wc -l)" -eq 3 ] || fail "3 files kept, the directory: $(ls "$T/snaps")"
[ -e "$T/snaps/notes.txt" ] && [ -e "$T/snaps/flood-20000101T000000.000Z.fxt" ] ||
	fail "a file the trace did not write was removed: $(ls "$T/snaps")"
newest=$(awk '$1 == "snapshot" && $2 == "flood" { print $5 }' "$T/status.out" | tail -n 3)
[ "$(echo "$newest" | sort)" = "$(ours | sort)" ] ||
	fail "the snapshots kept are not the newest: $(ours) / $newest"
[ "$(grep -c "Removed snapshot $T/snaps/flood-.*, the oldest, to keep the snapshots within [0-9]* bytes and 3 files" \
	"$T/fxtraced.log")" -eq 9 ] || fail "9 removals are not logged: $(grep Removed "$T/fxtraced.log")"
grep -q "20000101" "$T/fxtraced.log" && fail "the planted file was considered"
check "$T/snaps/$(ours | tail -n 1)" >/dev/null
"$TRACECTL" stop >/dev/null || fail "stop"

# Bytes: room for two snapshots and a half.
size=$(stat -c %s "$T/snaps/$(ours | head -n 1)")
[ "$size" -gt 4096 ] || fail "snapshots of $size bytes: the test needs them over 4K"
budget=$((size * 5 / 2))
rm -f "$T/snaps"/flood-2*
touch -d 2000-01-01 "$T/snaps/flood-20000101T000000.000Z.fxt"
flood_start bytes --snapshot-max-bytes "$budget"
floods 8
poll budget_is 2 6 0
total=$(ours | (cd "$T/snaps" && xargs stat -c %s) | awk '{ s += $1 } END { print s }')
[ "$(ours | wc -l)" -eq 2 ] && [ "$total" -le "$budget" ] ||
	fail "$(ours | wc -l) snapshots of $total bytes kept within $budget"

# Larger than the budget by itself: not kept, counted.
"$TRACECTL" stop >/dev/null || fail "stop"
rm -f "$T/snaps"/flood-2*
flood_start large --snapshot-max-bytes 4K
floods 1
poll budget_is 0 0 1
[ -z "$(ours)" ] || fail "a snapshot over the budget was kept: $(ours)"
grep -Eq "^  snapshot flood .* not kept: larger than the budget$" "$T/status.out" ||
	fail "status does not say why: $(cat "$T/status.out")"
grep -q "Trigger flood of trigger-provider\[[0-9]*\]: the snapshot of $size bytes is larger than the snapshot budget of 4096 bytes by itself: not kept" \
	"$T/fxtraced.log" || fail "the snapshot not kept is not logged"
"$TRACECTL" stop >/dev/null || fail "stop"

# A restart: the snapshots kept before it still count.
flood_start restart --snapshot-max-files 2
floods 2
poll budget_is 2 0 0
older=$(linked | tail -n 2 | head -n 1)
newer=$(linked | tail -n 1)
kill -KILL "$MGR"
wait "$MGR" 2>/dev/null || true
start_manager --state-dir "$STATE"
poll grep -q "2 of the 2 snapshots in $T/snaps kept before the restart still count" \
	"$T/fxtraced.log"
budget_is 2 0 0 || fail "status after the restart: $(cat "$T/status.out")"
floods 1
poll budget_is 2 1 0
[ "$(ours | wc -l)" -eq 2 ] || fail "after the restart: $(ours)"
[ ! -e "$T/snaps/$older" ] && [ -e "$T/snaps/$newer" ] ||
	fail "not the oldest ($older) was removed after the restart: $(ours)"
"$TRACECTL" stop >/dev/null || fail "stop"
stop_manager
echo "snapshot_budget: a flood of triggers kept within the files and bytes, across a restart"
