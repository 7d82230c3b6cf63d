#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# In the booted guest of qemu-system-test.sh (systemd is PID 1, no
# network), from its payload disk: installs the packages in debs/ with
# apt, then checks the installed system step by step, one line each:
# "ok N - what" or "not ok N - what" with the evidence indented below.
# Ends with "# done".
# shellcheck disable=SC2086 # $packages: a list of package names
# The guest's runner starts this with sh: go on under bash, for pipefail.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u -o pipefail
# Under pipefail a "| grep -q" fails when it stops reading early and its
# writer gets SIGPIPE: the pipes here end in grep >/dev/null.
payload=$(cd "$(dirname "$0")" && pwd)
T=/var/tmp/fxt-system-test
rm -rf "$T"
mkdir -p "$T"
chmod 1777 "$T"
n=0
export DEBIAN_FRONTEND=noninteractive

# check "what" command...: one numbered step, its output kept on failure.
check() {
	what=$1
	shift
	n=$((n + 1))
	started=$(date +%s)
	if "$@" >"$T/step.out" 2>&1; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		sed 's/^/    /' "$T/step.out" | tail -n 40
	fi
	echo "# step $n: $(($(date +%s) - started)) s"
}
say() { echo "$*"; }
# Nothing may hang the guest: each command gets a minute.
as() { user=$1; shift; runuser -u "$user" -- timeout 60 "$@"; }
tracectl() { timeout 60 /usr/bin/tracectl "$@"; }
systemctl() { timeout 60 /bin/systemctl "$@"; }

# Waits up to 30 s for a shell condition.
wait_for() {
	deadline=$(($(date +%s) + 30))
	until eval "$1"; do
		[ "$(date +%s)" -lt "$deadline" ] ||
			{ say "timed out waiting for: $1"; return 1; }
		sleep 0.2
	done
}

kver=$(uname -r)
# The packages built by scripts/build-deb.sh (their names, one line).
packages=$(cat "$payload/packages")
# shellcheck disable=SC2086
files_of_packages() { dpkg -L $packages 2>/dev/null | sort -u; }
echo "# guest kernel $kver, $(systemctl --version | head -n 1)"

