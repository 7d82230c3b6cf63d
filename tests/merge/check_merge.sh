#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl merge on archives of three "hosts" made by merge_gen, their
# BOOTTIME clocks minutes apart, one drifting 100 ppm, one at 1 tick =
# 1 us: read back by merge_check (alignment within 1 ms, namespaces,
# CPUs, names) and dump --strict; then hostile inputs and the command
# line.
#
# usage: check_merge.sh TRACECTL MERGE_GEN MERGE_CHECK aligned|hostile|cli
set -u -o pipefail

tracectl=$1
gen=$2
checker=$3
mode=$4
. "$(dirname "$0")/../common/check.sh"

# Sanitizer builds exit 1 on a finding, like a refusal: look for reports.
merge() {
	"$tracectl" merge "$@" 2>"$dir/stderr"
	status=$?
	grep -E "AddressSanitizer|LeakSanitizer|runtime error:" "$dir/stderr" &&
		fail "sanitizer report merging $*"
	return $status
}

# expect_refusal WHAT PATTERN ARGS...: merge exits 1, says PATTERN, writes nothing.
expect_refusal() {
	what=$1
	pattern=$2
	shift 2
	rm -f "$dir/out.fxt"
	merge "$@" -o "$dir/out.fxt"
	[ "$status" -eq 1 ] || fail "$what: exit $status, want 1"
	grep -qE "$pattern" "$dir/stderr" ||
		fail "$what: no '$pattern' in: $(cat "$dir/stderr")"
	[ ! -e "$dir/out.fxt" ] || fail "$what: an output was left"
}

# The three hosts: a (2 CPUs), b (2 CPUs, 5 min later, drifting, 1 us
# ticks), c (4 CPUs, 12 min later, drifting the other way).
make_hosts() {
	"$gen" "$dir/a.fxt" alpha 100 0 2 1000000000 "$@" &&
	"$gen" "$dir/b.fxt" bravo 400 100 2 1000000 "$@" &&
	"$gen" "$dir/c.fxt" charlie 820 -60 4 1000000000 "$@" ||
		fail "generating the archives"
}

# merge_ok WHAT ARGS...: merge exits 0, the output conforms.
merge_ok() {
	what=$1
	shift
	rm -f "$dir/out.fxt"
	merge "$@" -o "$dir/out.fxt"
	[ "$status" -eq 0 ] || fail "$what: exit $status: $(cat "$dir/stderr")"
	"$tracectl" dump --strict "$dir/out.fxt" >/dev/null 2>"$dir/dump.err" ||
		fail "$what: dump --strict: $(tail -3 "$dir/dump.err")"
}

# expect_line WHAT PATTERN: merge's stderr has a line matching PATTERN.
expect_line() {
	grep -qE "$2" "$dir/stderr" || fail "$1: no '$2' in: $(cat "$dir/stderr")"
}

