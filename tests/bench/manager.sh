# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the benchmark scripts: a private fxtraced on a socket in
# $work, its pid in $mgr; fail() is the caller's.
export FXTRACE_SOCKET=$work/manager.sock
"$fxtraced" --socket "$FXTRACE_SOCKET" >"$work/fxtraced.log" 2>&1 &
mgr=$!
i=0
until "$tracectl" status >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "fxtraced did not come up: $(cat "$work/fxtraced.log")"
	sleep 0.05
done
