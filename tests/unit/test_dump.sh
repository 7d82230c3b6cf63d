#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs the real 'tracectl dump' on generated archives: output, stdin,
# diagnostics and exit codes.
# Usage: test_dump.sh TRACECTL FXT_SAMPLE
set -u -o pipefail
# a sanitizer finding must not look like exit status 1 (a bad trace)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86"
export ASAN_OPTIONS UBSAN_OPTIONS
tracectl=$1
sample=$2
. "$(dirname "$0")/../common/check.sh"

# expect_exit WANT CMD...: runs CMD with stdout/stderr in $dir/out, $dir/err
expect_exit() {
	want=$1
	shift
	"$@" >"$dir/out" 2>"$dir/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(cat "$dir/err")"
}

expect_line() {	# FILE PATTERN (fixed string)
	grep -qF -- "$2" "$dir/$1" || fail "$1 lacks: $2"
}

"$sample" "$dir/good.fxt" || exit 1
"$sample" --nonconforming "$dir/nonconforming.fxt" || exit 1
"$sample" --malformed "$dir/malformed.fxt" || exit 1

expect_exit 0 "$tracectl" dump "$dir/good.fxt"
expect_line out '0x00000000  magic              0x16547846'
expect_line out '0x00000008  provider_info      id=7 name="kernel"'
expect_line out 'instant            ts=1000 thread=100/101 category="cat" name="all args" null=null i32=-7 u32=4294967280 i64=-1099511627776 u64=9223372036854775808 f64=2.5'
expect_line out 'f64=2.5 cat="inline value" ptr=pointer(0x7ffd0000beef) koid=koid(4242) flag=true indexed="name two"'
expect_line out 'duration_complete  ts=1000 thread=100/101 category="cat" name="name two" end_ts=2000'
expect_line out 'context_switch     ts=3000 cpu=1 out_tid=101 blocked in_tid=102 (idle) outgoing_weight=5 incoming_weight=-2147483648'
expect_line out 'thread_wakeup      ts=3001 cpu=1 tid=101 weight=3 waker=koid(101)'
expect_line out 'legacy_switch      ts=3002 cpu=2 out=100/101 suspended out_prio=10 in=7/8 in_prio=20'
expect_line out 'large_blob         category="cat" name="large" ts=2400 (100000 ns) thread=1/2'
expect_line out 'provider_event     id=7 buffer_overflow (records were dropped)'
expect_line out 'summary: 34 records, 1464 bytes'
expect_line out '  event                        12'
expect_line out '  7 "kernel": 29 records, 1000000000 ticks/s, buffer overflowed 1 time: records were dropped'
expect_line out 'problems: 0 malformed, 0 nonconforming, 0 unknown skipped, not truncated'
[ "$(grep -c '^0x' "$dir/out")" -eq 34 ] || fail "expected 34 record lines"
[ -s "$dir/err" ] && fail "stderr not empty on a good file: $(cat "$dir/err")"
cp "$dir/out" "$dir/good.out"

expect_exit 0 "$tracectl" dump - <"$dir/good.fxt"
cmp -s "$dir/out" "$dir/good.out" || fail "stdin dump differs from file dump"

expect_exit 0 "$tracectl" dump --strict "$dir/good.fxt"
expect_exit 0 "$tracectl" dump --summary-only "$dir/good.fxt"
grep -q '^0x' "$dir/out" && fail "--summary-only printed records"
expect_line out 'summary: 34 records'

expect_exit 0 "$tracectl" dump "$dir/nonconforming.fxt"
expect_line err 'offset 0x5b8: nonconforming: reserved bits 0x0000010000000000 of the initialization header are set'
expect_exit 1 "$tracectl" dump --strict "$dir/nonconforming.fxt"
expect_line out 'problems: 0 malformed, 1 nonconforming'

expect_exit 0 "$tracectl" dump "$dir/malformed.fxt"
expect_line err 'offset 0x5d8: malformed: argument 1 of 3 words runs past the end of the record'
expect_exit 1 "$tracectl" dump --strict --summary-only "$dir/malformed.fxt"
expect_line out 'problems: 1 malformed'

# every command that reads an archive says a problem the same way:
# command, file, offset in hex, kind, reason
for cmd in dump summary "convert -o $dir/problem.out" \
	   "report -o $dir/problem.out"; do
	expect_exit 0 "$tracectl" $cmd "$dir/malformed.fxt"
	expect_line err "tracectl ${cmd%% *}: $dir/malformed.fxt: offset 0x5d8: malformed: argument 1 of 3 words runs past the end of the record"
done

# at most 1000 problems are shown, then how many more were not
cp "$dir/good.fxt" "$dir/many.fxt"
i=0
while [ $i -lt 1005 ]; do
	printf '\032\000\000\000\000\000\000\000'	# a record of type 10
	i=$((i + 1))
done >>"$dir/many.fxt"
expect_exit 0 "$tracectl" dump --summary-only "$dir/many.fxt"
[ "$(grep -c 'record of unknown type 10' "$dir/err")" -eq 1000 ] ||
	fail "not 1000 problems shown: $(grep -c '' "$dir/err") lines"
expect_line err "tracectl dump: $dir/many.fxt: 5 more problems not shown after the first 1000"
expect_line out '(5 more diagnostics not shown)'

head -c 1001 "$dir/good.fxt" >"$dir/cut.fxt"
expect_exit 1 "$tracectl" dump --strict "$dir/cut.fxt"
expect_line out ', truncated'
expect_line err 'ends inside a record'

