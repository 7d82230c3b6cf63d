#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tracectl convert benchmark: MB/s of FXT input and peak RSS, median of
# RUNS runs, with peers measured in the same run:
#   cat      reading the archive (page cache) to /dev/null
#   read     the streaming reader alone (decode, no JSON)
#   jq       jq -c . re-printing JSON converted from a small archive
#
# usage: convert_bench.sh BUILDDIR [MEGABYTES] [RUNS]
# The archive is written under /tmp and deleted afterwards.
set -eu

build=$1
mb=${2:-1024}
runs=${3:-3}
gen=$build/tests/bench/convert/convert_bench_gen
reader=$build/tests/bench/convert/convert_bench_read
tracectl=$build/daemon/tracectl/tracectl
work=$(mktemp -d /tmp/convert-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# run NAME COMMAND...: appends "seconds max_rss_kb" to $work/NAME.
run() {
	name=$1
	shift
	start=$(date +%s%N)
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
	end=$(date +%s%N)
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
	echo "$(( (end - start) / 1000000 )) $rss" >>"$work/$name"
}

# median NAME FIELD: the median of that column (1: ms, 2: RSS KB).
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
	run convert_small "$tracectl" convert "$work/small.fxt" -o /dev/null
	run jq jq -c . "$work/small.json"
	i=$((i + 1))
done

printf "input: %s bytes FXT -> %s bytes JSON; %s runs, medians\n" \
	"$size" "$json_size" "$runs"
printf "%-36s %8s %10s %10s\n" "" "ms" "MB/s in" "peak RSS"
for n in cat read convert convert_file; do
	ms=$(median $n 1)
	printf "%-36s %8s %10s %7s KB\n" "$n (big input)" "$ms" \
		"$(mbps "$size" "$ms")" "$(median $n 2)"
done
ms=$(median convert_small 1)
printf "%-36s %8s %10s %7s KB\n" "convert (32 MiB input)" "$ms" \
	"$(mbps "$small_size" "$ms")" "$(median convert_small 2)"
jq_ms=$(median jq 1)
printf "%-36s %8s %10s %7s KB\n" "jq -c . of its JSON ($small_json B)" \
	"$jq_ms" "$(mbps "$small_json" "$jq_ms")" "$(median jq 2)"
awk -v c="$(median convert 1)" -v r="$(median read 1)" \
	-v j="$jq_ms" -v s="$ms" 'BEGIN {
	printf "ratios: convert/read time %.2f; jq time / convert time (same archive) %.1f\n",
		c / r, j / s }'
