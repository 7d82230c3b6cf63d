#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fuzz regression test: runs TARGET (a fuzz target linked with the
# replay driver) on the committed corpus and on fresh seeds made by the
# writer, so that every reproducer of a fixed bug is replayed.
#
# usage: replay.sh TARGET CORPUS_DIR FXT_SAMPLE CONVERT_GEN FXT_GEN
set -eu

target=$1
corpus=$2
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT

"$(dirname "$0")/make_seeds.sh" "$seeds" "$3" "$4" "$5"
exec "$target" "$corpus" "$seeds"
