#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fuzz regression test: runs TARGET (a fuzz target linked with the
# replay driver) on the committed corpora and on fresh seeds made by the
# writer, so that every reproducer of a fixed bug is replayed, each input
# within the driver's time limit and the readers' memory bound.
#
# usage: replay.sh TARGET FXT_SAMPLE CONVERT_GEN FXT_GEN CORPUS_DIR...
set -eu -o pipefail

target=$1
here=$(dirname "$0")
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT

"$here/make_seeds.sh" "$seeds" "$2" "$3" "$4"
shift 4
. "$here/../common/reader_memory.sh"
if asan_build "$target"; then
	# No address-space limit under ASan: its RSS, with room for its
	# shadow and a smaller quarantine, and no allocation past the bound.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=64"
	ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=$((READER_MEMORY_MIB * 5 / 2))"
	ASAN_OPTIONS="$ASAN_OPTIONS:max_allocation_size_mb=$READER_MEMORY_MIB"
	export ASAN_OPTIONS
	exec "$target" "$@" "$seeds"
fi
under_reader_memory_limit "$target" "$@" "$seeds"
