#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl start --kernel=kmod without the module's device names the fix
# this machine needs: "install fxt-sched-dkms" when no module is
# installed for the running kernel, "modprobe fxt_sched" when one is. The
# installed modules are played by a modules.dep of our own, in a mount
# namespace of the test's own.
if [ -z "${FXT_KMOD_NS:-}" ]; then
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
	   [ -e /dev/fxt_sched ] || [ -e /sys/module/fxt_sched ] ||
	   [ ! -d /lib/modules ]; then
		echo "kmod_hint: needs root, unshare, /lib/modules and no loaded fxt_sched; skipped"
		exit 77
	fi
	FXT_KMOD_NS=1 exec unshare --mount --propagation private bash "$0"
fi
. "$(dirname "$0")/lib.sh"

mount -t tmpfs tmpfs /lib/modules
mkdir -p "/lib/modules/$(uname -r)"
start_manager

kmod_start() {
	set +e
	"$TRACECTL" start -o "$T/k.fxt" --kernel=kmod 2>"$T/kmod.err"
	status=$?
	set -e
	[ "$status" -eq 1 ] || fail "--kernel=kmod without the module exited $status"
	[ ! -e "$T/k.fxt" ] || fail "a failed start left its archive"
}

echo "kernel/sched/core.ko.xz:" >"/lib/modules/$(uname -r)/modules.dep"
kmod_start
grep -q "no fxt_sched module for kernel $(uname -r): install fxt-sched-dkms" "$T/kmod.err" ||
	{ cat "$T/kmod.err"; fail "no hint to install fxt-sched-dkms"; }

echo "updates/dkms/fxt_sched.ko.xz:" >>"/lib/modules/$(uname -r)/modules.dep"
kmod_start
grep -q "not loaded: load it: sudo modprobe fxt_sched" "$T/kmod.err" ||
	{ cat "$T/kmod.err"; fail "no hint to load the module"; }
grep -q "fxt-sched-dkms" "$T/kmod.err" && fail "asked to install an installed module"

# auto goes on without the module, and gives no module hint.
"$TRACECTL" start -o "$T/a.fxt" --kernel=auto >"$T/auto.out" 2>&1
grep -q "kernel bpf\|kernel off" "$T/auto.out" || fail "auto did not go on"
! grep -q "fxt-sched-dkms\|modprobe" "$T/auto.out" || fail "auto gave a module hint"
"$TRACECTL" stop >/dev/null
check "$T/a.fxt"
stop_manager
echo "kmod_hint: ok"
