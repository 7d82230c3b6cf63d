#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel:power, kernel:block and kernel:fault with --kernel=bpf, end to
# end through fxtraced, each around a workload that makes its
# tracepoints fire, the archive read back (tracectl dump --strict and
# convert; summary and report take it):
# - fault: N fresh pages touched give >= N page_fault instants on the
#   toucher's thread, one on each page, with a user write error code;
#   no event anywhere carries a kernel address;
# - block: N O_DIRECT writes to a loop device give N block_write
#   begin/end pairs on its major:minor, each end after its begin under
#   the same id, of the bytes written, at the sectors written;
# - power: a sleep shows cpu_idle counters of CPUs that exist, entering
#   (state >= 0) and leaving (-1) idle. cpu_frequency needs a cpufreq
#   driver: checked only where /sys/devices/system/cpu/cpu0/cpufreq is.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] ||
	! command -v losetup >/dev/null || ! command -v jq >/dev/null; then
	echo "skip: needs root, kernel BTF, losetup and jq"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}" "${CHECK_KDEV:?}"
LOOP=""
loop_cleanup() {
	status=$?
	set +e
	[ -z "$LOOP" ] || losetup -d "$LOOP"
	(exit "$status")
	cleanup
}
trap loop_cleanup EXIT

start_manager

record() {
	out=$1
	cats=$2
	shift 2
	"$TRACECTL" record -o "$T/$out.fxt" --kernel=bpf --categories "$cats" \
		-- "$@" >"$T/$out.out" || fail "tracectl record --categories $cats"
	"$TRACECTL" dump --strict "$T/$out.fxt" >"$T/$out.dump" 2>&1 ||
		{ tail "$T/$out.dump"; fail "$cats: tracectl dump --strict"; }
	"$TRACECTL" convert -o "$T/$out.json" "$T/$out.fxt" ||
		fail "$cats: tracectl convert"
	"$TRACECTL" summary --json "$T/$out.fxt" >"$T/$out.summary" ||
		fail "$cats: tracectl summary"
	"$TRACECTL" report -o "$T/$out.html" "$T/$out.fxt" ||
		fail "$cats: tracectl report"
}

# kernel:fault
pages=256
record fault kernel:fault "$KDEV_WORKLOAD" faults $pages
set -- $(sed -n 's/^tid=\([0-9]*\) pid=\([0-9]*\) base=\(0x[0-9a-f]*\).*/\1 \2 \3/p' \
	"$T/fault.out")
[ $# -eq 3 ] || fail "no workload output"
tid=$1 pid=$2 base=$3
python3 "$CHECK_KDEV" fault "$T/fault.dump" "$pid" "$tid" "$base" $pages ||
	fail "page faults of the touched pages"
grep -q 'category="kernel:power"\|category="kernel:block"\|context_switch' \
	"$T/fault.dump" && fail "kernel:fault alone recorded other categories"
jq -e --argjson p "$pid" --argjson t "$tid" '[.traceEvents[] |
	select(.cat == "kernel:fault" and .ph == "i" and .s == "t" and
		.pid == $p and .tid == $t and .name == "page_fault")] |
	length >= 256 and all(.args.address | test("^0x[0-9a-f]+$"))' \
	"$T/fault.json" >/dev/null || fail "converted page faults"

# kernel:block
truncate -s 16M "$T/disk.img"
LOOP=$(losetup --find --show "$T/disk.img") || fail "losetup"
dev=$(stat -L -c '%t %T' "$LOOP")
major=$((0x${dev% *})) minor=$((0x${dev#* }))
count=16 bytes=65536
record block kernel:block "$KDEV_WORKLOAD" block "$LOOP" $count $bytes
python3 "$CHECK_KDEV" block "$T/block.dump" $major $minor $count $bytes ||
	fail "block_write requests on $major:$minor"
jq -e '[.traceEvents[] | select(.cat == "kernel:block")] as $b |
	($b | map(select(.ph == "b")) | length) > 0 and
	($b | map(select(.ph == "e")) | length) > 0 and
	($b | all(.id and (.id | test("^0x[0-9a-f]+$"))))' "$T/block.json" \
	>/dev/null || fail "converted block requests"

# kernel:power
ncpus=$(nproc --all)
idle_ticks() {
	awk '$1 == "cpu" { print $5 }' /proc/stat
}
idle0=$(idle_ticks)
record power kernel:power sleep 1
idle1=$(idle_ticks)
if ! python3 "$CHECK_KDEV" power "$T/power.dump" "$ncpus"; then
	# A machine kept busy by others may not idle at all for a second.
	[ "$idle1" -eq "$idle0" ] ||
		fail "CPUs idled $((idle1 - idle0)) ticks, no cpu_idle counters of it"
	echo "note: no CPU went idle during the sleep: cpu_idle not checked"
fi
if [ -d /sys/devices/system/cpu/cpu0/cpufreq ]; then
	grep -q 'name="cpu_frequency"' "$T/power.dump" ||
		echo "note: no cpu_frequency change during the sleep"
fi
jq -e --argjson any $((idle1 > idle0)) '[.traceEvents[] |
	select(.cat == "kernel:power" and .ph == "C")] |
	length >= $any and all(.name | test("^cpu_idle CPU [0-9]+$")) and
	all(.args.state | type == "number")' "$T/power.json" >/dev/null ||
	fail "converted cpu_idle counters"

stop_manager
echo "kdev_bpf: ok"
