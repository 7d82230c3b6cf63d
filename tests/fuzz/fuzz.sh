#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs one libFuzzer target for a while, seeded by the committed corpus
# and by fresh writer-made archives, with the dictionary of extreme values
# (extremes.dict). BUILD is a clang build configured with -Dfuzzing=true
# (see README.md); new inputs go to WORK/corpus, crashes to WORK/
# (crash-*, leak-*, timeout-*, oom-*).
#
# usage: fuzz.sh BUILD reader|convert|dump|summary|report SECONDS [WORK]
set -eu -o pipefail

build=$1
target=$2
seconds=$3
work=${4:-fuzz-$target}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/reader_memory.sh"

corpora="$here/corpus/$target"
case $target in
summary|report) corpora="$here/corpus/summary $here/corpus/convert" ;;
esac
# the commands' diagnostics would drown libFuzzer's own lines
quiet=
[ "$target" = dump ] && quiet=-close_fd_mask=2
mkdir -p "$work/corpus"
"$here/make_seeds.sh" "$work/corpus" "$build/tests/unit/fxt-sample" \
	"$build/tests/convert/convert_gen" "$build/tests/unit/fxt-gen"
# Each input within 10 s and the readers' memory bound: ASan cannot run
# under an address-space limit (its shadow reserves terabytes), so no
# allocation may pass the bound and the RSS has room for ASan's shadow
# and a smaller quarantine only.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}:quarantine_size_mb=64" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}" \
exec "$build/tests/fuzz/fuzz_$target" -max_len=65536 -timeout=10 \
	-malloc_limit_mb="$READER_MEMORY_MIB" \
	-rss_limit_mb=$((READER_MEMORY_MIB * 5 / 2)) \
	-dict="$here/extremes.dict" \
	-max_total_time="$seconds" -print_final_stats=1 $quiet \
	-artifact_prefix="$work/" "$work/corpus" $corpora
