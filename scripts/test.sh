#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The test command: installs what is needed, builds everything and runs
# every test (unit, sanitizers, integration, BPF, kmod under qemu).
set -eu -o pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "test.sh: run as root (sudo $0): it installs packages, loads BPF programs and boots qemu" >&2
	exit 1
fi

scripts/install-deps.sh

status=0
passed=0
failed=0
skipped=0
log=$(mktemp /tmp/fxtrace-test.XXXXXX)
trap 'rm -f "$log"' EXIT

step() {
	echo "==> $*"
	"$@" || { echo "FAILED: $*"; status=1; failed=$((failed + 1)); }
}

# Runs a test step and adds its counts (meson's "Ok:/Fail:/Skipped:"
# summary, or a script's closing "name: N passed, N failed") to the totals.
test_step() {
	echo "==> $*"
	if "$@" >"$log" 2>&1; then rc=0; else rc=$?; fi
	cat "$log"
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log")
	bad=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log")
	skip=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log")
	if [ -z "$ok" ]; then
		ok=$(sed -n 's/^[a-z_-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -n 1)
		bad=$(sed -n 's/^[a-z_-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -n 1)
	fi
	passed=$((passed + ${ok:-0}))
	skipped=$((skipped + ${skip:-0}))
	failed=$((failed + ${bad:-0}))
	if [ "$rc" -ne 0 ]; then
		echo "FAILED: $*"
		status=1
		[ -n "$bad" ] && [ "$bad" -gt 0 ] || failed=$((failed + 1))
	fi
}

if [ ! -d build ]; then
	meson setup build --werror
fi
step ninja -C build
test_step meson test -C build --print-errorlogs --num-processes 2

if [ ! -d build-asan ]; then
	meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
fi
step ninja -C build-asan
test_step env ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --print-errorlogs --num-processes 2 \
	--suite unit --suite convert --suite provider --suite integration

test_step scripts/qemu-kmod-test.sh
test_step scripts/qemu-system-test.sh

# The Debian packages: build, lintian, contents, maintainer scripts.
test_step tests/packaging/check_debs.sh

echo "fxtrace: $passed passed, $failed failed, $skipped skipped"
exit $status
