# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the shell tests of tracectl's archive commands: a scratch
# directory $dir removed at exit, fail() that reports and counts, and
# check_summary that ends the test with the count.

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# check_summary WHAT: exit 1 if anything failed, else say WHAT passed.
check_summary() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
	echo "$1: all checks passed"
}