install_packages() {
	apt-get install -y -q --no-install-recommends "$payload"/debs/*.deb || return 1
	dkms status
	dkms status | grep "fxt-sched" | grep "$kver" | grep installed >/dev/null ||
		{ say "dkms did not install fxt_sched for $kver"; return 1; }
	modinfo -n fxt_sched
}
check "packages install with apt; DKMS built fxt_sched for $kver" install_packages

# Who is who: alice controls traces through group tracing, bob is any
# user (he may be a provider, not a controller).
useradd -m -G tracing alice || say "# useradd alice failed"
useradd -m bob || say "# useradd bob failed"
example=$(command -v fxt-example || files_of_packages | grep '/fxt-example$' | head -n 1)
echo "# example provider: ${example:-none}"

socket_activation() {
	systemctl is-active fxtraced.socket || return 1
	if systemctl is-active fxtraced.service; then
		say "fxtraced runs before anyone connected"
		return 1
	fi
	as alice tracectl status || return 1
	systemctl is-active fxtraced.service
}
check "fxtraced.socket listens; fxtraced starts on the first connection" socket_activation

# trace KERNEL NAME: root starts a trace, bob runs the example, alice
# stops it; root's next stop puts root's archive in place (only the uid
# that started a trace does, with its own rights); it passes dump
# --strict and holds both sides.
trace_with() {
	kernel=$1
	out=$T/$kernel.fxt
	tracectl start -o "$out" --kernel="$kernel" || return 1
	FXTRACE_START_WAIT_MS=5000 as bob "$example" --seconds 1 || return 1
	as alice tracectl stop || return 1
	[ ! -e "$out" ] || { say "alice put root's archive in place"; return 1; }
	tracectl stop || return 1
	archive_holds "$out"
}

# archive_holds FILE: dump --strict passes, provider events and the
# kernel's scheduling records are there.
archive_holds() {
	tracectl dump --strict "$1" >"$T/dump.out" 2>"$T/dump.err" ||
		{ tail -n 5 "$T/dump.err"; return 1; }
	tail -n 3 "$T/dump.out"
	events=$(grep -c '"example' "$T/dump.out")
	switches=$(grep -c " context_switch " "$T/dump.out")
	wakeups=$(grep -c " thread_wakeup " "$T/dump.out")
	say "$events example events, $switches context switches, $wakeups wakeups"
	[ "$events" -gt 0 ] && [ "$switches" -gt 10 ] && [ "$wakeups" -gt 0 ]
}

with_module() {
	modprobe fxt_sched || return 1
	# The device is root's until udev has applied the package's rule.
	udevadm settle || return 1
	ls -l /dev/fxt_sched || return 1
	trace_with kmod
}
check "kmod trace: root starts, a user's provider, a tracing member stops" with_module
check "bpf trace: root starts, a user's provider, a tracing member stops" trace_with bpf

# A provider in each language the packages serve, recorded by a member
# of group tracing: Python through python3-fxtrace, Rust through the
# crate's example built on the host (it links the installed library).
python_provider() {
	as alice tracectl record -o "$T/python.fxt" --kernel=off -- python3 -c '
import threading, fxtrace
with fxtrace.duration("guest", "work", n=7):
    fxtrace.instant("guest", "ping", ok=True)
t = threading.Thread(target=lambda: fxtrace.instant("guest", "pong"), name="pinger")
t.start(); t.join()' || return 1
	tracectl dump --strict "$T/python.fxt" >"$T/python.dump" || return 1
	grep 'category="guest"' "$T/python.dump"
	grep -q 'category="guest" name="work" .*n=7' "$T/python.dump" &&
		grep -q 'category="guest" name="ping" .*ok=true' "$T/python.dump" &&
		grep -q 'kernel_object .*type=thread .*name="pinger"' "$T/python.dump"
}
check "a Python provider (python3-fxtrace) records for a tracing member" python_provider

rust_provider() {
	[ -x "$payload/fxtrace-every-call" ] ||
		{ say "no Rust example on the payload (no cargo on the host)"; return 1; }
	as alice tracectl record -o "$T/rust.fxt" --kernel=off \
		--categories rust,rust.tracing -- "$payload/fxtrace-every-call" || return 1
	tracectl dump --strict "$T/rust.fxt" >"$T/rust.dump" || return 1
	say "$(grep -c 'category="rust' "$T/rust.dump") Rust events"
	grep -q 'category="rust"' "$T/rust.dump" &&
		grep -q 'category="rust.tracing"' "$T/rust.dump"
}
check "a Rust provider (the crate's example) records for a tracing member" rust_provider

outsider_refused() {
	if as bob tracectl start -o "$T/bob.fxt" 2>"$T/bob.err"; then
		say "bob could start a trace"
		as alice tracectl stop
		return 1
	fi
	cat "$T/bob.err"
	grep -q "tracing" "$T/bob.err" || { say "the refusal does not name group tracing"; return 1; }
	ls -l /dev/fxt_sched
	[ "$(stat -c '%U:%G %a' /dev/fxt_sched)" = "root:tracing 660" ] || return 1
	# Refused by the file's mode (the udev rule), not only by the module.
	if as bob sh -c 'exec 3</dev/fxt_sched' 2>"$T/open.err"; then
		say "bob opened /dev/fxt_sched"
		return 1
	fi
	cat "$T/open.err"
	grep -q "Permission denied" "$T/open.err"
}
check "a user outside tracing is refused with what to do; /dev/fxt_sched is root:tracing 0660" outsider_refused

# json_field NAME: the value of field NAME in the journal entries on stdin.
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }

# The kmod and bpf traces each have a start and an end entry that carry
# the same FXT_TRACE_ID and their output; the provider's entries carry
# its name and pid.
journal_fields() {
	journalctl -u fxtraced -o json --no-pager >"$T/journal.json" || return 1
	journalctl -u fxtraced -o verbose --no-pager |
		grep -E '^ *(MESSAGE|FXT_[A-Z_]*)=' | tail -n 30
	for kernel in kmod bpf; do
		id=$(grep '"MESSAGE":"Trace started' "$T/journal.json" |
			grep "\"FXT_OUTPUT\":\"[^\"]*/$kernel.fxt\"" | json_field FXT_TRACE_ID)
		[ -n "$id" ] || { say "no trace start for $kernel.fxt with FXT_TRACE_ID, FXT_OUTPUT"; return 1; }
		grep "\"FXT_TRACE_ID\":\"$id\"" "$T/journal.json" |
			grep '"MESSAGE":"Trace written' >/dev/null ||
			{ say "no 'Trace written' entry with FXT_TRACE_ID=$id"; return 1; }
	done
	grep '"FXT_PROVIDER_NAME":"fxt-example"' "$T/journal.json" | grep '"FXT_PROVIDER_PID":"[0-9]' >/dev/null ||
		{ say "no entry with FXT_PROVIDER_NAME=fxt-example and FXT_PROVIDER_PID"; return 1; }
}
check "journalctl -u fxtraced: trace start and stop with structured fields" journal_fields