printf 'not a trace at all\n' >"$dir/text.fxt"
# not FXT at all: refused like by convert, with or without --strict
expect_exit 1 "$tracectl" dump "$dir/text.fxt"
expect_line err "tracectl dump: '$dir/text.fxt' is not an FXT archive: no magic number record, and its first records do not read as FXT"
expect_line err "or --force to read it anyway"
expect_exit 1 "$tracectl" dump --strict "$dir/text.fxt"
expect_line err "is not an FXT archive"
# --force reads it anyway, and says what is wrong with it
expect_exit 1 "$tracectl" dump --force --strict "$dir/text.fxt"
expect_line err 'offset 0x0: nonconforming: input does not start with the FXT magic number record'

# types the spec reserves: skipped by the plain reader, not conforming
# (a record of type 10; metadata of type 6; an event of type 11)
for reserved in 'record:\032\000\000\000\000\000\000\000' \
		'metadata:\020\000\006\000\000\000\000\000' \
		'event:\044\000\013\001\000\000\000\000\001\000\000\000\000\000\000\000'; do
	kind=${reserved%%:*}
	cp "$dir/good.fxt" "$dir/reserved.fxt"
	printf "${reserved#*:}" >>"$dir/reserved.fxt"
	expect_exit 0 "$tracectl" dump --summary-only "$dir/reserved.fxt"
	expect_line out '0 malformed, 0 nonconforming, 1 unknown skipped'
	expect_exit 1 "$tracectl" dump --strict --summary-only "$dir/reserved.fxt"
	expect_line err '1 of reserved types'
	[ "$kind" = record ] && expect_line err 'record of unknown type 10'
	[ "$kind" = metadata ] && expect_line err 'metadata record of unknown type 6'
	[ "$kind" = event ] && expect_line err 'event of unknown type 11'
done

expect_exit 1 "$tracectl" dump "$dir/missing.fxt"
expect_line err 'cannot open'
expect_exit 2 "$tracectl" dump
expect_exit 2 "$tracectl" dump --bogus "$dir/good.fxt"
# every subcommand's usage errors: one line naming the mistake and the
# --help to read, exit 2; and every subcommand answers --version
one_line() {
	[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "$*: not one line: $(cat "$dir/err")"
}
for cmd in start stop status snapshot record dump convert summary report; do
	expect_exit 2 "$tracectl" $cmd --bogus
	expect_line err "tracectl $cmd: unknown option '--bogus'; see 'tracectl $cmd --help'"
	one_line $cmd --bogus
	expect_exit 0 "$tracectl" $cmd --version
	grep -q "^tracectl [0-9]" "$dir/out" || fail "$cmd --version: $(cat "$dir/out")"
done
for cmd in start record snapshot convert report; do
	expect_exit 2 "$tracectl" $cmd -o
	expect_line err "tracectl $cmd: option '-o' needs a value; see 'tracectl $cmd --help'"
	one_line $cmd -o
done
# long options without a short one: a missing value is said as such
for opt in kernel-buffer-size memory-budget name; do
	expect_exit 2 "$tracectl" start --$opt
	expect_line err "tracectl start: option '--$opt' needs a value; see 'tracectl start --help'"
done
for cmd in stop status snapshot dump convert summary report; do
	expect_exit 2 "$tracectl" $cmd "$dir/good.fxt" stray
	grep -q "^tracectl $cmd: unexpected argument '[^']*'; see 'tracectl $cmd --help'\$" "$dir/err" ||
		fail "$cmd: stray argument: $(cat "$dir/err")"
	one_line $cmd stray
done
expect_exit 2 "$tracectl" start stray
expect_line err "tracectl start: unexpected argument 'stray' (to trace a command: tracectl record -- COMMAND); see 'tracectl start --help'"
expect_exit 2 "$tracectl" summary
expect_line err "tracectl summary: no input FILE given ('-' reads stdin); see 'tracectl summary --help'"
expect_exit 2 "$tracectl" frob
expect_line err "tracectl: unknown command 'frob'; see 'tracectl --help'"
expect_exit 0 "$tracectl" --version
expect_exit 2 "$tracectl" dump "$dir/good.fxt" "$dir/good.fxt"
expect_exit 0 "$tracectl" dump --help
expect_line out 'Examples:'

# an argument named ESC [2J x must not reach the terminal raw (found by
# tests/fuzz): magic, then an instant event with one inline int32 argument
printf '\020\000\004\106\170\124\026\000\204\000\020\000\001\200\001\200\350\003\000\000\000\000\000\000\001\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000\143\000\000\000\000\000\000\000\156\000\000\000\000\000\000\000\041\000\005\200\007\000\000\000\033\133\062\112\170\000\000\000' >"$dir/escape.fxt"
expect_exit 0 "$tracectl" dump --strict "$dir/escape.fxt"
expect_line out 'name="n" \x1b[2Jx=7'
grep -q "$(printf '\033')" "$dir/out" && fail "dump wrote a raw ESC byte"

# damaged archives: any diagnostics, but never a crash
seed=1
while [ $seed -le 40 ]; do
	"$sample" --damaged $seed "$dir/damaged.fxt" || exit 1
	"$tracectl" dump "$dir/damaged.fxt" >/dev/null 2>&1
	got=$?
	[ $got -le 1 ] || fail "dump of damaged archive (seed $seed) exited $got"
	"$tracectl" dump --strict --summary-only "$dir/damaged.fxt" >/dev/null 2>&1
	got=$?
	[ $got -le 1 ] || fail "strict dump of damaged archive (seed $seed) exited $got"
	seed=$((seed + 1))
done

check_summary "tracectl dump"
