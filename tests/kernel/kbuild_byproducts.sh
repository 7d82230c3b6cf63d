#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kbuild_check.sh checks the module's tracked sources only: in a git copy
# of them, the by-products of an in-tree build (a generated .mod.c that
# checkpatch would reject, a stale object) do not fail it, and a
# checkpatch error in a tracked file does.
set -eu -o pipefail
top=$1
check="$top/tests/kernel/kbuild_check.sh"
if ! ls -d /usr/src/linux-headers-*-cloud-amd64 >/dev/null 2>&1; then
	echo "no kernel headers: scripts/install-deps.sh installs them; skipped"
	exit 77
fi
command -v git >/dev/null || { echo "no git; skipped"; exit 77; }
work=$(mktemp -d /tmp/fxt-kbuild-byproducts.XXXXXX)
trap 'rm -rf "$work"' EXIT

git -C "$top" ls-files -- Kbuild kmod include >"$work/sources"
mkdir "$work/repo"
(cd "$top" && tar -cf - -T "$work/sources") | tar -C "$work/repo" -xf -
git -C "$work/repo" init -q
git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=t -c user.email=t@localhost commit -q -m sources

# What 'make M=$PWD' leaves behind; the .mod.c breaks checkpatch's rules.
printf '#include <linux/module.h>\nint  x ;\n\n\n' >"$work/repo/kmod/fxt_sched.mod.c"
printf 'not an object' >"$work/repo/kmod/fxt_ring.o"
mkdir -p "$work/repo/kmod/.tmp_versions"
if ! bash "$check" "$work/repo" >"$work/log" 2>&1; then
	cat "$work/log"
	echo "FAIL: build by-products made the check fail"
	exit 1
fi
echo "ok: build by-products are ignored"

# A tracked source with a checkpatch error must fail.
printf 'static int  fxt_bad_style ;\n' >>"$work/repo/kmod/fxt_ring.c"
git -C "$work/repo" add kmod/fxt_ring.c
if bash "$check" "$work/repo" >"$work/log" 2>&1; then
	cat "$work/log"
	echo "FAIL: a checkpatch error in a tracked file passed"
	exit 1
fi
grep -q "FAIL: checkpatch\|FAIL: module build" "$work/log" || {
	cat "$work/log"
	echo "FAIL: the check failed for another reason"
	exit 1
}
echo "ok: a problem in a tracked file fails the check"
