#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Runs one libFuzzer target for a while, seeded by the committed corpus
# and by fresh writer-made archives. BUILD is a clang build configured
# with -Dfuzzing=true (see README.md); new inputs go to WORK/corpus,
# crashes to WORK/ (crash-*, leak-*, timeout-*).
#
# usage: fuzz.sh BUILD reader|convert|dump SECONDS [WORK]
set -eu

build=$1
target=$2
seconds=$3
work=${4:-fuzz-$target}
here=$(cd "$(dirname "$0")" && pwd)

# the dump's diagnostics would drown libFuzzer's own lines
quiet=
[ "$target" = dump ] && quiet=-close_fd_mask=2
mkdir -p "$work/corpus"
"$here/make_seeds.sh" "$work/corpus" "$build/tests/unit/fxt-sample" \
	"$build/tests/convert/convert_gen" "$build/tests/unit/fxt-gen"
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}" \
exec "$build/tests/fuzz/fuzz_$target" -max_len=65536 -timeout=10 \
	-max_total_time="$seconds" -print_final_stats=1 $quiet \
	-artifact_prefix="$work/" "$work/corpus" "$here/corpus/$target"
