# SPDX-License-Identifier: GPL-2.0-only
# Shared by the integration tests: a private fxtraced on a temporary
# socket, providers in the background, and archive checks. Waits poll for
# a state (with a generous ceiling that only catches hangs); no test
# asserts how long anything takes.
set -eu -o pipefail

: "${FXTRACED:?}" "${TRACECTL:?}" "${PROTO_PROVIDER:?}" "${CHECK_ARCHIVE:?}"

T=$(mktemp -d /tmp/fxt-it-XXXXXX)
chmod 755 "$T"
export FXTRACE_SOCKET="$T/manager.sock"
MGR=""
BG_PIDS=""

# FOREIGN: the prefix for a program not built by this build (python3, a
# Rust example) that loads its libfxt-provider: in a sanitized build ASan's
# runtime must be loaded first, and that program's own leaks are not ours.
FOREIGN=()
if [ -n "${FXT_SANITIZED:-}" ]; then
	FOREIGN=(env "LD_PRELOAD=$(cc -print-file-name=libasan.so)"
		"ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
fi

cleanup() {
	status=$?
	for p in $BG_PIDS; do kill -9 "$p" 2>/dev/null || true; done
	if [ -n "$MGR" ]; then kill "$MGR" 2>/dev/null || true; fi
	wait 2>/dev/null || true
	if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
		echo "--- fxtraced log"; cat "$T/fxtraced.log" 2>/dev/null || true
		for f in "$T"/*.out; do
			[ -e "$f" ] && { echo "--- $f"; cat "$f"; }
		done
	fi
	rm -rf "$T"
	exit "$status"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# poll CMD...: retries CMD until it succeeds (ceiling: 60 s, a hang).
poll() {
	i=0
	until "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -lt 1200 ] || fail "timed out waiting for: $*"
		sleep 0.05
	done
}

# start_refused STATUS WHY ARGS...: tracectl start ARGS exits STATUS
# saying WHY.
start_refused() {
	expect_status=$1
	why=$2
	shift 2
	set +e
	"$TRACECTL" start -o "$T/never.fxt" "$@" >"$T/usage.out" 2>&1
	status=$?
	set -e
	[ $status -eq "$expect_status" ] ||
		fail "start $*: exit $status, expected $expect_status: $(cat "$T/usage.out")"
	grep -q -- "$why" "$T/usage.out" ||
		fail "start $*: does not say '$why': $(cat "$T/usage.out")"
}

# start_usage WHY ARGS...: tracectl start ARGS exits 2 saying WHY.
start_usage() {
	start_refused 2 "$@"
}

start_manager() {
	"$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" "$@" \
		>"$T/fxtraced.log" 2>&1 &
	MGR=$!
	poll "$TRACECTL" status
}

stop_manager() {
	kill -TERM "$MGR"
	wait "$MGR" || fail "fxtraced exited with status $?"
	MGR=""
}

# manager_fds: the descriptors fxtraced holds.
manager_fds() {
	ls "/proc/$MGR/fd" | wc -l
}

# no_connections: fxtraced holds no connected socket (the last tracectl's
# included: it may close its end before fxtraced has seen the hang-up).
no_connections() {
	! ss -xpH state established | grep "pid=$MGR," >/dev/null
}

# idle_fds: fxtraced's descriptors once it holds no connection, the base
# for a leak check.
idle_fds() {
	poll no_connections
	manager_fds
}

provider_connected() {
	"$TRACECTL" status | grep "^  $1 " >/dev/null
}

# start_provider NAME [proto-provider options]: runs it, waits until the
# manager lists it.
start_provider() {
	name=$1
	shift
	# Emptied by us, not by the child's redirection, which may come after
	# a wait_wrote that would read a provider of the same name's last run.
	: >"$T/$name.out"
	"$PROTO_PROVIDER" --name "$name" "$@" >"$T/$name.out" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	poll provider_connected "$name"
}

wrote() {
	grep -q '^wrote' "$T/$1.out"
}

wait_wrote() {
	poll wrote "$1"
}

# check FILE: the independent archive check; prints per-provider lines
# into $T/check.out. Also tracectl dump --strict when it is built.
check() {
	"$CHECK_ARCHIVE" "$1" >"$T/check.out" || fail "archive check of $1"
	cat "$T/check.out"
	if "$TRACECTL" dump --help >/dev/null 2>&1; then
		"$TRACECTL" dump --strict "$1" >"$T/dump.out" 2>&1 ||
			{ cat "$T/dump.out"; fail "tracectl dump --strict $1"; }
	fi
}

# field NAME KEY: a value from the check output for provider NAME.
field() {
	awk -v n="$1" -v k="$2" '$1 == n {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] }
	}' "$T/check.out"
}

expect_field() {
	v=$(field "$1" "$2")
	[ "$v" = "$3" ] || fail "provider $1: $2 is '$v', expected $3"
}

# Triggers (tests with $TRIGGER_PROVIDER; snapshots in $T/snaps).
# snapshots NAME: the snapshot files of trigger NAME, one a line.
snapshots() {
	ls "$T/snaps" | grep "^$1-.*\.fxt$" || true
}

has_snapshot() {
	[ -n "$(snapshots "$1")" ]
}

# marks FILE: the n arguments of the "mark" instants in FILE, one a line.
marks() {
	"$TRACECTL" dump "$1" | sed -n 's/.*name="mark" n=\([0-9]*\).*/\1/p'
}

# run_provider STEPS...: the trigger provider runs all its steps.
run_provider() {
	"$TRIGGER_PROVIDER" "$@" >"$T/provider.out" 2>&1 ||
		fail "trigger-provider $*: $(cat "$T/provider.out")"
}

# start_stored: fxtraced under fdstore.py (a service manager's
# descriptor store: FDSTORE=1, LISTEN_FDS at a restart), its kept names
# listed in $STORED, its state in $STATE; SIGUSR1 to $MGR kills the
# manager, SIGUSR2 starts it again.
start_stored() {
	python3 "$(dirname "${BASH_SOURCE[0]}")/fdstore.py" "$STORED" \
		"$FXTRACED" --socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
		--state-dir "$STATE" >"$T/fxtraced.log" 2>&1 &
	MGR=$!	# cleanup ends it, and it the manager
	poll "$TRACECTL" status
}

# unit_value NAME: NAME='s values in fxtraced.service ($FXTRACED_SERVICE),
# one line per assignment.
unit_value() {
	sed -n "s/^$1=//p" "$FXTRACED_SERVICE"
}

# unit_caps [-CAP...]: the unit's AmbientCapabilities= as setpriv takes
# them ("CAP_BPF CAP_PERFMON" -> "+bpf,+perfmon"), without those named
# ("-syslog": all but CAP_SYSLOG).
unit_caps() {
	local drop=${1:-}

	unit_value AmbientCapabilities | tr 'A-Z ' 'a-z\n' | sed -n 's/^cap_/+/p' |
		grep -vx -F -e "+${drop#-}" | paste -sd,
}

# start_manager_with_caps CAPS: fxtraced as nobody with only CAPS (as
# setpriv takes them), in $T, its socket in $T/run.
start_manager_with_caps() {
	install -d -o nobody "$T/run"
	install -m 755 "$FXTRACED" "$T/fxtraced"
	export FXTRACE_SOCKET="$T/run/manager.sock"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps="-all,$1" --ambient-caps="-all,$1" \
		--bounding-set="-all,$1" "$T/fxtraced" \
		--socket "$FXTRACE_SOCKET" --allow-uid 0 >"$T/fxtraced.log" 2>&1 &
	MGR=$!
	poll "$TRACECTL" status
}
