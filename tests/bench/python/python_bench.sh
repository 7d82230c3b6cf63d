#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# python_bench.sh BUILD [RUNS]: python_bench.py under tracectl record of a
# private fxtraced (category bench, circular: the buffer never fills),
# with an LTTng session taking the Python agent's logging events when
# run as root with lttng-tools (else the agent runs without a session
# daemon and says so). Prints python_bench.py's rows.
set -eu -o pipefail
build=${1:?usage: python_bench.sh BUILD [RUNS]}
runs=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
export PYTHONPATH=$build/libprovider/python
T=$(mktemp -d /tmp/fxt-pybench-XXXXXX)
export FXTRACE_SOCKET=$T/manager.sock
session=""
cleanup() {
	[ -n "${MGR:-}" ] && kill "$MGR" 2>/dev/null
	[ -n "$session" ] && lttng destroy "$session" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

"$build/daemon/fxtraced/fxtraced" --socket "$FXTRACE_SOCKET" \
	--allow-uid "$(id -u)" >"$T/fxtraced.log" 2>&1 &
MGR=$!
for _ in $(seq 200); do
	"$build/daemon/tracectl/tracectl" status >/dev/null 2>&1 && break
	sleep 0.05
done
if [ "$(id -u)" -eq 0 ] && command -v lttng >/dev/null; then
	pgrep -x lttng-sessiond >/dev/null || lttng-sessiond --daemonize --quiet
	session=fxtpybench-$$
	lttng create "$session" --output="$T/lttng" >/dev/null
	lttng enable-event --python -s "$session" fxtbench >/dev/null
	lttng start "$session" >/dev/null
	echo "python_bench: LTTng session $session takes the fxtbench logger's events"
else
	echo "python_bench: no LTTng session (not root, or no lttng-tools):" \
		"the agent's handler runs without a session daemon"
fi
"$build/daemon/tracectl/tracectl" record -o "$T/bench.fxt" --mode circular \
	--categories bench --kernel=off -- \
	nice -n 0 "$py" "$here/python_bench.py" --runs "$runs" >"$T/out" 2>&1 ||
	{ cat "$T/out"; exit 1; }
grep -v '^Tracing to\|^PROVIDER\|^Trace written\|^The command\|(exited)$' "$T/out"
