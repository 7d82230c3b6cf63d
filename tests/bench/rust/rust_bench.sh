#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Rust crate's cost per event against the C macros, in one process
# and one run (libprovider/rust/examples/bench.rs): built by cargo offline
# against BUILD's library, recorded by a private manager in a oneshot
# trace large enough that nothing is dropped (its pages mapped at start:
# no faults measured), category bench only.
#
#   rust_bench.sh BUILD [RUNS [EVENTS]]
#
# Prints the example's "RUST_BENCH key ns xRATIO peer" lines.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${1:?usage: rust_bench.sh BUILD [RUNS [EVENTS]]}" && pwd)
bench=$(FXT_BUILD_ROOT=$build FXT_SOURCE_ROOT=$top \
	"$top/tests/rust/cargo.sh" bench-example fxtrace-bench)
T=$(mktemp -d /tmp/fxt-rust-bench.XXXXXX)
export FXTRACE_SOCKET=$T/manager.sock
"$build/daemon/fxtraced/fxtraced" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
	>"$T/fxtraced.log" 2>&1 &
mgr=$!
trap 'kill "$mgr" 2>/dev/null; wait; rm -rf "$T"' EXIT
for _ in $(seq 600); do
	"$build/daemon/tracectl/tracectl" status >/dev/null 2>&1 && break
	sleep 0.1
done
# 8 runs (one warm-up) of the 8 rows that write (the registry's floors write
# nothing), 200000 events each of at most 40 bytes, fit.
"$build/daemon/tracectl/tracectl" record -o "$T/bench.fxt" --buffer-size 768M \
	--kernel=off --categories bench -- "$bench" "${2:-7}" "${3:-200000}" >"$T/out"
grep -E "^(RUST_BENCH|fxtrace-bench)" "$T/out"
# Dropped events would be cheaper ones: the figures would not hold.
grep -q "^The command's provider .* 0 dropped$" "$T/out" ||
	{ grep "provider" "$T/out" >&2; echo "rust_bench.sh: events dropped" >&2; exit 1; }
