#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Installs, from Debian 12's apt, everything fxtrace needs to build and test.
set -eu

PACKAGES="
build-essential meson ninja-build pkg-config
libsystemd-dev libcmocka-dev
clang llvm libbpf-dev bpftool libclang-rt-14-dev
jq linux-perf
linux-headers-cloud-amd64 linux-image-cloud-amd64
qemu-system-x86 busybox-static cpio
linux-source-6.1 xz-utils
liblttng-ust-dev lttng-tools
"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (sudo $0): it installs packages with apt" >&2
	exit 1
fi

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps.sh: all packages present"
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -q
# shellcheck disable=SC2086
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends $missing