stop_service_mid_trace() {
	tracectl start -o "$T/stopped.fxt" --kernel=kmod || return 1
	FXTRACE_START_WAIT_MS=5000 as bob "$example" --seconds 3 &
	sleep 1
	systemctl stop fxtraced.service || return 1
	wait
	systemctl show -p ActiveState -p Result -p ExecMainStatus fxtraced.service
	# No controller was there to put it in place: it is whole under its
	# hidden name beside the output.
	[ ! -e "$T/stopped.fxt" ] || { say "the archive was put in place without a controller"; return 1; }
	archive_holds "$(ls "$T"/.stopped.fxt.??????)"
}
check "systemctl stop fxtraced during a trace writes a complete archive (under its hidden name)" stop_service_mid_trace

# The BPF links PID 1 holds in fxtraced's descriptor store.
stored_links() { find /proc/1/fd -lname "anon_inode:bpf_link" 2>/dev/null | wc -l; }

# SIGKILL mid-trace (killed_service_resumes KERNEL): Restart= starts
# fxtraced again, which resumes the trace from /run/fxtrace/state, the
# archive and the kernel capture from the descriptor store (the module's
# session with its rings; the BPF ring map, programs and links, which
# kept the programs writing meanwhile); bob's provider hands its buffer
# back; the archive holds what was recorded before the kill and after,
# provider and kernel (context switches on both sides of the kill), and
# is marked recovered. BPF: the stop detaches the programs (the store
# lets its links go).
killed_service_resumes() {
	kernel=$1
	tracectl start -o "$T/killed-$kernel.fxt" --kernel="$kernel" || return 1
	FXT_START=$(cut -d' ' -f1 /proc/uptime)
	FXTRACE_START_WAIT_MS=5000 as bob "$example" --seconds 8 &
	example_pid=$!
	sleep 2
	if [ "$kernel" = bpf ]; then
		links=$(stored_links)
		say "BPF links in the descriptor store before the kill: $links"
		[ "$links" -gt 0 ] || { say "the BPF links are not in the descriptor store"; return 1; }
	fi
	old=$(systemctl show -P MainPID fxtraced.service)
	since=$(date '+%Y-%m-%d %H:%M:%S')
	killed_at=$(cut -d' ' -f1 /proc/uptime)
	systemctl kill -s KILL fxtraced.service || return 1
	# shellcheck disable=SC2016
	wait_for 'new=$(systemctl show -P MainPID fxtraced.service); [ "$new" != 0 ] && [ "$new" != "$old" ]' || return 1
	wait_for 'tracectl status | grep "^State: tracing" >/dev/null' ||
		{ journalctl -u fxtraced --since "$since" -o cat | tail -n 15; return 1; }
	wait_for 'journalctl -u fxtraced --since "$since" -o cat | grep "fxt-example.*handed its buffer" >/dev/null' ||
		{ journalctl -u fxtraced --since "$since" -o cat | tail -n 15; return 1; }
	wait "$example_pid" || return 1
	tracectl status | grep '^Archive:'
	tracectl stop || return 1
	journalctl -u fxtraced --since "$since" -o cat |
		grep -E "resumed after a restart|descriptor store|handed its buffer" | tail -n 6
	journalctl -u fxtraced --since "$since" -o cat | grep "capture taken back from the descriptor store" >/dev/null ||
		{ say "the $kernel capture was not taken back"; return 1; }
	if [ "$kernel" = bpf ]; then
		# shellcheck disable=SC2016
		wait_for '[ "$(stored_links)" = 0 ]' ||
			{ say "the store still holds $(stored_links) BPF links after the stop"; return 1; }
	fi
	archive_holds "$T/killed-$kernel.fxt" || return 1
	grep -q "trace was recovered after a restart" "$T/dump.out" ||
		{ say "the archive is not marked recovered"; return 1; }
	grep " context_switch " "$T/dump.out" | sed -n 's/.* ts=\([0-9]*\).*/\1/p' | sort -n >"$T/switch-ts"
	first=$(head -n 1 "$T/switch-ts")
	last=$(tail -n 1 "$T/switch-ts")
	say "trace started at ${FXT_START}s, killed at ${killed_at}s, context switches from ${first}ns to ${last}ns"
	awk -v f="$first" -v k="$killed_at" 'BEGIN { exit !(f != "" && f / 1e9 < k) }' ||
		{ say "no kernel record from before the kill"; return 1; }
	awk -v l="$last" -v k="$killed_at" 'BEGIN { exit !(l != "" && l / 1e9 > k) }' ||
		{ say "no kernel record from after the kill"; return 1; }
}
check "systemctl kill -s KILL fxtraced mid-trace (kmod): Restart= resumes the trace, nothing recorded is lost" killed_service_resumes kmod
check "systemctl kill -s KILL fxtraced mid-trace (bpf): Restart= resumes the trace, nothing recorded is lost" killed_service_resumes bpf

