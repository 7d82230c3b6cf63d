#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Demangled names from real programs, recorded through fxtraced and BPF
# (kernel:sample): a C++ program built with plain g++ -O2 burning in
# ns::hot(), and a Rust release binary (rustc -C opt-level=3, as cargo
# build --release; skipped without rustc) burning in slowrs::checksum(),
# built twice: legacy mangling (a hash the name must not show) and v0.
# - tracectl summary --json --pid: the hot function is the process's top
#   function by self samples, by its demangled name; no "[kernel]" frame
#   in a process that runs in user space (a release binary's junk frame
#   pointer above its leaf once read as a kernel address: the C++
#   program's --junk-rbp makes one), each such walk counted in the
#   archive's stack losses (junk_frame_word);
#   main the hot function's caller in 50% of its samples (the release
#   builds keep no frame pointers: the walk with unwinding tables);
# - the archive (its string tables and its Perfetto blobs) holds the
#   demangled name and never the mangled one; tracectl convert's
#   stackFrames and tracectl report's flame graph name it demangled.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${DEMANGLE_WORKLOAD:?}" "${SLOWRS_SOURCE:?}" "${RUSTC=}"

start_manager

# record NAME CMD...: CMD recorded into $T/NAME.fxt; $T/NAME.sum its
# summary --json of CMD's process alone.
record() {
	local name=$1 pid
	shift
	"$TRACECTL" record -o "$T/$name.fxt" --kernel=bpf \
		--kernel-buffer-size 8M --categories kernel:sample \
		--sample-rate 997 -- bash -c 'echo "pid=$$"; exec "$@"' \
		- "$@" >"$T/$name.out" 2>&1 || fail "$name: tracectl record"
	pid=$(sed -n 's/^pid=//p' "$T/$name.out")
	"$TRACECTL" summary --json --top 200 --pid "$pid" "$T/$name.fxt" \
		>"$T/$name.sum" ||
		fail "$name: summary --json --pid"
}

# expect NAME DEMANGLED MANGLED-PREFIX: the checks above.
# KERNEL_FRAMES_MAX (default 0): "[kernel]" frames allowed in a process's
# stacks, per thousand of its hot function's samples.
expect() {
	local name=$1 want=$2 mangled=$3
	jq -e --arg f "$want" '.functions | max_by(.self) |
		.name == $f and .self > 50' "$T/$name.sum" >/dev/null ||
		fail "$name: the top function is not $want: $(jq -c \
			'[.functions[] | {name, self}][:5]' "$T/$name.sum")"
	jq -e --arg f "$want" --argjson max "${KERNEL_FRAMES_MAX:-0}" \
		'.functions | (map(select(.name == $f)) | .[0].self) as $hot |
		(map(select(.name == "[kernel]") | .total) | add // 0) * 1000 <=
		$hot * $max' "$T/$name.sum" >/dev/null ||
		fail "$name: a [kernel] frame in a user-space program's stacks: $(jq -c \
			'[.functions[] | select(.name == "[kernel]")]' "$T/$name.sum")"
	# Callers up to main (a Rust program's own, slowrs::main: std's
	# lang_start frames above it are walked whole most of the time, not
	# always), through code without frame pointers (the
	# walk with unwinding tables): in 50% of the hot function's samples
	# (95-99% seen; those before the tables were written are by frame
	# pointers, more of them on a loaded machine; without tables: none).
	jq -e --arg f "$want" '.functions |
		(map(select(.name == "main" or .name == "slowrs::main") |
			.total) | max // 0) as $main |
		(map(select(.name == $f)) | .[0].self) as $hot |
		$main * 10 >= $hot * 5' "$T/$name.sum" >/dev/null ||
		fail "$name: main is not the caller of $want: $(jq -c \
			'[.functions[] | {name, self, total}][:8]' "$T/$name.sum")"
	jq -r --arg f "$want" '.functions |
		(map(select(.name == "main" or .name == "slowrs::main") |
			.total) | max // 0) as $main |
		(map(select(.name == $f)) | .[0].self) as $hot |
		"\($f): \($hot) samples, main holds \($main)"' "$T/$name.sum"
	grep -aqF -- "$want" "$T/$name.fxt" ||
		fail "$name: the archive lacks $want"
	! grep -aqF -- "$mangled" "$T/$name.fxt" ||
		fail "$name: the archive holds the mangled $mangled"
	"$TRACECTL" convert "$T/$name.fxt" -o "$T/$name.json" ||
		fail "$name: convert"
	jq -e --arg f "$want" '[.stackFrames[] | select(.name == $f)] |
		length > 0' "$T/$name.json" >/dev/null ||
		fail "$name: no stackFrames entry named $want"
	"$TRACECTL" report "$T/$name.fxt" -o "$T/$name.html" ||
		fail "$name: report"
	grep -qF -- "$want" "$T/$name.html" ||
		fail "$name: the report's flame graph lacks $want"
}

record cxx "$DEMANGLE_WORKLOAD" 2
expect cxx "ns::hot(unsigned char const*, unsigned long)" _ZN2ns3hot
# A leaf without a frame whose rbp points at a word in the kernel's half:
# no "[kernel]" caller (expect), its caller main found from its call
# frame information in nearly every sample. The walk with unwinding
# tables never reads that rbp: this one is by frame pointers alone (a
# manager without tables), the road of a process whose tables are not
# written yet.
# Frame pointers alone meet junk elsewhere too, now and then (bash, then
# the dynamic loader, before exec and main): 1 in 100 samples at most
# (6 in about 2000 seen once).
stop_manager
FXTRACED_NO_UNWIND_TABLES=1 start_manager
record junk "$DEMANGLE_WORKLOAD" 2 --junk-rbp
stop_manager
start_manager
KERNEL_FRAMES_MAX=10 expect junk "ns::spin(unsigned long)" _ZN2ns4spin
jq -e '.functions | (map(select(.name == "main") | .total) | max // 0) as $main |
	(map(select(.name == "ns::spin(unsigned long)")) | .[0].self) as $spin |
	$main * 10 >= $spin * 9' "$T/junk.sum" >/dev/null ||
	fail "junk: main is not ns::spin's caller: $(jq -c \
		'[.functions[] | {name, self, total}][:5]' "$T/junk.sum")"
# Those walks ended at the junk word: counted, in the archive.
jq -e '.stack_losses.junk_frame_word > 0' "$T/junk.sum" >/dev/null ||
	fail "junk: no junk_frame_word counted: $(jq -c .stack_losses "$T/junk.sum")"

if [ -z "$RUSTC" ]; then
	echo "stacks_demangle: C++ ok; Rust skipped: no rustc"
	exit 0
fi
# Release builds, offline: no crates.
"$RUSTC" -C opt-level=3 --crate-name slowrs -o "$T/slowrs-legacy" \
	"$SLOWRS_SOURCE" || fail "rustc (legacy mangling)"
"$RUSTC" -C opt-level=3 -C symbol-mangling-version=v0 --crate-name slowrs \
	-o "$T/slowrs-v0" "$SLOWRS_SOURCE" || fail "rustc (v0 mangling)"
record rust-legacy "$T/slowrs-legacy" 4
expect rust-legacy slowrs::checksum _ZN6slowrs8checksum17h
record rust-v0 "$T/slowrs-v0" 4
expect rust-v0 slowrs::checksum _RNvCs
echo "stacks_demangle: ok"
