#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs fxtrace's dependencies from Debian 12's apt.
#
#   scripts/install-deps.sh --build   what building the packages needs
#                                     (scripts/build-deb.sh, meson with
#                                     -Dtests=false) and running fxtrace
#   scripts/install-deps.sh [--test]  that, and the test toolchain: cmocka,
#                                     the guest kernel and qemu, LTTng for
#                                     the benchmarks, the kernel source's
#                                     checkpatch.pl (extracted to /opt)
set -eu -o pipefail

BUILD_PACKAGES="
build-essential meson ninja-build pkg-config
libsystemd-dev systemd udev libdw-dev libiberty-dev
clang libbpf-dev bpftool
scdoc bash-completion
libcurl4-openssl-dev
dpkg-dev debhelper dh-dkms dh-python python3-dev lintian
"

# lttng: the provider benchmark's peer; chromium: the HTML report's test;
# librust-tracing*: the Rust crate's tracing layer, built offline;
# clickhouse-*: the server tracectl export's tests store into;
# bpftrace: the stack bench's floor (an empty profile: program);
# g++: the demangling test's C++ workload;
# python3.11-dbg: the interpreter's DWARF (CPython's layout, py_layout.h).
TEST_PACKAGES="
g++ python3.11-dbg
libcmocka-dev llvm libclang-rt-14-dev
jq python3 linux-perf util-linux strace iproute2
linux-headers-cloud-amd64 linux-image-cloud-amd64
qemu-system-x86 busybox-static cpio
debootstrap e2fsprogs
linux-source-6.1 xz-utils
liblttng-ust-dev lttng-tools
chromium
librust-tracing-dev librust-tracing-subscriber-dev
clickhouse-server clickhouse-client
bpftrace
"

test=1
case "${1:-}" in
--build) test=0 ;;
--test|'') ;;
-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
*) echo "install-deps.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: run as root (sudo $0): it installs packages with apt" >&2
	exit 1
fi

PACKAGES=$BUILD_PACKAGES
[ "$test" -eq 0 ] || PACKAGES="$PACKAGES $TEST_PACKAGES"

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
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null ||
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
[ "$test" -eq 0 ] || extract_checkpatch
