#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the Debian packages with scripts/build-deb.sh (which fails on a
# lintian error) and checks what they hold: each package's files, its
# dependencies, the maintainer scripts (group tracing, socket enabled,
# the service stopped on removal, DKMS registration), the units verify
# with the packaged binary, the man pages render without warnings, the
# binaries print the version, the completion completes; a cargo project
# outside the tree builds offline with the packaged crate.
# Ends with "packaging: N passed, N failed".
set -u -o pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/fxt-debs.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

ok() { echo "PASS $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
check() {
	local what=$1
	shift
	if "$@" >"$work/out" 2>&1; then ok "$what"; else cat "$work/out"; bad "$what"; fi
}
finish() {
	echo "packaging: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

version=$(sed -n "s/^[[:space:]]*version : '\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
if "$top/scripts/build-deb.sh" "$work/debs" >"$work/build.log" 2>&1; then
	ok "build-deb.sh builds the packages, lintian reports no error"
else
	tail -n 40 "$work/build.log"
	bad "build-deb.sh"
	finish
fi
grep -E '^[EW]: ' "$work/build.log" || true

deb() { echo "$work/debs/$1_${version}_$2.deb"; }
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
fxtrace=$(deb fxtrace "$arch")
lib=$(deb libfxt-provider1 "$arch")
dev=$(deb libfxt-provider-dev "$arch")
dkms=$(deb fxt-sched-dkms all)
pyfxt=$(deb python3-fxtrace "$arch")
crate=$(deb librust-fxtrace-dev all)
crate_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$top/libprovider/rust/Cargo.toml" | head -n 1)
for f in "$fxtrace" "$lib" "$dev" "$dkms" "$pyfxt" "$crate"; do
	[ -f "$f" ] || { bad "no $(basename "$f")"; finish; }
done
n=$(ls "$work/debs"/*.deb | wc -l)
[ "$n" -eq 6 ] && ok "six packages" || bad "$n packages, not 6: $(ls "$work/debs")"

# Each expected path in the package's file list ("./path" or "./path -> ...").
has_files() {
	local pkg=$1 f missing=""
	shift
	dpkg-deb -c "$pkg" | awk '{ print $6 }' >"$work/list"
	for f; do
		grep -qxF "./$f" "$work/list" || missing="$missing $f"
	done
	[ -z "$missing" ] || { echo "missing in $(basename "$pkg"):$missing"; return 1; }
}
check "fxtrace: tools, manager, units, udev, sysusers, modules-load, man, completion" \
	has_files "$fxtrace" usr/bin/tracectl usr/sbin/fxtraced \
	usr/libexec/fxtrace/fxt-example \
	lib/systemd/system/fxtraced.service lib/systemd/system/fxtraced.socket \
	lib/udev/rules.d/60-fxt-sched.rules usr/lib/sysusers.d/fxtrace.conf \
	usr/lib/modules-load.d/fxt_sched.conf \
	usr/share/man/man1/tracectl.1.gz usr/share/man/man8/fxtraced.8.gz \
	usr/share/bash-completion/completions/tracectl
check "fxtrace: the flight recorder's units and its settings" \
	has_files "$fxtrace" lib/systemd/system/fxtrace-flight-recorder.service \
	lib/systemd/system/fxtrace-export.service \
	etc/fxtrace/flight-recorder.conf
check "libfxt-provider1: the shared library" \
	has_files "$lib" "usr/lib/$multiarch/libfxt-provider.so.1"
check "libfxt-provider-dev: headers, .so, .pc, man 3 (C and Rust)" \
	has_files "$dev" usr/include/fxt/provider.h usr/include/fxt/fxt.h \
	usr/include/fxt/provider_args.h usr/include/fxt/provider_internal.h \
	"usr/lib/$multiarch/libfxt-provider.so" \
	"usr/lib/$multiarch/pkgconfig/libfxt-provider.pc" \
	usr/share/man/man3/libfxt-provider.3.gz usr/share/man/man3/fxtrace-rust.3.gz
check "libfxt-provider-dev: README and the examples' sources, uncompressed" \
	has_files "$dev" usr/share/doc/libfxt-provider-dev/README.md \
	usr/share/doc/libfxt-provider-dev/examples/fxt-example.c \
	usr/share/doc/libfxt-provider-dev/examples/fxt-example-cxx.cc
check "fxt-sched-dkms: the module sources and dkms.conf" \
	has_files "$dkms" "usr/src/fxt-sched-$version/dkms.conf" \
	"usr/src/fxt-sched-$version/Kbuild" \
	"usr/src/fxt-sched-$version/kmod/Kbuild" \
	"usr/src/fxt-sched-$version/kmod/fxt_dev.c" \
	"usr/src/fxt-sched-$version/include/fxt/fxt_sched_uapi.h"
registry=usr/share/cargo/registry/fxtrace-$crate_version
check "librust-fxtrace-dev: the crate's sources in the registry, .cargo-checksum.json" \
	has_files "$crate" "$registry/Cargo.toml" "$registry/build.rs" \
	"$registry/src/lib.rs" "$registry/src/shim.c" "$registry/.cargo-checksum.json"
check "python3-fxtrace: the module in dist-packages, man 3" \
	has_files "$pyfxt" usr/lib/python3/dist-packages/fxtrace/__init__.py \
	usr/lib/python3/dist-packages/fxtrace/__main__.py \
	usr/share/man/man3/fxtrace-python.3.gz
check "python3-fxtrace: the C extension" sh -c \
	"dpkg-deb -c '$pyfxt' | grep -q 'dist-packages/fxtrace/_core\\.cpython-.*\\.so\$'"
no_overlap() {
	dpkg-deb -c "$1" | awk '$6 !~ /\/$/ { print $6 }' | sort >"$work/a"
	dpkg-deb -c "$2" | awk '$6 !~ /\/$/ { print $6 }' | sort >"$work/b"
	! comm -12 "$work/a" "$work/b" | grep -v '^./usr/share/doc/'
}
check "the library is only in libfxt-provider1" no_overlap "$fxtrace" "$lib"

depends() { dpkg-deb -f "$1" Depends | grep -E "$2" >/dev/null; }
check "libfxt-provider-dev depends on libfxt-provider1 of its version" \
	depends "$dev" "libfxt-provider1 \(= $version\)"
check "fxt-sched-dkms depends on dkms" depends "$dkms" '(^|, )dkms'
check "librust-fxtrace-dev depends on libfxt-provider-dev and the tracing crates" sh -c \
	"dpkg-deb -f '$crate' Depends | grep -q 'libfxt-provider-dev' &&
	 dpkg-deb -f '$crate' Depends | grep -q 'librust-tracing-subscriber-dev'"

# The packaged crate, Debian's crates and the packaged library: a project
# outside the tree builds offline with the crate and feature tracing.
crate_builds() {
	local root=$work/crate-root reg=$work/crate-registry app=$work/crate-app c
	mkdir -p "$root" "$reg" "$app/src" "$app/.cargo"
	for c in "$crate" "$lib" "$dev"; do dpkg-deb -x "$c" "$root"; done
	for c in /usr/share/cargo/registry/*; do ln -s "$c" "$reg/"; done
	ln -s "$root/$registry" "$reg/"
	printf '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "%s"\n[net]\noffline = true\n' \
		"$reg" >"$app/.cargo/config.toml"
	printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\nfxtrace = { version = "0.1", features = ["tracing"] }\n' \
		>"$app/Cargo.toml"
	printf 'fn main() { fxtrace::duration_scope!("app", "main"); let _ = fxtrace::FxtLayer::new(); }\n' \
		>"$app/src/main.rs"
	(cd "$app" && FXT_PROVIDER_LIB_DIR="$root/usr/lib/$multiarch" \
		FXT_PROVIDER_INCLUDE_DIR="$root/usr/include" CARGO_HOME="$work/cargo-home" \
		nice "$cargo" build --offline --quiet -j1)
}
cargo=$(command -v cargo || command -v "$HOME/.cargo/bin/cargo" || true)
if [ -n "$cargo" ]; then
	check "librust-fxtrace-dev: a project outside the tree builds offline with it" crate_builds
else
	echo "SKIP a project with librust-fxtrace-dev: no cargo"
fi
check "fxtrace depends on systemd-sysusers" depends "$fxtrace" 'systemd-sysusers'
check "python3-fxtrace depends on python3 and libfxt-provider1" sh -c \
	"dpkg-deb -f '$pyfxt' Depends | grep -q 'python3' &&
	 dpkg-deb -f '$pyfxt' Depends | grep -q 'libfxt-provider1'"

dpkg-deb -e "$fxtrace" "$work/ctl"
dpkg-deb -e "$dkms" "$work/dkms-ctl"
check "postinst creates group tracing (systemd-sysusers)" \
	grep -q 'systemd-sysusers .*fxtrace.conf' "$work/ctl/postinst"
check "postinst enables and starts fxtraced.socket" \
	sh -c "grep -q \"deb-systemd-helper enable 'fxtraced.socket'\" '$work/ctl/postinst' &&
		grep -q \"deb-systemd-invoke \\\$_dh_action 'fxtraced.socket'\" '$work/ctl/postinst'"
# The service is socket-activated: enabled only if an admin enabled it
# before (debhelper's --no-enable form), never started by the package
# (only restarted after an upgrade if it was running).
service_not_started() {
	local unit=${2:-fxtraced.service}
	grep -qF "debian-installed '$unit'" "$1" &&
		! grep -F "'$unit'" "$1" | grep 'deb-systemd-invoke' |
			grep -qv 'try-restart'
}
check "postinst neither enables nor starts fxtraced.service" \
	service_not_started "$work/ctl/postinst"
check "postinst neither enables nor starts the flight recorder" \
	service_not_started "$work/ctl/postinst" fxtrace-flight-recorder.service
check "flight-recorder.conf is a conffile" \
	grep -qx /etc/fxtrace/flight-recorder.conf "$work/ctl/conffiles"
check "prerm stops the socket and the service on removal" \
	sh -c "grep -q 'stop fxtraced.service' '$work/ctl/prerm' &&
		grep -q \"stop 'fxtraced.socket'\" '$work/ctl/prerm'"
check "postrm purges the units' enablement" \
	grep -q "deb-systemd-helper purge 'fxtraced.socket'" "$work/ctl/postrm"
check "fxt-sched-dkms names a running kernel without headers it skipped" \
	grep -q 'fxt_sched not built for the running kernel \$running' "$work/dkms-ctl/postinst"
check "fxt-sched-dkms registers fxt-sched $version with DKMS" \
	sh -c "grep -q '^DKMS_NAME=fxt-sched$' '$work/dkms-ctl/postinst' &&
		grep -q '^DKMS_VERSION=$version$' '$work/dkms-ctl/postinst'"

root="$work/root"
for f in "$fxtrace" "$lib" "$dev" "$dkms"; do dpkg-deb -x "$f" "$root"; done
check "dkms.conf names fxt-sched $version" \
	sh -c "grep -qx 'PACKAGE_NAME=\"fxt-sched\"' '$root/usr/src/fxt-sched-$version/dkms.conf' &&
		grep -qx 'PACKAGE_VERSION=\"$version\"' '$root/usr/src/fxt-sched-$version/dkms.conf'"
# What DKMS will build: the packaged sources alone, against the guest
# kernel's headers (a header the module includes but the package lacks
# fails here, not only on a user's machine).
dkms_builds() {
	kdir=$(ls -d /usr/src/linux-headers-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kdir" ] || { echo "no linux-headers-*-cloud-amd64"; return 1; }
	cp -r "$root/usr/src/fxt-sched-$version" "$work/dkms-build" &&
		make -C "$kdir" M="$work/dkms-build" modules &&
		[ -f "$work/dkms-build/kmod/fxt_sched.ko" ]
}
check "fxt-sched-dkms: the packaged sources build the module" dkms_builds
check "fxtraced --version" \
	sh -c "'$root/usr/sbin/fxtraced' --version | grep -qx 'fxtraced $version'"
check "tracectl --version" \
	sh -c "'$root/usr/bin/tracectl' --version | grep -qx 'tracectl $version'"
check "udev rule: /dev/fxt_sched root:tracing 0660" \
	grep -qE '^KERNEL=="fxt_sched".*GROUP="tracing".*MODE="0660"' \
	"$root/lib/udev/rules.d/60-fxt-sched.rules"
check "modules-load.d snippet is commented out" \
	sh -c "grep -qx '#fxt_sched' '$root/usr/lib/modules-load.d/fxt_sched.conf' &&
		! grep -qx 'fxt_sched' '$root/usr/lib/modules-load.d/fxt_sched.conf'"
sysusers_creates_tracing() {
	mkdir -p "$work/sysroot/etc"
	systemd-sysusers --root="$work/sysroot" "$root/usr/lib/sysusers.d/fxtrace.conf" &&
		grep -q '^tracing:' "$work/sysroot/etc/group"
}
if command -v systemd-sysusers >/dev/null; then
	check "sysusers creates group tracing" sysusers_creates_tracing
else
	check "sysusers: group tracing" \
		grep -qE '^g[[:space:]]+tracing' "$root/usr/lib/sysusers.d/fxtrace.conf"
fi
check ".pc: -lfxt-provider" \
	grep -q '^Libs: .*-lfxt-provider' "$root/usr/lib/$multiarch/pkgconfig/libfxt-provider.pc"

if command -v systemd-analyze >/dev/null; then
	# The packaged units, their ExecStart pointed at the packaged binary.
	mkdir "$work/units"
	sed "s|^ExecStart=/usr/sbin/fxtraced|ExecStart=$root/usr/sbin/fxtraced|" \
		"$root/lib/systemd/system/fxtraced.service" >"$work/units/fxtraced.service"
	cp "$root/lib/systemd/system/fxtraced.socket" "$work/units/"
	# Documentation= must name man pages the packages ship.
	check "systemd-analyze verify of the packaged units" \
		env MANPATH="$root/usr/share/man" \
		systemd-analyze verify "$work/units/fxtraced.service" "$work/units/fxtraced.socket"
	sed "s|/usr/bin/tracectl|$root/usr/bin/tracectl|" \
		"$root/lib/systemd/system/fxtrace-flight-recorder.service" \
		>"$work/units/fxtrace-flight-recorder.service"
	check "systemd-analyze verify of the packaged flight recorder" \
		env MANPATH="$root/usr/share/man" \
		systemd-analyze verify "$work/units/fxtrace-flight-recorder.service" \
		"$work/units/fxtraced.service" "$work/units/fxtraced.socket"
	sed "s|/usr/bin/tracectl|$root/usr/bin/tracectl|" \
		"$root/lib/systemd/system/fxtrace-export.service" \
		>"$work/units/fxtrace-export.service"
	check "systemd-analyze verify of the packaged export unit" \
		env MANPATH="$root/usr/share/man" \
		systemd-analyze verify "$work/units/fxtrace-export.service" \
		"$work/units/fxtrace-flight-recorder.service"
	check "the export unit reads /etc/fxtrace/flight-recorder.conf" \
		grep -qx 'EnvironmentFile=-/etc/fxtrace/flight-recorder.conf' \
		"$root/lib/systemd/system/fxtrace-export.service"
	check "the export unit reads /etc/fxtrace/export-clickhouse.conf (a URL with a password)" \
		grep -qx 'EnvironmentFile=-/etc/fxtrace/export-clickhouse.conf' \
		"$root/lib/systemd/system/fxtrace-export.service"
	check "the export unit's command line carries no URL (ps shows it)" \
		sh -c '! grep -q -e "--clickhouse" "$1"' sh \
		"$root/lib/systemd/system/fxtrace-export.service"
	check "the flight recorder reads /etc/fxtrace/flight-recorder.conf" \
		grep -qx 'EnvironmentFile=-/etc/fxtrace/flight-recorder.conf' \
		"$root/lib/systemd/system/fxtrace-flight-recorder.service"
	check "the packaged service runs /usr/sbin/fxtraced" \
		grep -qx 'ExecStart=/usr/sbin/fxtraced' "$root/lib/systemd/system/fxtraced.service"
fi

man_clean() {
	[ -s "$1" ] || return 1
	out=$(MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null)
	[ -z "$out" ] || { echo "$out"; return 1; }
	MANWIDTH=80 man -l "$1" 2>/dev/null | grep "^NAME" >/dev/null
}
if command -v man >/dev/null; then
	for m in man1/tracectl.1 man8/fxtraced.8 man3/libfxt-provider.3 man3/fxtrace-rust.3; do
		check "man page $m renders without warnings" \
			man_clean "$root/usr/share/man/$m.gz"
	done
fi

complete_words() {
	bash -c '
		. /usr/share/bash-completion/bash_completion
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_tracectl tracectl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		echo "${COMPREPLY[*]}"' sh \
		"$root/usr/share/bash-completion/completions/tracectl" "$@"
}
if [ -r /usr/share/bash-completion/bash_completion ]; then
	check "completion: commands" \
		test "$(complete_words tracectl '')" = "start stop status snapshot record dump convert summary report why merge export --help --version"
	check "completion: --mode values" \
		test "$(complete_words tracectl start --mode '')" = "oneshot circular streaming"
	check "completion: -k values" \
		test "$(complete_words tracectl record -k '')" = "auto kmod bpf off"
	mkdir "$work/files"
	touch "$work/files/a.fxt" "$work/files/b.json"
	check "completion: dump takes .fxt files" \
		test "$(cd "$work/files" && complete_words tracectl dump '')" = "a.fxt"
	check "completion: merge takes .fxt files" \
		test "$(cd "$work/files" && complete_words tracectl merge a.fxt '')" = "a.fxt"
	check "completion: merge's options" \
		test "$(complete_words tracectl merge --a)" = "--assume-aligned"
	check "completion: convert -o takes .json files" \
		test "$(cd "$work/files" && complete_words tracectl convert a.fxt -o '')" = "b.json"
	check "completion: start's trigger options" \
		test "$(complete_words tracectl start --trig)" = "--trigger --trigger-delay --trigger-limit --trigger-latency"
	check "completion: start's snapshot options" \
		test "$(complete_words tracectl start --snap)" = "--snapshot-dir --snapshot-max-bytes --snapshot-max-files"
	check "completion: --snapshot-max-bytes takes a size, no word" \
		test "$(complete_words tracectl start --snapshot-max-bytes '')" = ""
	check "completion: start --name" \
		test "$(complete_words tracectl start --na)" = "--name"
	check "completion: --memory-budget takes a size, no word" \
		test "$(complete_words tracectl start --memory-budget '')" = ""
	check "completion: --memory-budget" \
		test "$(complete_words tracectl start --mem)" = "--memory-budget"
	mkdir "$work/files/snaps"
	check "completion: --snapshot-dir takes directories" \
		test "$(cd "$work/files" && complete_words tracectl start --snapshot-dir '')" = "snaps"
	check "completion: summary options" \
		test "$(complete_words tracectl summary --)" = "--json --top --slice --all --pid --process --force --help"
fi

finish
