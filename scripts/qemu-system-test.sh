#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The installed system, proven on a booted Debian 12: builds the .deb
# packages with scripts/build-deb.sh, boots Debian's cloud kernel under
# qemu (TCG) on a debootstrap'd root file system with systemd as PID 1,
# installs the packages there with apt (DKMS builds the module for that
# kernel) and runs scripts/qemu/system-test.sh in the guest: socket
# activation, traces with the module and with BPF, group tracing, the
# journal, stopping the service mid-trace, status and watchdog, the
# flight recorder unit (bpf and kmod), stack samples with named kernel
# and user functions, unit verification, remove and purge. Prints the guest's "ok N - ..." lines
# and one line: "qemu-system: N passed, M failed". Exit status 0 if all
# passed.
#
# The root file system is cached in $FXT_QEMU_SYSTEM_CACHE (default
# /var/cache/fxtrace/qemu-system), keyed by a hash of what goes into it
# (package list, guest kernel, the image set-up below), and rebuilt when
# missing. Each boot writes to a throw-away overlay (snapshot=on), so
# the cached image stays as built.
#
# FXT_QEMU_LOG=FILE: keep the serial log there (printed on failure).
# FXT_QEMU_TIMEOUT=S: give up on the guest after S seconds (default 1500).
set -eu -o pipefail
cd "$(dirname "$0")/.."