status_and_watchdog() {
	tracectl start -o "$T/status.fxt" --kernel=bpf || return 1
	systemctl status --no-pager fxtraced.service >"$T/status.out"
	cat "$T/status.out"
	grep -q '^ *Status: "' "$T/status.out" || { say "no Status: line"; return 1; }
	wd=$(systemctl show -P WatchdogUSec fxtraced.service)
	case "$wd" in
	"" | 0 | infinity) say "no watchdog: WatchdogUSec=$wd"; as alice tracectl stop; return 1 ;;
	esac
	# The first keep-alive comes within half the watchdog period.
	# shellcheck disable=SC2016
	wait_for '[ "$(systemctl show -P WatchdogTimestampMonotonic fxtraced.service)" != 0 ]'
	ts=$(systemctl show -P WatchdogTimestampMonotonic fxtraced.service)
	say "WatchdogUSec=$wd WatchdogTimestampMonotonic=$ts"
	as alice tracectl stop >/dev/null || return 1
	[ -n "$ts" ] && [ "$ts" != 0 ]
}
check "systemctl status shows STATUS=; the watchdog is armed" status_and_watchdog

# The flight recorder (flight_recorder KERNEL): the package leaves
# fxtrace-flight-recorder.service disabled; enabled with settings in
# /etc/fxtrace/flight-recorder.conf (a budget, two triggers and the
# kernel's latency trigger, the kernel backend), it runs the named circular trace within its budget (tracectl
# status); bob's provider fires a trigger: the snapshot in
# /var/lib/fxtrace/snapshots passes dump --strict and holds his events
# and the kernel's; systemctl stop ends the trace and writes its archive
# beside the snapshots.
flight_recorder() {
	kernel=$1
	unit=fxtrace-flight-recorder.service
	conf=/etc/fxtrace/flight-recorder.conf
	snaps=/var/lib/fxtrace/snapshots
	if [ "$kernel" = bpf ]; then	# the first run: as the package left it
		enabled=$(systemctl is-enabled "$unit")
		[ "$enabled" = disabled ] || { say "the package left $unit $enabled"; return 1; }
		grep -q '^FXT_MEMORY_BUDGET=67108864$' "$conf" ||
			{ say "no budget of 64M in $conf"; return 1; }
	fi
	sed -i -e 's/^FXT_TRIGGERS=.*/FXT_TRIGGERS=flight-recorder,jank/' \
		-e 's/^FXT_MEMORY_BUDGET=.*/FXT_MEMORY_BUDGET=33554432/' \
		-e "s/^FXT_KERNEL=.*/FXT_KERNEL=$kernel/" \
		-e 's/^FXT_TRIGGER_LATENCY=.*/FXT_TRIGGER_LATENCY=2s/' "$conf"
	rm -f "$snaps"/jank-*.fxt
	systemctl enable "$unit" || return 1
	if ! systemctl restart "$unit"; then
		journalctl -u "$unit" -o cat | tail -n 10
		return 1
	fi
	systemctl is-active "$unit" || return 1
	tracectl status >"$T/recorder.out"
	cat "$T/recorder.out"
	grep -q "^Name: flight-recorder" "$T/recorder.out" &&
		grep -q "^Mode: circular" "$T/recorder.out" &&
		grep -q "^Kernel: $kernel" "$T/recorder.out" &&
		grep -q "^Memory budget: 33554432 bytes" "$T/recorder.out" &&
		grep -Eq "^  trigger jank +fired 0" "$T/recorder.out" &&
		grep -Eq "^  trigger latency +fired" "$T/recorder.out" ||
		{ say "status does not show the flight recorder"; return 1; }
	FXTRACE_START_WAIT_MS=5000 as bob "$example" --seconds 1 --trigger jank || return 1
	# shellcheck disable=SC2016
	wait_for 'ls "$snaps" | grep "^jank-.*\.fxt$" >/dev/null' || return 1
	snap="$snaps/$(ls "$snaps" | grep "^jank-.*\.fxt$" | head -n 1)"
	ls -l "$snap"
	archive_holds "$snap" || return 1
	tracectl status | grep -E "^  (trigger|snapshot) jank"
	systemctl stop "$unit" || return 1
	tracectl status | grep "^State: idle" >/dev/null || { say "the stop left the trace running"; return 1; }
	systemctl is-active "$unit" && { say "$unit still active"; return 1; }
	tracectl dump --strict /var/lib/fxtrace/flight-recorder.fxt >/dev/null ||
		{ say "the stop's archive does not pass dump --strict"; return 1; }
	systemctl disable "$unit"
}
check "flight recorder (bpf): enabled, its budget and triggers from flight-recorder.conf; a trigger's snapshot passes dump --strict; systemctl stop ends it" flight_recorder bpf
check "flight recorder (kmod): a trigger's snapshot with the module's kernel records" flight_recorder kmod

