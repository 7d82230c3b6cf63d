#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds fxtrace's Debian packages into DIR with Debian's own tools
# (dpkg-buildpackage, debhelper with the meson build system), then runs
# lintian on them and fails on any error:
#   fxtrace              fxtraced, tracectl, systemd units, udev rule,
#                        sysusers (group tracing), man pages, completion
#   libfxt-provider1     the shared library
#   libfxt-provider-dev  headers, .so link, static library, .pc, man 3
#   fxt-sched-dkms       the fxt_sched module sources for DKMS
#   python3-fxtrace      the Python module fxtrace (dh-python)
#   librust-fxtrace-dev  the Rust crate's sources for cargo, offline
#                        (/usr/share/cargo/registry, as Debian's crates)
#
# What is packaged is the working tree's content of the files git knows
# or would add (tracked and untracked, minus what .gitignore ignores), so
# uncommitted edits are packaged as they are and build directories never
# are (nor DIR, if it lies in the tree). Outside a git checkout the
# tree is copied without build*/ dirs.
# The packaging lives in scripts/debian/ and becomes debian/ in a copy
# of the tree in a temporary directory; the source tree is not touched.
# Build dependencies: scripts/install-deps.sh --build.
#
#   scripts/build-deb.sh DIR
#   apt-get install ./DIR/*.deb
set -eu -o pipefail

usage() {
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
}

case "${1:-}" in
-h|--help) usage; exit 0 ;;
esac
if [ $# -ne 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ]; then
	echo "Usage: scripts/build-deb.sh DIR (see --help)" >&2
	exit 2
fi

src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)

version=$(sed -n "s/^[[:space:]]*version : '\([^']*\)'.*/\1/p" "$src/meson.build" |
	head -n 1)
[ -n "$version" ] || { echo "build-deb.sh: no version in meson.build" >&2; exit 1; }

work=$(mktemp -d /tmp/fxtrace-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree="$work/fxtrace-$version"
mkdir "$tree"

if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# Tracked and untracked-but-not-ignored files as they are on disk;
	# a tracked file deleted in the working tree is left out, and so is
	# DIR when it lies in the tree (the packages of an earlier run).
	case "$out/" in
	"$src"/*) skip="${out#"$src"/}/" ;;
	*) skip="" ;;
	esac
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		SKIP=$skip xargs -0 sh -c 'for f; do
			case "$f" in "$SKIP"*) [ -n "$SKIP" ] && continue ;; esac
			[ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"
		done; true' sh |
		tar --null -T - -cf -) | tar -C "$tree" -xf -
	stamp=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
	describe=$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown)
else
	(cd "$src" && tar --exclude='./build*' --exclude=./.git -cf - .) |
		tar -C "$tree" -xf -
	stamp=$(date +%s)
	describe="a source tree outside git"
fi

cp -r "$src/scripts/debian" "$tree/debian"
maintainer=$(sed -n 's/^Maintainer: //p' "$tree/debian/control")
cat >"$tree/debian/changelog" <<EOT
fxtrace ($version) unstable; urgency=medium

  * Packaged from $describe.

 -- $maintainer  $(date -R -u -d "@$stamp")
EOT

if ! (cd "$tree" && dpkg-checkbuilddeps) 2>"$work/deps"; then
	cat "$work/deps" >&2
	echo "build-deb.sh: build dependencies missing; as root: scripts/install-deps.sh --build" >&2
	exit 1
fi

echo "build-deb.sh: building fxtrace $version ($describe) in $tree"
# noddebs: no -dbgsym packages, so that DIR/*.deb is what users install.
if ! (cd "$tree" &&
      SOURCE_DATE_EPOCH=$stamp DEB_BUILD_OPTIONS="noddebs parallel=2" \
      nice dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
	tail -n 60 "$work/build.log" >&2
	echo "build-deb.sh: dpkg-buildpackage failed (last lines above)" >&2
	exit 1
fi

rm -f "$out"/fxtrace_*.deb "$out"/libfxt-provider*.deb "$out"/fxt-sched-dkms_*.deb \
	"$out"/python3-fxtrace_*.deb "$out"/librust-fxtrace-dev_*.deb
cp "$work"/*.deb "$out/"
ls -l "$out"/*.deb

echo "build-deb.sh: lintian"
if ! lintian --fail-on error --tag-display-limit 0 "$work"/*.deb; then
	echo "build-deb.sh: lintian reports errors" >&2
	exit 1
fi
echo "build-deb.sh: packages in $out"
