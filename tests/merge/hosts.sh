# SPDX-License-Identifier: GPL-2.0-only
# Sourced after tests/integration/lib.sh by the tests of three "hosts":
# a manager and a wall_ticks provider each, in time namespaces whose
# CLOCK_BOOTTIME is 0, 300 and 720 s ahead (unshare --time --boottime),
# each trace taken by its own manager into $T/h0.fxt .. h2.fxt.
: "${WALL_TICKS:?}"
HOST_OFFSETS=(0 300 720)
TICKS=40

if [ "$(id -u)" -ne 0 ] || ! unshare --time --boottime 300 --fork true 2>/dev/null; then
	echo "skip: time namespaces need root (unshare --time)"
	exit 77
fi

# record_hosts [START]: the three traces; with START, the ticks are the
# wall-clock moments numbered from the REALTIME this function writes
# there once every trace has started (wall_ticks.c).
record_hosts() {
	local k ns start=("$@")
	for k in 0 1 2; do
		# unshare ignores SIGTERM while it waits: the cleanup's
		# SIGKILL of it takes its child along (--kill-child).
		ns=(unshare --time --boottime "${HOST_OFFSETS[k]}" --kill-child)
		export FXTRACE_SOCKET="$T/h$k.sock"
		"${ns[@]}" "$FXTRACED" --socket "$FXTRACE_SOCKET" \
			--allow-uid "$(id -u)" --state-dir "$T/state$k" \
			>"$T/fxtraced$k.log" 2>&1 &
		BG_PIDS="$BG_PIDS $!"
		poll "$TRACECTL" status
		: >"$T/app$k.out"
		"${ns[@]}" "$WALL_TICKS" "app$k" $TICKS 10 "${start[@]}" \
			>"$T/app$k.out" 2>&1 &
		BG_PIDS="$BG_PIDS $!"
		poll provider_connected "app$k"
		"$TRACECTL" start -o "$T/h$k.fxt" --kernel=off \
			--categories merge >/dev/null || fail "start on host $k"
	done
	if [ $# -gt 0 ]; then
		date +%s%N >"$1.new"
		mv "$1.new" "$1"
	fi
	for k in 0 1 2; do
		export FXTRACE_SOCKET="$T/h$k.sock"
		wait_wrote "app$k"
		"$TRACECTL" stop >/dev/null || fail "stop on host $k"
		check "$T/h$k.fxt" >/dev/null
	done
}

# merge_hosts: tracectl merge of the three into $T/fleet.fxt, which
# conforms (dump --strict, into $T/fleet.dump); each host's clock shift
# said.
merge_hosts() {
	local k host
	"$TRACECTL" merge "$T/h0.fxt" "$T/h1.fxt" "$T/h2.fxt" \
		-o "$T/fleet.fxt" 2>"$T/merge.err" ||
		fail "merge: $(cat "$T/merge.err")"
	cat "$T/merge.err"
	host=$(uname -n)
	# the shift as measured: the namespace's offset within 1 ms
	for k in 1 2; do
		shift=$(sed -n "s/^tracectl merge: host $host#$((k + 1)) (.*h$k\.fxt): no CPU records; times -\([0-9.]*\) s (wall clock drift [-+][0-9.]* ppm)$/\1/p" \
			"$T/merge.err")
		[ -n "$shift" ] && awk -v s="$shift" -v o="${HOST_OFFSETS[k]}" \
			'BEGIN { d = s - o; exit !(d < 0.001 && d > -0.001) }' ||
			fail "host $k's clock shift not said"
	done
	"$TRACECTL" dump --strict "$T/fleet.fxt" >"$T/fleet.dump" ||
		fail "the merge does not conform"
}

# merged_ticks_aligned TOL_NS: each tick's REALTIME - BOOTTIME on the
# first host's clock lies within [wall0 - ts, wall1 - ts]: every host's
# ranges meet, within TOL_NS.
merged_ticks_aligned() {
	python3 - "$T/fleet.dump" "$1" "$TICKS" <<'PY'
import re, sys
dump, tol, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lo, hi, hosts, ticks = {}, {}, set(), 0
for line in open(dump):
    m = re.search(r' instant +ts=(\d+) thread=(\d+)/(\d+) category="merge" '
                  r'name="tick" n=(\d+) wall0=(\d+) wall1=(\d+)', line)
    if not m:
        continue
    ts, pid, tid, n, w0, w1 = map(int, m.groups())
    k = pid >> 22
    if tid >> 22 != k:
        sys.exit("tick %d: pid %d and tid %d of two hosts" % (n, pid, tid))
    hosts.add(k)
    ticks += 1
    lo[k] = max(lo.get(k, -2**64), w0 - ts)
    hi[k] = min(hi.get(k, 2**64), w1 - ts)
if hosts != {0, 1, 2} or ticks != 3 * want:
    sys.exit("%d ticks of hosts %s, want %d of 0, 1 and 2" %
             (ticks, sorted(hosts), want))
gap = max(lo.values()) - min(hi.values())
print("largest disagreement between hosts: %d ns (bracket widths %s)" %
      (gap, [hi[k] - lo[k] for k in sorted(hosts)]))
sys.exit(gap > tol)
PY
}
