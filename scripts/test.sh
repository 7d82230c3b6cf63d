#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The test command: installs what is needed, builds everything and runs
# every test (unit, sanitizers, integration, BPF, kmod under qemu).
set -eu
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "test.sh: run as root (sudo $0): it installs packages, loads BPF programs and boots qemu" >&2
	exit 1
fi

scripts/install-deps.sh

status=0
step() {
	echo "==> $*"
	"$@" || { echo "FAILED: $*"; status=1; }
}

if [ ! -d build ]; then
	meson setup build --werror
fi
step ninja -C build
step meson test -C build --print-errorlogs --num-processes 2

if [ ! -d build-asan ]; then
	meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
fi
step ninja -C build-asan
step env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --print-errorlogs --num-processes 2 \
	--suite unit --suite convert --suite provider --suite integration

if [ -x scripts/qemu-kmod-test.sh ]; then
	step scripts/qemu-kmod-test.sh
fi

exit $status