check_aligned() {
	make_hosts
	merge_ok "three hosts" "$dir/a.fxt" "$dir/b.fxt" "$dir/c.fxt"
	expect_line "CPU map a" "^tracectl merge: host alpha \(.*a\.fxt\): CPUs 0-1 -> 0-1; its clock is the output's$"
	expect_line "CPU map b" "^tracectl merge: host bravo \(.*b\.fxt\): CPUs 0-1 -> 2-3; times -300\.[0-9]+ s \(wall clock drift \+100\.000 ppm\)$"
	expect_line "CPU map c" "^tracectl merge: host charlie \(.*c\.fxt\): CPUs 0-3 -> 4-7; times -720\.[0-9]+ s \(wall clock drift -60\.000 ppm\)$"
	expect_line "drops per host" "^tracectl merge: host charlie: 1 buffer overflow"
	"$checker" "$dir/out.fxt" alpha:2 bravo:2 charlie:4 ||
		fail "three hosts: merge_check"
	# A trace of its own: a fresh id, said, in the host line; its inputs
	# (merge_gen's ids: the hostname in hex) listed by summary.
	id=$(sed -n 's/^tracectl merge: trace \([0-9a-f]\{32\}\), of 3 archives$/\1/p' "$dir/stderr")
	[ -n "$id" ] || fail "merge's trace id not said: $(cat "$dir/stderr")"
	"$tracectl" summary "$dir/out.fxt" >"$dir/summary" ||
		fail "summary of the merge: exit $?"
	grep -q "^host: alpha, .* trace $id, " "$dir/summary" ||
		fail "summary's host line lacks trace $id: $(grep ^host "$dir/summary")"
	grep -qx "merged: 3 archives: alpha (trace 616c7068610000000000000000000000), bravo (trace 627261766f0000000000000000000000), charlie (trace 636861726c6965000000000000000000)" "$dir/summary" ||
		fail "summary's merged line: $(grep ^merged "$dir/summary")"
	"$tracectl" summary --json "$dir/out.fxt" | python3 -c '
import json, sys
s = json.load(sys.stdin)
want = [["alpha", "616c7068610000000000000000000000"],
        ["bravo", "627261766f0000000000000000000000"],
        ["charlie", "636861726c6965000000000000000000"]]
got = [[m["host"], m["trace_id"]] for m in s["merged"]]
sys.exit(0 if got == want and s["host"]["trace_id"] == sys.argv[1] else
         "merged %s, host %s" % (got, s["host"]))' "$id" ||
		fail "summary --json of the merge"
	merge_ok "again" "$dir/a.fxt" "$dir/b.fxt" "$dir/c.fxt"
	grep -q "trace $id," "$dir/stderr" && fail "two merges, one trace id"

	# Another order: the output is on c's clock, b's CPUs come first.
	merge_ok "other order" "$dir/c.fxt" "$dir/b.fxt" "$dir/a.fxt"
	"$checker" "$dir/out.fxt" charlie:4 bravo:2 alpha:2 ||
		fail "other order: merge_check"

	# Legacy context switches carry the CPU in 8 bits and inline threads.
	make_hosts legacy
	merge_ok "legacy switches" "$dir/a.fxt" "$dir/b.fxt" "$dir/c.fxt"
	"$checker" "$dir/out.fxt" alpha:2 bravo:2 charlie:4 ||
		fail "legacy switches: merge_check"

	# No host record: "host<N>"; twice the same host: "#<N>".
	"$gen" "$dir/b.fxt" bravo 400 100 2 1000000 nohost
	merge_ok "unnamed host" "$dir/a.fxt" "$dir/b.fxt" "$dir/a.fxt"
	expect_line "unnamed host" "^tracectl merge: host host2 \("
	expect_line "twin host" "^tracectl merge: host alpha#3 \("
}