# Debian's kernels add a level 3 to kernel.perf_event_paranoid (their
# default) at which perf_event_open() takes CAP_SYS_ADMIN, which the
# service lacks: kernel:sample is refused, saying what to do, and
# kernel:offcpu alone says its user frames will be "[unknown]"; then set
# to 2 (upstream's default), as fxtraced(8) says.
perf_paranoid_for_stacks() {
	level=$(cat /proc/sys/kernel/perf_event_paranoid)
	say "kernel.perf_event_paranoid = $level"
	if [ "$level" -gt 2 ]; then
		if tracectl record -o "$T/refused.fxt" --kernel=bpf \
			--categories kernel:sample -- true >"$T/refused.out" 2>&1; then
			say "kernel:sample started at kernel.perf_event_paranoid = $level"
			return 1
		fi
		cat "$T/refused.out"
		grep -q 'sysctl kernel.perf_event_paranoid=2' "$T/refused.out" || return 1
		# kernel:offcpu alone starts (no perf event of its own), but the
		# programs' mappings cannot be followed: said, not silent.
		tracectl record -o "$T/offcpu3.fxt" --kernel=bpf \
			--categories kernel:offcpu -- true >"$T/offcpu3.out" 2>&1 ||
			{ cat "$T/offcpu3.out"; return 1; }
		grep -q 'user frames will be "\[unknown\]"' "$T/offcpu3.out" ||
			{ cat "$T/offcpu3.out"; say "nothing said of the mappings not followed"; return 1; }
	fi
	sysctl -w kernel.perf_event_paranoid=2
}
check "kernel.perf_event_paranoid above 2 refuses kernel:sample and says kernel:offcpu's user frames are unnamed, saying what to do; set to 2" perf_paranoid_for_stacks

