#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Three "hosts" (hosts.sh: managers in time namespaces minutes apart);
# tracectl merge of the three archives puts every tick on the first
# one's clock within 1 ms: each tick's merged time, against the
# wall-clock moments read just before and after it was stamped, gives
# the same REALTIME - BOOTTIME as the first host's ticks. The merge
# conforms (dump --strict), each host's pids are its own, its process
# names and providers carry its name.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/hosts.sh"

record_hosts
merge_hosts
merged_ticks_aligned 1000000 || fail "ticks not aligned"
host=$(uname -n)
for k in 0 1 2; do
	suffix=$([ "$k" = 0 ] || echo "#$((k + 1))")
	grep -q "provider_info .*name=\"$host$suffix/app$k\"" "$T/fleet.dump" ||
		fail "no provider $host$suffix/app$k"
done
echo "merge_hosts: ok"
