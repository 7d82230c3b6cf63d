#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl convert benchmark: MB/s of FXT input and peak RSS, median of
# RUNS runs, with peers measured in the same run (and tracectl summary
# and report, the other one-pass readers of an archive):
#   cat      reading the archive (page cache) to /dev/null
#   read     the streaming reader alone (decode, no JSON)
#   dd       writing as many bytes as the JSON output to a file: what the
#            file system alone costs of "convert -o FILE"
#   jq       jq -c . re-printing JSON converted from a small archive
#
# usage: convert_bench.sh BUILDDIR [MEGABYTES] [RUNS]
# The archive is written under /tmp and deleted afterwards.
set -eu -o pipefail

build=$1
mb=${2:-1024}
runs=${3:-3}
gen=$build/tests/bench/convert/convert_bench_gen
reader=$build/tests/bench/convert/convert_bench_read
tracectl=$build/daemon/tracectl/tracectl
work=$(mktemp -d /tmp/convert-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# run NAME COMMAND...: appends "wall_ms rss_kb cpu_ms" to $work/NAME. CPU
# time (user + system) matters on a shared machine where wall time
# mostly measures the other processes.
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

echo "generating a ${mb} MiB archive in $work ..."
"$gen" "$work/big.fxt" "$mb"
size=$(stat -c %s "$work/big.fxt")
"$gen" "$work/small.fxt" 32
"$tracectl" convert "$work/small.fxt" -o "$work/small.json"
small_size=$(stat -c %s "$work/small.fxt")
small_json=$(stat -c %s "$work/small.json")

i=0
while [ $i -lt "$runs" ]; do
	run cat cat "$work/big.fxt"
	run read "$reader" "$work/big.fxt"
	run convert "$tracectl" convert "$work/big.fxt" -o /dev/null
	run convert_file "$tracectl" convert "$work/big.fxt" -o "$work/big.json"
	json_size=$(stat -c %s "$work/big.json")
	rm -f "$work/big.json"
	run dd dd if=/dev/zero of="$work/dd.out" bs=4M \
		count=$((json_size / 4194304)) status=none
	rm -f "$work/dd.out"
	run summary "$tracectl" summary "$work/big.fxt"
	run report "$tracectl" report "$work/big.fxt" -o "$work/big.html"
	run convert_small "$tracectl" convert "$work/small.fxt" -o /dev/null
	run jq jq -c . "$work/small.json"
	i=$((i + 1))
done

printf "input: %s bytes FXT -> %s bytes JSON; %s runs, medians\n" \
	"$size" "$json_size" "$runs"
row() {
	printf "%-34s %7s %7s %9s %9s %8s KB\n" "$1" "$(median "$2" 1)" \
		"$(median "$2" 3)" "$(mbps "$3" "$(median "$2" 1)")" \
		"$(mbps "$3" "$(median "$2" 3)")" "$(median "$2" 2)"
}
printf "%-34s %7s %7s %9s %9s %11s\n" "" "wall ms" "CPU ms" "MB/s wall" \
	"MB/s CPU" "peak RSS"
row "cat" cat "$size"
row "reader alone" read "$size"
row "convert -o /dev/null" convert "$size"
row "convert -o FILE" convert_file "$size"
row "dd of the JSON's size (per FXT MB)" dd "$size"
row "summary" summary "$size"
row "report -o FILE" report "$size"
row "convert, 32 MiB archive" convert_small "$small_size"
row "jq -c . of its JSON (MB of JSON)" jq "$small_json"
awk -v c="$(median convert 3)" -v r="$(median read 3)" \
	-v j="$(median jq 3)" -v s="$(median convert_small 3)" \
	-v m="$(median summary 3)" 'BEGIN {
	printf "CPU time ratios: convert / reader alone %.2f; jq -c . of the JSON / convert of the same archive %.1f; summary / reader alone %.2f\n",
		c / r, j / s, m / r }'