# Stack samples through the installed service (stack_samples_named
# EXPECT): the test's frame-pointer workload (tests/stacks, built on the
# host, installed where the service may open it: not under its private
# /tmp, /var/tmp or /home) recorded with kernel:sample and kernel:offcpu;
# summary --json names its user functions (burn_seventy) and, with
# EXPECT=named, kernel functions of its blocking stacks (the unit's
# CAP_SYSLOG: /proc/kallsyms shows addresses to it); with EXPECT=unnamed
# (the old unit: ProtectKernelLogs=yes drops CAP_SYSLOG,
# ProtectKernelTunables=yes hides /proc/kallsyms), they are all
# "[kernel]" and the journal and tracectl say so.
stack_samples_named() {
	expect=$1
	workload=/usr/local/bin/stack-workload
	[ -x "$payload/stack-workload" ] ||
		{ say "no stack-workload on the payload (no build directory on the host)"; return 1; }
	install -m 755 "$payload/stack-workload" "$workload" || return 1
	since=$(date '+%Y-%m-%d %H:%M:%S')
	sleep 1
	tracectl record -o "$T/stacks-$expect.fxt" --kernel=bpf \
		--categories kernel:sample,kernel:offcpu -- "$workload" --seconds 2 \
		>"$T/stacks.out" 2>&1
	rc=$?
	cat "$T/stacks.out"
	[ "$rc" -eq 0 ] ||
		{ journalctl -u fxtraced --since "$since" -o cat | tail -n 8; return 1; }
	tracectl summary --json "$T/stacks-$expect.fxt" >"$T/stacks.json" || return 1
	journalctl -u fxtraced --since "$since" -o cat |
		grep -i -e "kallsyms" -e "unnamed" -e "mapped files"
	python3 - "$T/stacks.json" "$expect" <<-'PY'
	import json, sys
	s = json.load(open(sys.argv[1]))
	expect = sys.argv[2]
	fns = s.get("functions", []) + s.get("offcpu", {}).get("functions", [])
	kernel = sorted({f["name"] for f in fns if f["category"] == "kernel"})
	user = sorted({f["name"] for f in fns if f["category"] != "kernel"})
	stacks = [x["stack"] for x in s.get("offcpu", {}).get("stacks", [])]
	print("samples:", s.get("stacks", {}))
	print("kernel functions:", kernel[:12])
	print("user functions:", user[:12])
	print("off-CPU stacks:", stacks[:3])
	named = [k for k in kernel if k != "[kernel]"]
	ok = "burn_seventy" in user and bool(stacks)
	ok = ok and (bool(named) if expect == "named" else not named)
	sys.exit(0 if ok else 1)
	PY
	[ $? -eq 0 ] || return 1
	if [ "$expect" = unnamed ]; then
		grep -q 'kernel frames' "$T/stacks.out" ||
			{ say "tracectl record did not say why kernel frames are unnamed"; return 1; }
		journalctl -u fxtraced --since "$since" -o cat |
			grep 'kernel frames will be "\[kernel\]"' >/dev/null ||
			{ say "no journal line on why kernel frames are unnamed"; return 1; }
	fi
}
check "stack samples through the service (bpf): kernel and user functions are named" stack_samples_named named