check_hostile() {
	make_hosts
	head -c 5000 "$dir/b.fxt" >"$dir/cut.fxt"
	expect_refusal "truncated input" \
		"^tracectl merge: .*cut\.fxt: offset 0x[0-9a-f]+: malformed: .*; nothing merged$" \
		"$dir/a.fxt" "$dir/cut.fxt" "$dir/c.fxt"
	head -c 65536 /dev/urandom >"$dir/noise.fxt"
	expect_refusal "random bytes" "noise\.fxt: .*not an FXT archive" \
		"$dir/a.fxt" "$dir/noise.fxt"
	: >"$dir/empty.fxt"
	expect_refusal "empty input" "empty\.fxt: " "$dir/a.fxt" "$dir/empty.fxt"
	# A record whose size runs past its arguments' (a bad argument size).
	python3 - "$dir/b.fxt" "$dir/badarg.fxt" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
off = 8
while off < len(data):
    h = struct.unpack_from("<Q", data, off)[0]
    size = (h >> 4) & 0xfff
    # an event with arguments right after its timestamp: an indexed
    # thread, category and name
    if (h & 0xf == 4 and (h >> 20) & 0xf and (h >> 24) & 0xff and
            not (h >> 32) & 0x8000 and not (h >> 48) & 0x8000):
        a = struct.unpack_from("<Q", data, off + 16)[0]
        struct.pack_into("<Q", data, off + 16, a | (0xfff << 4))
        break
    off += size * 8
open(sys.argv[2], "wb").write(data)
PY
	expect_refusal "bad argument size" "badarg\.fxt: offset 0x[0-9a-f]+: malformed" \
		"$dir/a.fxt" "$dir/badarg.fxt"
	# A header word of 0 in the middle: the first pass cannot hop over it.
	size=$(stat -c %s "$dir/b.fxt")
	python3 - "$dir/b.fxt" "$dir/zero.fxt" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
off, n = 0, 0
while off < len(data):
    size = (struct.unpack_from("<Q", data, off)[0] >> 4) & 0xfff
    n += 1
    if n == 200:
        struct.pack_into("<Q", data, off, 0)
        break
    off += size * 8
open(sys.argv[2], "wb").write(data)
PY
	expect_refusal "size 0 header" \
		"zero\.fxt: offset 0x[0-9a-f]+: malformed: record header 0x0+ has size 0" \
		"$dir/a.fxt" "$dir/zero.fxt"
	[ "$(stat -c %s "$dir/b.fxt")" = "$size" ] || fail "an input was changed"

	# The manager's provider past what the first pass keeps (4 MiB of
	# string records after its stop reading): the reader's own pass.
	python3 - "$dir/b.fxt" "$dir/big.fxt" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
s = b"x" * 1000
rec = struct.pack("<Q", 2 | (126 << 4) | (1 << 16) | (len(s) << 32)) + s
data += rec * 5000
open(sys.argv[2], "wb").write(data)
PY
	merge_ok "big manager section" "$dir/a.fxt" "$dir/big.fxt" "$dir/c.fxt"
	"$checker" "$dir/out.fxt" alpha:2 bravo:2 charlie:4 ||
		fail "big manager section: merge_check"

	# Without the magic number (the 2018 revision): the reader's own pass.
	tail -c +9 "$dir/b.fxt" >"$dir/nomagic.fxt"
	merge_ok "no magic number" "$dir/a.fxt" "$dir/nomagic.fxt" "$dir/c.fxt"
	"$checker" "$dir/out.fxt" alpha:2 bravo:2 charlie:4 ||
		fail "no magic number: merge_check"

	"$gen" "$dir/n.fxt" nick 50 0 2 1000000000 noclock
	expect_refusal "no clock records" "n\.fxt: has no clock record" \
		"$dir/a.fxt" "$dir/n.fxt"
	expect_refusal "first without clock" "n\.fxt: has no clock record: the other inputs" \
		"$dir/n.fxt" "$dir/a.fxt"
	merge_ok "--assume-aligned" --assume-aligned "$dir/a.fxt" "$dir/n.fxt"
	expect_line "--assume-aligned" "host nick .*times taken as they are \(--assume-aligned\)"

	# Clock readings no running host writes: refused, naming the file and
	# the reading. A drift under 1000 ppm is a clock's: merged.
	"$gen" "$dir/z.fxt" zulu 300 0 2 1000000000 zeroclock
	expect_refusal "zero clock" \
		"^tracectl merge: .*z\.fxt: impossible clock reading at start: boottime = 0 ns; nothing merged$" \
		"$dir/a.fxt" "$dir/z.fxt"
	expect_refusal "zero clock, first" "z\.fxt: impossible clock reading at start" \
		"$dir/z.fxt" "$dir/a.fxt"
	"$gen" "$dir/m.fxt" mike 300 0 2 1000000000 maxclock
	expect_refusal "clock at 2^64 - 1" \
		"m\.fxt: impossible clock reading at stop: realtime = 18446744073709551615 ns; nothing merged$" \
		"$dir/a.fxt" "$dir/m.fxt"
	"$gen" "$dir/r.fxt" romeo 300 0 2 1000000000 reversed
	expect_refusal "reversed clock" \
		"r\.fxt: clock readings reversed: boottime at stop \(299000000000 ns\) is before boottime at start \(300000000000 ns\); nothing merged$" \
		"$dir/a.fxt" "$dir/r.fxt"
	"$gen" "$dir/d.fxt" delta 300 2000 2 1000000000
	expect_refusal "2000 ppm drift" \
		"d\.fxt: clock readings 2000 ppm apart: .*beyond 1000 ppm" \
		"$dir/a.fxt" "$dir/d.fxt"
	"$gen" "$dir/d.fxt" delta 300 999 2 1000000000
	merge_ok "999 ppm drift" "$dir/a.fxt" "$dir/d.fxt"

	# Clocks near 2^64 ns: times saturate, nothing wraps.
	"$gen" "$dir/far.fxt" far 18446744000 0 2 1000000000
	merge_ok "far clock" "$dir/a.fxt" "$dir/far.fxt"
	"$checker" "$dir/out.fxt" alpha:2 far:2 || fail "far clock: merge_check"

	# CPUs past what a record holds: 8 bits in a legacy context switch,
	# 16 in the others.
	"$gen" "$dir/l1.fxt" one 100 0 200 1000000000 legacy
	"$gen" "$dir/l2.fxt" two 200 0 200 1000000000 legacy
	expect_refusal "legacy CPU past 255" \
		"l2\.fxt: offset 0x[0-9a-f]+: legacy context switch on CPU [0-9]+: .* does not fit the record's 8 bits" \
		"$dir/l1.fxt" "$dir/l2.fxt"
	"$gen" "$dir/n1.fxt" one 100 0 65500 1000000000
	"$gen" "$dir/n2.fxt" two 200 0 100 1000000000
	expect_refusal "CPU past 65535" \
		"n2\.fxt: offset 0x[0-9a-f]+: CPU 36: past the 65536 CPUs" \
		"$dir/n1.fxt" "$dir/n2.fxt"

	# Perfetto blobs (merge_perfetto.h): a packet whose field is a group
	# (no wire type of theirs) is left out, the next one kept; then a
	# field other than a packet: the stream's rest is left out, counted.
	python3 - "$dir/b.fxt" "$dir/pf.fxt" <<'PY'
import struct, sys
def blob(payload):
    words = 2 + (len(payload) + 7) // 8
    h = 5 | words << 4 | 0x8008 << 16 | len(payload) << 32 | 3 << 48
    return (struct.pack("<Q", h) + b"perfetto" + payload +
            bytes(-len(payload) % 8))
data = open(sys.argv[1], "rb").read()
data += blob(b"\x0a\x02\x0b\x00")   # a group: does not parse
data += blob(b"\x0a\x02\x68\x02")   # sequence flags 2: kept
data += blob(b"\x12\x00")             # Trace field 2: not a packet
data += blob(b"\x0a\x02\x68\x02")   # left out with the rest
open(sys.argv[2], "wb").write(data)
PY
	merge_ok "hostile Perfetto blobs" "$dir/a.fxt" "$dir/pf.fxt"
	expect_line "hostile Perfetto packet" \
		"host .*: 1 Perfetto packet\(s\) left out: they do not parse"
	expect_line "hostile Perfetto stream" \
		"host .*: 2 Perfetto blob\(s\) left out: the stream is not a Trace"
	[ "$(python3 - "$dir/out.fxt" <<'PY'
import struct, sys
data, off, n = open(sys.argv[1], "rb").read(), 0, 0
while off < len(data):
    h = struct.unpack_from("<Q", data, off)[0]
    if h & 0xf == 5 and (h >> 48) & 0xff == 3:
        n += 1
        assert data[off + 16:off + 20] == b"\x0a\x02\x68\x02"
    off += ((h >> 4) & (0xffffffff if h & 0xf == 15 else 0xfff)) * 8
print(n)
PY
)" = 1 ] || fail "hostile Perfetto blobs: not the one good packet out"

	# The archive readers' hostile archives: merged within bounds.
	hostile=$(dirname "$0")/../common/hostile_fxt.py
	for kind in switch-at-max tick-overflow "string-pages 4 20000" \
		"big-strings 2 200" escapes; do
		# shellcheck disable=SC2086
		python3 "$hostile" $kind >"$dir/h.fxt"
		merge_ok "hostile $kind" --assume-aligned "$dir/a.fxt" "$dir/h.fxt"
	done

	# Bytes changed at random: refused or merged, never worse than the
	# input (a conforming input makes a conforming output).
	for seed in $(seq 1 40); do
		python3 - "$dir/b.fxt" "$dir/m.fxt" "$seed" <<'PY'
import random, sys
random.seed(int(sys.argv[3]))
d = bytearray(open(sys.argv[1], "rb").read())
for _ in range(random.randint(1, 12)):
    d[random.randrange(8, len(d))] = random.randrange(256)
open(sys.argv[2], "wb").write(d)
PY
		rm -f "$dir/out.fxt"
		merge "$dir/a.fxt" "$dir/m.fxt" -o "$dir/out.fxt"
		case $status in
		0) if "$tracectl" dump --strict "$dir/m.fxt" >/dev/null 2>&1 &&
			! "$tracectl" dump --strict "$dir/out.fxt" >/dev/null 2>&1; then
				fail "mutation $seed: a conforming input, a nonconforming output"
			fi ;;
		1) grep -q "m\.fxt: .*nothing merged$" "$dir/stderr" ||
			fail "mutation $seed refused without naming it: $(cat "$dir/stderr")" ;;
		*) fail "mutation $seed: exit $status" ;;
		esac
	done

	merge "$dir/a.fxt" "$dir/b.fxt" -o "$dir/b.fxt"
	[ "$status" -eq 1 ] && grep -q "is the input" "$dir/stderr" ||
		fail "output over an input: exit $status"
	"$tracectl" dump --strict "$dir/b.fxt" >/dev/null 2>&1 ||
		fail "output over an input: the input was harmed"
	merge "$dir/a.fxt" "$dir/b.fxt" -o "$dir/no/such/dir.fxt"
	[ "$status" -eq 1 ] || fail "unwritable output: exit $status"

	# Bounded memory: the same bound as the other readers of archives.
	. "$(dirname "$0")/../common/reader_memory.sh"
	if ! asan_build "$tracectl"; then
		under_reader_memory_limit "$tracectl" merge "$dir/a.fxt" \
			"$dir/b.fxt" "$dir/c.fxt" -o "$dir/out.fxt" 2>"$dir/stderr" ||
			fail "within $READER_MEMORY_MIB MiB: $(cat "$dir/stderr")"
	fi
}

