#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# task_rename with --kernel=bpf: a thread that names itself with
# pthread_setname_np after it started shows its new name in summary
# --json (kernel:sched: its threads table); with kernel:sched and with
# kernel:proc alone, the dump holds its thread record under the old
# name, then under the new one.
set -eu -o pipefail

if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${KDEV_WORKLOAD:?}"

# named FILE TID NAME: summary --json of FILE lists thread TID as NAME.
named() {
	"$TRACECTL" summary --json "$1" | python3 -c '
import json, sys
tid, name = int(sys.argv[1]), sys.argv[2]
got = [t["name"] for t in json.load(sys.stdin)["threads"] if t["tid"] == tid]
if got != [name]:
    sys.exit("thread %d named %s, expected %s" % (tid, got, name))
' "$2" "$3"
}

start_manager
for cats in kernel:sched kernel:proc; do
	"$TRACECTL" record -o "$T/$cats.fxt" --kernel=bpf --categories "$cats" \
		-- "$KDEV_WORKLOAD" rename kdev-renamed >"$T/$cats.out" ||
		fail "tracectl record --categories $cats"
	tid=$(sed -n 's/^renamed=//p' "$T/$cats.out")
	[ -n "$tid" ] || fail "$cats: the workload did not say its thread"
	if [ "$cats" = kernel:sched ]; then
		named "$T/$cats.fxt" "$tid" kdev-renamed || fail "$cats: summary"
	fi
	"$TRACECTL" dump --strict "$T/$cats.fxt" >"$T/dump.out" ||
		fail "$cats: dump --strict"
	grep " type=thread koid=$tid " "$T/dump.out" | sed 's/.* name="\([^"]*\)".*/\1/' |
		uniq >"$T/names.out"
	[ "$(tail -1 "$T/names.out")" = kdev-renamed ] &&
		grep -qx kdev-workload "$T/names.out" ||
		fail "$cats: thread records $(tr '\n' ' ' <"$T/names.out")"
done
stop_manager
echo "rename: ok"
