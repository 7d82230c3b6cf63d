#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs a test as fxtraced.service runs the manager, less CAP_SYSLOG (which
# only shows it /proc/kallsyms's addresses): an ordinary uid with
# CAP_PERFMON and CAP_BPF only (no CAP_SYS_ADMIN: /proc/PID/map_files is
# closed to it).
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "skip: needs root and setpriv"
	exit 77
fi
exec setpriv --reuid nobody --regid nogroup --clear-groups \
	--inh-caps +perfmon,+bpf --ambient-caps +perfmon,+bpf -- "$@"
