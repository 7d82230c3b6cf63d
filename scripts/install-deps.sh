#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs, from Debian 12's apt, everything fxtrace needs to build and
# test, and extracts the kernel's checkpatch.pl from linux-source-6.1.
set -eu

# lttng: the provider benchmark's peer; chromium: the HTML report's test.
PACKAGES="
build-essential meson ninja-build pkg-config
libsystemd-dev libcmocka-dev
clang llvm libbpf-dev bpftool libclang-rt-14-dev
jq python3 linux-perf systemd util-linux strace
linux-headers-cloud-amd64 linux-image-cloud-amd64
qemu-system-x86 busybox-static cpio
linux-source-6.1 xz-utils
liblttng-ust-dev lttng-tools
chromium
"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (sudo $0): it installs packages with apt" >&2
	exit 1
fi

# checkpatch.pl ships only inside the kernel source tarball: take just it.
CHECKPATCH_DIR=/opt/linux-tools/linux-source-6.1
extract_checkpatch() {
	[ -x "$CHECKPATCH_DIR/scripts/checkpatch.pl" ] && return 0
	mkdir -p /opt/linux-tools
	tar -C /opt/linux-tools -xJf /usr/src/linux-source-6.1.tar.xz \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	echo "install-deps.sh: checkpatch.pl in $CHECKPATCH_DIR/scripts"
}

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -q
	# shellcheck disable=SC2086
	apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends $missing
else
	echo "install-deps.sh: all packages present"
fi
extract_checkpatch