check_cli() {
	make_hosts
	"$tracectl" merge --help >"$dir/help" || fail "--help: exit $?"
	grep -q "^Examples:" "$dir/help" || fail "--help has no examples"
	"$tracectl" merge --version >/dev/null || fail "--version: exit $?"
	for args in "" "$dir/a.fxt -o $dir/x.fxt" "$dir/a.fxt $dir/b.fxt" \
		"--bogus $dir/a.fxt $dir/b.fxt -o $dir/x.fxt" \
		"$dir/a.fxt - -o $dir/x.fxt" "$dir/a.fxt $dir/b.fxt -o"; do
		# shellcheck disable=SC2086
		merge $args
		[ "$status" -eq 2 ] || fail "usage error '$args': exit $status"
		grep -q "see 'tracectl merge --help'" "$dir/stderr" ||
			fail "usage error '$args' says: $(cat "$dir/stderr")"
	done
	if command -v script >/dev/null; then
		script -qec "'$tracectl' merge '$dir/a.fxt' '$dir/b.fxt' -o -" \
			/dev/null >"$dir/tty.out" 2>&1
		grep -q "is a terminal" "$dir/tty.out" ||
			fail "FXT written to a terminal: $(head -c 200 "$dir/tty.out" | od -c | head -3)"
	fi
	merge "$dir/a.fxt" "$dir/missing.fxt" -o "$dir/x.fxt"
	[ "$status" -eq 1 ] && grep -q "cannot open '.*missing.fxt'" "$dir/stderr" ||
		fail "missing input: exit $status"
	"$tracectl" merge "$dir/a.fxt" "$dir/b.fxt" -o - 2>/dev/null |
		"$tracectl" dump --strict - >/dev/null 2>&1 ||
		fail "merge to stdout does not conform"
	"$tracectl" --help | grep -q "^  merge " || fail "tracectl --help lacks merge"
}

case "$mode" in
aligned) check_aligned ;;
hostile) check_hostile ;;
cli) check_cli ;;
*) echo "unknown mode $mode"; exit 2 ;;
esac
check_summary "merge $mode"
