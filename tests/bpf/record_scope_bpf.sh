#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl record is about the command: beside a busy unrelated process
# (dd), record -- sh -c 'ls ...; sleep' marks the command's process in
# the archive, and summary keeps to its process tree (sh, ls, sleep,
# followed through kernel:proc's forks) unless --all; --pid and
# --process choose another tree. record adds kernel:proc to a category
# list without it. An archive of tracectl start holds no mark: summary
# shows every process. (And status counts the kernel as one provider,
# whatever its categories.)
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/../integration/lib.sh"

# processes NAMES... < summary JSON: the set of process names of its
# threads is exactly NAMES.
processes() {
	python3 -c '
import json, sys
want = set(sys.argv[1:])
s = json.load(sys.stdin)
got = {t["process"] for t in s["threads"]}
if got != want:
    sys.exit("processes %s, expected %s" % (sorted(got), sorted(want)))
' "$@"
}

# has_process NAME < summary JSON: a thread of process NAME is listed.
has_process() {
	python3 -c '
import json, sys
s = json.load(sys.stdin)
if sys.argv[1] not in {t["process"] for t in s["threads"]}:
    sys.exit("no thread of %s" % sys.argv[1])
' "$1"
}

start_manager
dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
BG_PIDS="$BG_PIDS $!"

cmd='ls -la / >/dev/null; sleep 0.1'
"$TRACECTL" record -o "$T/cmd.fxt" --kernel=bpf -- sh -c "$cmd" \
	>"$T/record.out" || fail "tracectl record"
"$TRACECTL" dump --strict "$T/cmd.fxt" >/dev/null || fail "dump --strict"

"$TRACECTL" summary --json "$T/cmd.fxt" >"$T/cmd.json"
processes sh ls sleep <"$T/cmd.json" || fail "summary is not about the command"
grep -q '"scope":"the command'"'"'s process tree (pid [0-9]*)","command_pid":[0-9]' \
	"$T/cmd.json" || fail "the JSON does not say what it keeps to"
"$TRACECTL" summary "$T/cmd.fxt" >"$T/cmd.txt"
grep -q "^Threads and slices of the command's process tree (pid [0-9]*); --all for every process$" \
	"$T/cmd.txt" || fail "the table does not say what it keeps to"

"$TRACECTL" summary --all --json "$T/cmd.fxt" >"$T/all.json"
for p in sh ls sleep dd tracectl; do
	has_process "$p" <"$T/all.json" || fail "--all leaves out $p"
done
grep -q '"scope":"every process"' "$T/all.json" || fail "--all scope"

ls_pid=$(python3 -c '
import json, sys
print([t["pid"] for t in json.load(sys.stdin)["threads"] if t["process"] == "ls"][0])
' <"$T/cmd.json")
"$TRACECTL" summary --json --pid "$ls_pid" "$T/cmd.fxt" | processes ls ||
	fail "--pid $ls_pid"
"$TRACECTL" summary --json --process dd "$T/cmd.fxt" | processes dd ||
	fail "--process dd"
"$TRACECTL" report --process ls -o "$T/cmd.html" "$T/cmd.fxt" ||
	fail "report --process"
grep -q 'processes named' "$T/cmd.html" || fail "the report does not say what it keeps to"

set +e
"$TRACECTL" summary --all --pid 3 "$T/cmd.fxt" >"$T/usage.out" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "--all with --pid: exit $status, not 2"
grep -q "exclude each other" "$T/usage.out" || fail "--all with --pid: $(cat "$T/usage.out")"

# Without kernel:proc in the list, record adds it: the tree is followed.
"$TRACECTL" record -o "$T/sched.fxt" --kernel=bpf --categories kernel:sched \
	-- sh -c "$cmd" >"$T/sched.out" || fail "record --categories kernel:sched"
grep -q "^  kernel:proc " "$T/sched.out" || fail "record did not add kernel:proc"
"$TRACECTL" summary --json "$T/sched.fxt" | processes sh ls sleep ||
	fail "summary of record --categories kernel:sched"

# start/stop: no command, every process.
"$TRACECTL" start -o "$T/plain.fxt" --kernel=bpf >/dev/null
sh -c "$cmd"
# A process of no command of ours: such a trace keeps to no process tree.
dd if=/dev/zero of=/dev/null bs=4k count=20000 2>/dev/null
# status counts providers (the kernel), not its category rows
"$TRACECTL" status >"$T/status.out"
grep -q "^    kernel:proc " "$T/status.out" || fail "status: no category rows: $(cat "$T/status.out")"
grep -q "^Providers: 1$" "$T/status.out" || fail "status counts: $(cat "$T/status.out")"
"$TRACECTL" stop >/dev/null
"$TRACECTL" summary --json "$T/plain.fxt" >"$T/plain.json"
has_process dd <"$T/plain.json" || fail "a trace of start keeps to something"
if grep -q '"command_pid"' "$T/plain.json"; then
	fail "a trace of start marks a command"
fi
stop_manager
echo "record_scope: ok"
