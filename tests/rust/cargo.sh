#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Cargo, offline, on the crate in libprovider/rust, against this build's
# libfxt-provider; its target directory in the build directory.
#
#   cargo.sh test               cargo test, without and with the tracing layer
#   cargo.sh example NAME       builds an example, prints its path
#   cargo.sh bench-example NAME the same, optimised
# Exit status 77 when cargo is missing (the test is skipped).
set -eu -o pipefail
# rustup's cargo is in ~/.cargo/bin, which a service's PATH may lack.
: "${CARGO:=$(command -v cargo || command -v "$HOME/.cargo/bin/cargo" || true)}"
: "${FXT_BUILD_ROOT:?}" "${FXT_SOURCE_ROOT:?}"
if [ -z "$CARGO" ] || [ ! -x "$CARGO" ]; then
	echo "cargo.sh: cargo not found; skipped" >&2
	exit 77
fi
export FXT_PROVIDER_LIB_DIR="$FXT_BUILD_ROOT/libprovider"
export FXT_PROVIDER_INCLUDE_DIR="$FXT_SOURCE_ROOT/include"
export CARGO_TARGET_DIR="$FXT_BUILD_ROOT/rust"
# .cargo/config.toml there: offline, from Debian's packaged crates.
cd "$FXT_SOURCE_ROOT/libprovider/rust"
cargo=("$CARGO" --offline --quiet)
case "${1:-}" in
test)
	nice "${cargo[@]}" test -j1
	nice "${cargo[@]}" test -j1 --features tracing ;;
example)
	nice "${cargo[@]}" build -j1 --features tracing --example "$2" >&2
	echo "$CARGO_TARGET_DIR/debug/examples/$2" ;;
bench-example)
	nice "${cargo[@]}" build -j1 --release --features tracing --example "$2" >&2
	echo "$CARGO_TARGET_DIR/release/examples/$2" ;;
*)
	echo "usage: cargo.sh test | example NAME | bench-example NAME" >&2
	exit 2 ;;
esac
