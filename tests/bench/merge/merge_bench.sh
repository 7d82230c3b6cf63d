#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl merge benchmark: MB/s of FXT input (the inputs' bytes over the
# time) and peak RSS, median of RUNS runs, three hosts' archives of
# MEGABYTES in all (merge_bench_gen: clocks 5 and 10 minutes apart), with
# peers measured in the same run:
#   cat      reading the three archives (page cache) to /dev/null
#   read     the streaming reader alone over them (one decoding pass)
#   cp       cat of the three archives into one file: what writing the
#            output alone costs (the page cache's, on this machine)
# merge reads each archive twice (a first pass hops over the records to
# the host and clock records), and decodes and rewrites it once.
#
# usage: merge_bench.sh BUILDDIR [MEGABYTES] [RUNS]
# The archives and the output are written under /tmp and deleted after.
# The last line, "MERGE_BENCH key=value...", is what scripts/bench.sh reads.
set -eu -o pipefail

build=$1
mb=${2:-1024}
runs=${3:-5}
gen=$build/tests/bench/merge/merge_bench_gen
reader=$build/tests/bench/convert/convert_bench_read
tracectl=$build/daemon/tracectl/tracectl
work=$(mktemp -d /tmp/merge-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# run NAME COMMAND...: appends "wall_ms rss_kb cpu_ms" to $work/NAME.
run() {
	name=$1
	shift
	start=$(date +%s%N)
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
	end=$(date +%s%N)
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 }
		END { printf "%.0f", s * 1000 }' "$work/time.txt")
	echo "$(( (end - start) / 1000000 )) $rss $cpu" >>"$work/$name"
}

# median NAME FIELD: the median of that column (1: ms, 2: RSS KB, 3: CPU ms).
median() {
	cut -d' ' -f"$2" "$work/$1" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

mbps() {
	awk -v bytes="$1" -v ms="$2" 'BEGIN { printf "%.0f", bytes / 1048576 / (ms / 1000) }'
}

echo "generating three archives of $((mb / 3)) MiB in $work ..."
for h in 1 2 3; do
	"$gen" "$work/h$h.fxt" "host$h" $((h * 300)) $((mb / 3))
done
inputs=("$work/h1.fxt" "$work/h2.fxt" "$work/h3.fxt")
size=$(cat "${inputs[@]}" | wc -c)
"$tracectl" merge "${inputs[@]}" -o "$work/out.fxt" 2>/dev/null
"$tracectl" dump --strict "$work/out.fxt" >/dev/null
rm -f "$work/out.fxt"

i=0
while [ $i -lt "$runs" ]; do
	run cat cat "${inputs[@]}"
	run read sh -c 'for f; do "$0" "$f"; done' "$reader" "${inputs[@]}"
	run null "$tracectl" merge "${inputs[@]}" -o /dev/null
	# from settled memory: no writeback of the last output meanwhile
	sync
	run file "$tracectl" merge "${inputs[@]}" -o "$work/out.fxt"
	rm -f "$work/out.fxt"
	sync
	run cp sh -c 'cat "$@" >"$0"' "$work/out.fxt" "${inputs[@]}"
	rm -f "$work/out.fxt"
	i=$((i + 1))
done

printf "input: %s bytes in 3 archives; %s runs, medians\n" "$size" "$runs"
row() {
	printf "%-32s %7s %7s %9s %9s %8s KB\n" "$1" "$(median "$2" 1)" \
		"$(median "$2" 3)" "$(mbps "$size" "$(median "$2" 1)")" \
		"$(mbps "$size" "$(median "$2" 3)")" "$(median "$2" 2)"
}
printf "%-32s %7s %7s %9s %9s %11s\n" "" "wall ms" "CPU ms" "MB/s wall" \
	"MB/s CPU" "peak RSS"
row "cat" cat
row "reader alone (one pass)" read
row "merge -o /dev/null" null
row "merge -o FILE" file
row "cat into one FILE (peer)" cp
echo "MERGE_BENCH bytes=$size null_ms=$(median null 1) null_cpu_ms=$(median null 3)" \
	"file_ms=$(median file 1) rss_kb=$(median file 2) cat_ms=$(median cat 1)" \
	"read_ms=$(median read 1) cp_ms=$(median cp 1)"
