#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fxtrace demo, from a fresh Debian 12 machine (as root): installs the
# build dependencies, builds, starts the trace manager on a private socket,
# records the example provider plus the kernel's scheduling (BPF or the
# kernel module when available), converts the trace to Chrome JSON and
# says how to look at it. Leaves trace.fxt and trace.json in the current
# directory.
#
#   sudo scripts/demo.sh [--seconds S]
set -eu

seconds=3
while [ $# -gt 0 ]; do
	case "$1" in
	--seconds) seconds=$2; shift 2 ;;
	-h|--help)
		sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
		exit 0 ;;
	*) echo "demo.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
	esac
done

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: run as root (sudo $0): it installs packages and loads BPF programs" >&2
	exit 1
fi

out=$(pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
build="$src/build"

echo "==> Installing build dependencies"
"$src/scripts/install-deps.sh"

echo "==> Building in $build"
if [ ! -d "$build" ]; then
	meson setup "$build" "$src"
fi
ninja -C "$build"

fxtraced="$build/daemon/manager/fxtraced"
tracectl="$build/daemon/tracectl/tracectl"
example="$build/libprovider/fxt-example"
for f in "$fxtraced" "$tracectl" "$example"; do
	[ -x "$f" ] || { echo "demo.sh: $f was not built" >&2; exit 1; }
done

run=$(mktemp -d /tmp/fxtrace-demo-XXXXXX)
FXTRACE_SOCKET="$run/manager.sock"
export FXTRACE_SOCKET
daemon=""
cleanup() {
	if [ -n "$daemon" ]; then
		kill "$daemon" 2>/dev/null || true
		wait "$daemon" 2>/dev/null || true
	fi
	rm -rf "$run"
}
trap cleanup EXIT INT TERM

echo "==> Starting fxtraced on $FXTRACE_SOCKET"
"$fxtraced" --socket "$FXTRACE_SOCKET" >"$run/fxtraced.log" 2>&1 &
daemon=$!
tries=0
until "$tracectl" status >/dev/null 2>&1; do
	tries=$((tries + 1))
	if [ "$tries" -gt 200 ] || ! kill -0 "$daemon" 2>/dev/null; then
		echo "demo.sh: fxtraced did not come up; its log:" >&2
		cat "$run/fxtraced.log" >&2
		exit 1
	fi
	sleep 0.05
done

# 4000 iterations per thread keep the trace a few MB, quick to open.
# The example's first event waits until it has joined the trace.
FXTRACE_START_WAIT_MS=5000
export FXTRACE_START_WAIT_MS
echo "==> Recording fxt-example (up to ${seconds}s) with kernel scheduling (--kernel=auto)"
"$tracectl" record -o "$out/trace.fxt" --mode streaming --buffer-size 8M \
	--kernel=auto -- "$example" --seconds "$seconds" --threads 2 \
	--iterations 4000

echo "==> Stopping fxtraced"
kill "$daemon"
wait "$daemon" || true
daemon=""

echo "==> Converting to Chrome JSON"
if "$tracectl" convert "$out/trace.fxt" -o "$out/trace.json"; then
	json_note="$out/trace.json (chrome://tracing, Perfetto UI)"
else
	json_note="(conversion failed; trace.fxt is complete)"
fi

echo "==> Summary"
"$tracectl" dump --summary-only "$out/trace.fxt" ||
	"$tracectl" dump "$out/trace.fxt" | tail -20

cat <<EOT

Trace:  $out/trace.fxt
JSON:   $json_note
To look at it: open https://ui.perfetto.dev, choose "Open trace file" and
pick trace.fxt (Perfetto reads FXT directly: threads, scheduling, events).
Or: tracectl dump trace.fxt | less
EOT

echo
echo "==> Top of tracectl summary trace.fxt"
"$tracectl" summary --top 5 "$out/trace.fxt" || true
