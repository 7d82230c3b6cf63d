#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Rust crate fxtrace (libprovider/rust) the way Debian ships
# crates (librust-*-dev): its sources in REGISTRY/fxtrace-VERSION with a
# .cargo-checksum.json, a directory that cargo takes as a source of
# crates (/usr/share/cargo/registry in package librust-fxtrace-dev).
# debian/rules runs it; so does the test of a project built offline.
#
#   install-crate.sh SOURCE_ROOT REGISTRY
set -eu
[ $# -eq 2 ] || { echo "usage: install-crate.sh SOURCE_ROOT REGISTRY" >&2; exit 2; }
src=$1/libprovider/rust
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$src/Cargo.toml" | head -n 1)
[ -n "$version" ] || { echo "install-crate.sh: no version in $src/Cargo.toml" >&2; exit 1; }
mkdir -p "$2"
dest=$(cd "$2" && pwd)/fxtrace-$version
rm -rf "$dest"
mkdir -p "$dest"
# What a published crate holds: not .cargo/ (the tree's own offline set-up).
(cd "$src" && cp -R Cargo.toml build.rs README.md src examples tests "$dest/")
# A directory source needs the file; "files" empty: cargo checks none of
# them (as Debian's crates), "package" goes into the users' Cargo.lock.
sum=$(cd "$dest" && find . -type f | LC_ALL=C sort | xargs sha256sum |
	sha256sum | cut -d' ' -f1)
printf '{"package":"%s","files":{}}\n' "$sum" >"$dest/.cargo-checksum.json"
echo "$dest"