need() {
	command -v "$1" >/dev/null 2>&1 ||
		[ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}
if ! need qemu-system-x86_64 || ! need debootstrap || ! need mkfs.ext4 ||
	! need debugfs || ! need dpkg-buildpackage || ! need lintian ||
	! ls -d /usr/src/linux-headers-*-cloud-amd64 >/dev/null 2>&1; then
	scripts/install-deps.sh
fi

fail() {
	echo "qemu-system: 0 passed, 1 failed ($*)"
	exit 1
}

# The guest kernel: Debian's cloud kernel, the version whose headers the
# host has (the one qemu-kmod-test.sh builds against).
kdir=$(ls -d /usr/src/linux-headers-*-cloud-amd64 | sort -V | tail -n 1)
kver=${kdir#/usr/src/linux-headers-}

work=$(mktemp -d /tmp/fxt-qsys.XXXXXX)
cleanup() {
	[ -n "${rootfs_tmp:-}" ] && rm -rf "$rootfs_tmp"
	rm -rf "$work"
}
trap cleanup EXIT
log=${FXT_QEMU_LOG:-$work/serial.log}
now() { date +%s; }
t0=$(now)

# 1. The packages, from the tree.
mkdir -p "$work/payload/debs"
if ! nice scripts/build-deb.sh "$work/payload/debs" >"$work/build-deb.log" 2>&1; then
	tail -n 40 "$work/build-deb.log"
	fail "scripts/build-deb.sh failed"
fi
ls "$work/payload/debs/"*.deb >/dev/null 2>&1 || fail "scripts/build-deb.sh made no .deb"
t_debs=$(now)

# 2. The root file system. Besides systemd, the guest needs what DKMS
# needs to build the module (the headers of its kernel, a compiler) and
# the packages' own dependencies: it has no network, so apt can install
# the .debs only when everything they depend on is already there.
ours=""
for deb in "$work/payload/debs/"*.deb; do
	ours="$ours $(dpkg-deb -f "$deb" Package)"
done
# Depends and Pre-Depends, first of each alternative, version dropped,
# not the packages built here.
deb_deps=$(for deb in "$work/payload/debs/"*.deb; do
	dpkg-deb -f "$deb" Pre-Depends Depends
done | sed 's/^[A-Za-z-]*: //' | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//' |
	tr -d ' ' | grep -v '^$' | sort -u)
for p in $ours; do
	deb_deps=$(echo "$deb_deps" | grep -vx "$p" || true)
done
# man-db: systemd-analyze verify looks up the units' Documentation= pages.
# shellcheck disable=SC2086
guest_packages=$(echo systemd-sysv udev dbus kmod procps dkms gcc make \
	libc6-dev man-db linux-image-$kver linux-headers-$kver $deb_deps |
	tr ' ' '\n' | grep -v '^$' | sort -u | tr '\n' ' ')

# The mirror the host's apt uses (deb822 or one-line sources).
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources \
	2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\) .*/\2/p' \
	/etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || fail "no Debian mirror in /etc/apt/sources.list{,.d/debian.sources}"

cache=${FXT_QEMU_SYSTEM_CACHE:-/var/cache/fxtrace/qemu-system}
# The key covers the package list, the kernel and this script's image
# set-up (everything from "build_rootfs()" to its closing brace).
key=$( { echo "$guest_packages $kver"
	sed -n '/^build_rootfs()/,/^}/p' scripts/qemu-system-test.sh; } |
	sha256sum | cut -c1-16)
image=$cache/$key

# Builds the root file system in $rootfs_tmp, then the image in $image.
build_rootfs() {
	dir=$rootfs_tmp/root
	echo "qemu-system: building the guest root file system in $image (debootstrap from $mirror)"
	debootstrap --variant=minbase --include=systemd-sysv,udev,dbus,kmod,procps \
		bookworm "$dir" "$mirror" >"$rootfs_tmp/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$rootfs_tmp/debootstrap.log"; return 1; }
	# The rest with apt in a chroot, from every suite the host uses (the
	# kernel may come from bookworm-security).
	cp /etc/apt/sources.list.d/*.sources "$dir/etc/apt/sources.list.d/" 2>/dev/null || true
	[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$dir/etc/apt/"
	# No man page index rebuilt after each install (slow under TCG).
	echo "man-db man-db/auto-update boolean false" |
		chroot "$dir" debconf-set-selections
	mount -t proc proc "$dir/proc"
	# shellcheck disable=SC2086
	if ! { chroot "$dir" apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive chroot "$dir" apt-get install -y -q \
		--no-install-recommends $guest_packages; } >"$rootfs_tmp/apt.log" 2>&1; then
		umount "$dir/proc"
		tail -n 30 "$rootfs_tmp/apt.log"
		return 1
	fi
	umount "$dir/proc"
	chroot "$dir" apt-get clean
	rm -rf "$dir/var/lib/apt/lists/"* "$dir/etc/apt/sources.list.d/"*.sources \
		"$dir/etc/apt/sources.list"

	echo fxt-guest >"$dir/etc/hostname"
	echo "/dev/vda / ext4 defaults 0 1" >"$dir/etc/fstab"
	# Boots straight into the test runner: no login prompts, no timers
	# that want the network.
	for unit in serial-getty@ttyS0.service getty@tty1.service \
		apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer \
		e2scrub_all.timer fstrim.timer; do
		ln -sf /dev/null "$dir/etc/systemd/system/$unit"
	done
	# The runner: mounts the payload disk (the second one) and runs its
	# run.sh, which leaves its results on that disk, then powers off.
	cat >"$dir/usr/local/sbin/fxt-guest-run" <<-'EOF'
	#!/bin/sh
	mkdir -p /run/fxt-payload
	if mount /dev/vdb /run/fxt-payload; then
		sh /run/fxt-payload/run.sh 2>&1 | tee /run/fxt-payload/results.txt
		umount /run/fxt-payload
	else
		echo "fxt-guest-run: no payload disk"
	fi
	systemctl --no-block poweroff
	EOF
	chmod 755 "$dir/usr/local/sbin/fxt-guest-run"
	cat >"$dir/etc/systemd/system/fxt-guest-run.service" <<-'EOF'
	[Unit]
	Description=fxtrace guest test run
	After=multi-user.target

	[Service]
	Type=oneshot
	ExecStart=/usr/local/sbin/fxt-guest-run
	StandardOutput=journal+console
	StandardError=journal+console
	TimeoutStartSec=infinity

	[Install]
	WantedBy=multi-user.target
	EOF
	ln -sf /etc/systemd/system/fxt-guest-run.service \
		"$dir/etc/systemd/system/multi-user.target.wants/fxt-guest-run.service"

	mkdir -p "$rootfs_tmp/image"
	cp "$dir/boot/vmlinuz-$kver" "$dir/boot/initrd.img-$kver" "$rootfs_tmp/image/"
	# Room for the packages, DKMS's build and the traces.
	size_mb=$(( $(du -sm "$dir" | cut -f1) + 1024 ))
	mkfs.ext4 -q -L fxtroot -d "$dir" "$rootfs_tmp/image/root.img" "${size_mb}M" \
		>/dev/null || return 1
	rm -rf "$image"
	mv "$rootfs_tmp/image" "$image"
}

if [ ! -f "$image/root.img" ]; then
	mkdir -p "$cache"
	rootfs_tmp=$(mktemp -d "$cache/build.XXXXXX")
	build_rootfs || fail "building the guest root file system"
	rm -rf "$rootfs_tmp"
	rootfs_tmp=""
	# Older images (other package lists) are not needed any more.
	for old in "$cache"/*; do
		[ "$old" = "$image" ] || rm -rf "$old"
	done
	echo "qemu-system: root file system built in $(( $(now) - t_debs )) s"
fi
t_rootfs=$(now)

# 3. The payload disk: the packages and the guest's test script.
cp scripts/qemu/system-test.sh "$work/payload/run.sh"
# The Rust crate's example, built against this tree's library: the guest
# runs it against the installed libfxt-provider1.
build_dir=$(cd "${FXT_BUILD_DIR:-build}" 2>/dev/null && pwd || true)
if [ -n "$build_dir" ] && rust_example=$(FXT_BUILD_ROOT=$build_dir \
	FXT_SOURCE_ROOT=$(pwd) tests/rust/cargo.sh example fxtrace-every-call \
	2>"$work/cargo.log"); then
	cp "$rust_example" "$work/payload/fxtrace-every-call"
else
	echo "qemu-system: no Rust example for the guest: $(tail -n 3 "$work/cargo.log")"
fi
# The stack samples' workload (frame pointers, named functions), built
# with the tree's tests: the guest records it through the service.
if [ -n "$build_dir" ] && [ -x "$build_dir/tests/stacks/stack-workload" ]; then
	cp "$build_dir/tests/stacks/stack-workload" "$work/payload/stack-workload"
else
	echo "qemu-system: no stack-workload for the guest (build the tree first)"
fi
echo "$ours" >"$work/payload/packages"
mkfs.ext4 -q -L fxtpayload -d "$work/payload" "$work/payload.img" \
	"$(( $(du -sm "$work/payload" | cut -f1) + 64 ))M" >/dev/null

# 4. Boot. The same TCG settings as qemu-kmod-test.sh (see there why).
append="root=/dev/vda rw console=ttyS0 panic=-1 softlockup_panic=1"
append="$append tsc=reliable idle=halt quiet systemd.show_status=error"
status=0
timeout "${FXT_QEMU_TIMEOUT:-1500}" qemu-system-x86_64 -accel tcg,thread=single \
	-m 2G -smp 2 -nographic -no-reboot -nic none \
	-kernel "$image/vmlinuz-$kver" -initrd "$image/initrd.img-$kver" \
	-append "$append" \
	-drive file="$image/root.img",format=raw,if=virtio,snapshot=on \
	-drive file="$work/payload.img",format=raw,if=virtio \
	</dev/null >"$log" 2>&1 || status=$?
t_boot=$(now)

# The results file the guest left on the payload disk; if the guest did
# not get to the end, what its runner wrote to the console (behind the
# journal's "[time] fxt-guest-run[pid]: ").
debugfs -R "cat /results.txt" "$work/payload.img" >"$work/results.txt" 2>/dev/null || true
if ! grep -q "^# done" "$work/results.txt"; then
	tr -d '\r' <"$log" | sed -n 's/^\[ *[0-9.]*\] fxt-guest-run\[[0-9]*\]: //p' \
		>"$work/results.txt"
fi
grep -E "^(ok|not ok|#) " "$work/results.txt" || true
echo "qemu-system: packages $(( t_debs - t0 )) s, root file system $(( t_rootfs - t_debs )) s, guest $(( t_boot - t_rootfs )) s"
passed=$(grep -c "^ok " "$work/results.txt" || true)
failed=$(grep -c "^not ok " "$work/results.txt" || true)
if ! grep -q "^# done" "$work/results.txt"; then
	tail -n 60 "$log"
	failed=$((failed + 1))
	echo "qemu-system: the guest did not finish (qemu status $status)"
elif [ "$failed" -gt 0 ]; then
	echo "--- guest output of the failed steps"
	grep -v -E "^(ok|#) " "$work/results.txt" | tail -n 200
fi
echo "qemu-system: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
