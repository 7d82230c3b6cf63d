#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds fxt_sched against the installed Debian kernel headers with W=1
# (any warning fails) and runs checkpatch on kmod/. Only the module's
# sources are checked: the files git tracks under Kbuild, kmod/ and
# include/ (outside git: the C sources and Kbuild files by name), never
# the by-products an in-tree 'make M=$PWD' leaves (fxt_sched.mod.c, .o).
# Exit 77 (skip) without kernel headers.
set -eu -o pipefail
top=$1
kdir=$(ls -d /usr/src/linux-headers-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$kdir" ]; then
	echo "no /usr/src/linux-headers-*-cloud-amd64: scripts/install-deps.sh installs them"
	exit 77
fi
checkpatch=/opt/linux-tools/linux-source-6.1/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	echo "FAIL: no $checkpatch: scripts/install-deps.sh extracts it"
	exit 1
fi
work=$(mktemp -d /tmp/fxt-kbuild.XXXXXX)
trap 'rm -rf "$work"' EXIT

if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top" ls-files -- Kbuild kmod include >"$work/sources"
else
	(cd "$top" && find Kbuild kmod include -type f \
		\( -name Kbuild -o -name '*.[ch]' \) ! -name '*.mod.c') \
		>"$work/sources"
fi
mkdir "$work/tree"
(cd "$top" && tar -cf - -T "$work/sources") | tar -C "$work/tree" -xf -

if ! make -s -C "$kdir" M="$work/tree" W=1 modules >"$work/log" 2>&1 ||
	grep -q "warning:" "$work/log"; then
	cat "$work/log"
	echo "FAIL: module build against ${kdir#/usr/src/linux-headers-} (W=1)"
	exit 1
fi
echo "built kmod/fxt_sched.ko against ${kdir#/usr/src/linux-headers-}, W=1 clean"
# shellcheck disable=SC2046
(cd "$work/tree" && "$checkpatch" --no-tree --quiet -f \
	$(grep -E '^kmod/([^/]*\.[ch]|Kbuild)$' "$work/sources")) ||
	{ echo "FAIL: checkpatch"; exit 1; }
echo "checkpatch: kmod/ clean"
