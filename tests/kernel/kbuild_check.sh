#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds fxt_sched against the installed Debian kernel headers with W=1
# (any warning fails) and runs checkpatch on kmod/.
# Exit 77 (skip) without kernel headers.
set -eu
top=$1
kdir=$(ls -d /usr/src/linux-headers-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$kdir" ]; then
	echo "no /usr/src/linux-headers-*-cloud-amd64: scripts/install-deps.sh installs them"
	exit 77
fi
work=$(mktemp -d /tmp/fxt-kbuild.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$top/Kbuild" "$top/kmod" "$top/include" "$work/"
if ! make -s -C "$kdir" M="$work" W=1 modules >"$work/log" 2>&1 ||
	grep -q "warning:" "$work/log"; then
	cat "$work/log"
	echo "FAIL: module build against ${kdir#/usr/src/linux-headers-} (W=1)"
	exit 1
fi
echo "built kmod/fxt_sched.ko against ${kdir#/usr/src/linux-headers-}, W=1 clean"
checkpatch=/opt/linux-tools/linux-source-6.1/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	echo "FAIL: no $checkpatch: scripts/install-deps.sh extracts it"
	exit 1
fi
# shellcheck disable=SC2046
"$checkpatch" --no-tree --quiet -f $(ls "$top"/kmod/*.[ch] "$top"/kmod/Kbuild) ||
	{ echo "FAIL: checkpatch"; exit 1; }
echo "checkpatch: kmod/ clean"
