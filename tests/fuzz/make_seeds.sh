#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Writes seed archives made by the project's own writer into DIR: the
# unit tests' sample (conforming, nonconforming, malformed, damaged), the
# converter tests' archives (every record kind, hostile strings,
# truncations, garbage, bit flips) and the head of a synthetic trace.
# Each seed stays under 64 KiB, libFuzzer's -max_len here.
#
# usage: make_seeds.sh DIR FXT_SAMPLE CONVERT_GEN FXT_GEN
set -eu -o pipefail

dir=$1
sample=$2
convert_gen=$3
fxt_gen=$4
max=65536

mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$sample" "$dir/sample.fxt"
"$sample" --nonconforming "$dir/sample-nonconforming.fxt"
"$sample" --malformed "$dir/sample-malformed.fxt"
for seed in 1 2 3 4 5 6 7 8; do
	"$sample" --damaged "$seed" "$dir/sample-damaged-$seed.fxt"
done
for mode in all hostile; do
	mkdir -p "$tmp/$mode"
	"$convert_gen" "$mode" "$tmp/$mode"
	for f in "$tmp/$mode"/*; do
		head -c "$max" "$f" >"$dir/convert-$mode-$(basename "$f")"
	done
done
"$fxt_gen" -o "$tmp/gen.fxt" -m 1
head -c 4096 "$tmp/gen.fxt" >"$dir/gen-4k.fxt"
head -c "$max" "$tmp/gen.fxt" >"$dir/gen-64k.fxt"
