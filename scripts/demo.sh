#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fxtrace demo, from a fresh Debian 12 machine (as root): installs
# only what building and running needs (scripts/install-deps.sh --build),
# builds the Debian packages (scripts/build-deb.sh), installs them with
# apt, enables fxtraced.socket, and records the installed example
# provider plus the kernel's scheduling (the fxt_sched module when it is
# loaded, else BPF) with the installed tracectl through the installed
# manager. Where PID 1 is not systemd (a container) it says so and runs
# /usr/sbin/fxtraced itself on the same socket. Leaves trace.fxt and
# trace.json in the current directory.
#
#   sudo scripts/demo.sh [--seconds S]
#   scripts/demo.sh --help | --version
set -eu -o pipefail

seconds=3
usage_error() {
	echo "demo.sh: $*; see 'demo.sh --help'" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--seconds)
		[ $# -ge 2 ] || usage_error "option '--seconds' needs a value"
		seconds=$2; shift 2 ;;
	-h|--help)
		awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
		exit 0 ;;
	--version)
		sed -n "s/^[[:space:]]*version : '\(.*\)',\$/demo.sh (fxtrace \1)/p" \
			"$(dirname "$0")/../meson.build" | head -n 1
		exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) usage_error "unexpected argument '$1'" ;;
	esac
done

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: run as root (sudo $0): it installs packages and loads BPF programs" >&2
	exit 1
fi

out=$(pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
socket=/run/fxtrace/manager.sock
tracectl=/usr/bin/tracectl
example=/usr/libexec/fxtrace/fxt-example

echo "==> Installing build dependencies (scripts/install-deps.sh --build)"
"$src/scripts/install-deps.sh" --build

debs=$(mktemp -d /tmp/fxtrace-demo-XXXXXX)
daemon=""
cleanup() {
	if [ -n "$daemon" ]; then
		kill "$daemon" 2>/dev/null || true
		wait "$daemon" 2>/dev/null || true
	fi
	rm -rf "$debs"
}
trap cleanup EXIT INT TERM

echo "==> Building the packages (scripts/build-deb.sh)"
"$src/scripts/build-deb.sh" "$debs/pkg"

echo "==> Installing them: apt-get install ./*.deb"
# --reinstall: the tree may have changed while the version did not.
(cd "$debs/pkg" && DEBIAN_FRONTEND=noninteractive \
	apt-get -o DPkg::Lock::Timeout=600 install -y -q --reinstall \
	--no-install-recommends ./*.deb)

# The module, where DKMS could build it for the running kernel; else BPF.
# Say which, and why.
running=$(uname -r)
if [ -e /dev/fxt_sched ]; then
	backend="the fxt_sched module (loaded)"
elif [ ! -e /proc/modules ]; then
	backend="BPF: kernel $running has no module support, fxt_sched cannot load"
elif ! modinfo fxt_sched >/dev/null 2>&1; then
	backend="BPF: DKMS built no fxt_sched for kernel $running (no headers at /lib/modules/$running/build?)"
elif modprobe fxt_sched 2>/dev/null; then
	backend="the fxt_sched module (loaded now)"
else
	backend="BPF: 'modprobe fxt_sched' failed on kernel $running"
fi
echo "==> Kernel capture: $backend"

if [ -d /run/systemd/system ]; then
	echo "==> systemd: enabling fxtraced.socket; fxtraced starts at the first connection"
	systemctl enable --now fxtraced.socket
	systemctl is-active --quiet fxtraced.socket || {
		echo "demo.sh: fxtraced.socket is not active:" >&2
		systemctl status --no-pager fxtraced.socket >&2 || true
		exit 1
	}
elif "$tracectl" status >/dev/null 2>&1; then
	echo "==> PID 1 is not systemd; an fxtraced already serves $socket"
else
	echo "==> PID 1 is not systemd here (a container?): no socket activation;"
	echo "    running the installed /usr/sbin/fxtraced on $socket"
	mkdir -p "$(dirname "$socket")"
	/usr/sbin/fxtraced --socket "$socket" >"$debs/fxtraced.log" 2>&1 &
	daemon=$!
	tries=0
	until "$tracectl" status >/dev/null 2>&1; do
		tries=$((tries + 1))
		if [ "$tries" -gt 200 ] || ! kill -0 "$daemon" 2>/dev/null; then
			echo "demo.sh: fxtraced did not come up; its log:" >&2
			cat "$debs/fxtraced.log" >&2
			exit 1
		fi
		sleep 0.05
	done
fi

# 4000 iterations per thread keep the trace a few MB, quick to open.
# The example's first event waits until it has joined the trace.
FXTRACE_START_WAIT_MS=5000
export FXTRACE_START_WAIT_MS
echo "==> tracectl record: $example (up to ${seconds}s) with kernel scheduling (--kernel=auto)"
"$tracectl" record -o "$out/trace.fxt" --mode streaming --buffer-size 8M \
	--kernel=auto -- "$example" --seconds "$seconds" --threads 2 \
	--iterations 4000

if [ -n "$daemon" ]; then
	echo "==> Stopping the fxtraced this demo started"
	kill "$daemon"
	wait "$daemon" || true
	daemon=""
fi

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
Or: tracectl dump trace.fxt | less; man tracectl
Installed: fxtraced, tracectl, libfxt-provider (pkg-config), the module's
sources for DKMS; 'apt remove fxtrace libfxt-provider-dev libfxt-provider1
fxt-sched-dkms' removes them.
EOT

echo
echo "==> Top of tracectl summary trace.fxt"
"$tracectl" summary --top 5 "$out/trace.fxt" || true
