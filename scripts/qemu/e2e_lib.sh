# SPDX-License-Identifier: GPL-2.0-only
# In the guest, sourced by the e2e scripts with T (their directory) and
# E2E_TEST (the name they print) set: fail() and a running fxtraced
# ($mgr) on $T/manager.sock that answers tracectl.
set -o pipefail
mkdir -p "$T"
export FXTRACE_SOCKET="$T/manager.sock"
fail() {
	echo "  $*"
	echo "--- fxtraced log"
	sed 's/^/  /' "$T/fxtraced.log"
	kill "$mgr" 2>/dev/null
	echo "FAIL $E2E_TEST"
	exit 1
}

/bin/fxtraced --socket "$FXTRACE_SOCKET" --allow-uid 0 >"$T/fxtraced.log" 2>&1 &
mgr=$!
i=0
until /bin/tracectl status >/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -lt 600 ] || fail "fxtraced did not answer"
	sleep 0.1
done