# The same under the old unit (without CAP_SYSLOG, ProtectKernelLogs=yes,
# ProtectKernelTunables=yes, which hides /proc/kallsyms): the check above
# would fail there; a drop-in puts it back for this step.
stack_samples_old_unit() {
	dropin=/etc/systemd/system/fxtraced.service.d
	mkdir -p "$dropin" || return 1
	cat >"$dropin/old-unit.conf" <<-EOF
	[Service]
	CapabilityBoundingSet=
	CapabilityBoundingSet=CAP_BPF CAP_PERFMON
	AmbientCapabilities=
	AmbientCapabilities=CAP_BPF CAP_PERFMON
	ProtectKernelLogs=yes
	ProtectKernelTunables=yes
	EOF
	systemctl daemon-reload && systemctl stop fxtraced.service
	stack_samples_named unnamed
	rc=$?
	rm -rf "$dropin"
	systemctl daemon-reload && systemctl stop fxtraced.service
	return "$rc"
}
check "under the old unit (ProtectKernelLogs=yes, ProtectKernelTunables=yes) kernel frames are \"[kernel]\", and the journal and tracectl say why" stack_samples_old_unit

units_verify() {
	units=$(files_of_packages | grep -E '/systemd/system/[^/]*\.(service|socket)$')
	say "$units"
	[ -n "$units" ] || return 1
	# shellcheck disable=SC2086
	systemd-analyze verify $units >"$T/verify.out" 2>&1
	rc=$?
	cat "$T/verify.out"
	[ "$rc" -eq 0 ] && [ ! -s "$T/verify.out" ]
}
check "systemd-analyze verify of the installed units is clean" units_verify

# What the packages put on the system, to look for after the purge.
files_of_packages >"$T/files"
remove_stops_service() {
	as alice tracectl status >/dev/null
	apt-get remove -y -q $packages || return 1
	systemctl is-active fxtraced.service fxtraced.socket && return 1
	if pgrep -x fxtraced; then
		say "fxtraced still runs"
		return 1
	fi
}
check "apt remove leaves no running service" remove_stops_service

# Only packages with configuration files are left to purge after the
# remove (apt knows the others no more: the guest has no package lists).
purge_leaves_nothing() {
	left=$(dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' $packages 2>/dev/null |
		grep -v '^un' | sed -n 's/^[a-z][a-z]  *//p')
	say "to purge: $left"
	[ -z "$left" ] || apt-get purge -y -q $left || return 1
	left=$(while read -r f; do
		[ -e "$f" ] && [ ! -d "$f" ] && echo "$f"
	done <"$T/files")
	left="$left$(ls -d /var/lib/dkms/fxt-sched /lib/modules/*/updates/dkms/fxt_sched.ko* \
		/etc/systemd/system/*/fxtraced.* 2>/dev/null)"
	left="$left$(dpkg -l $packages 2>/dev/null | grep '^[a-z][a-z] ' | grep -v '^un')"
	[ -z "$left" ] || { say "left after purge:"; say "$left"; return 1; }
}
check "apt purge leaves no files" purge_leaves_nothing

echo "# done"
