#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Inline frames: inline-workload, built with gcc -O2 -g (its two hot
# functions inlined into work(), neither keeping a symbol), recorded with
# kernel:sample through fxtraced and BPF, then:
# - tracectl summary --json --pid: hot_seventy and hot_thirty, named
#   from DWARF through their inline frames and marked inlined, hold the
#   workload's self samples in the split the program timed itself,
#   within 5 points;
#   work(), which they are inlined into, holds them in its total;
# - tracectl convert: the stackFrames of hot_seventy and hot_thirty,
#   marked inlined, have work as their parent;
# - tracectl report: the flame graph data holds both;
# - the Perfetto blobs name both, "[inlined]" (Perfetto's Frame has no
#   field to mark it);
# - tracectl export to ClickHouse (a throwaway server, when installed):
#   samples whose stack begins with each, then work.
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: needs root and kernel BTF"
	exit 77
fi
. "$(dirname "$0")/../integration/lib.sh"
: "${INLINE_WORKLOAD:?}"

# Really inlined: neither function has a symbol of its own.
syms=$(nm "$INLINE_WORKLOAD")
! grep -qw 'hot_seventy\|hot_thirty' <<<"$syms" ||
	fail "the hot functions were not inlined"
grep -qw work <<<"$syms" || fail "work() has no symbol"

start_manager
"$TRACECTL" record -o "$T/w.fxt" --kernel=bpf --kernel-buffer-size 8M \
	--categories kernel:sample --sample-rate 997 \
	-- "$INLINE_WORKLOAD" --seconds 3 >"$T/w.out" 2>&1 ||
	fail "tracectl record"
pid=$(sed -n 's/^pid=//p' "$T/w.out")
seventy=$(sed -n 's/^seventy_ns=//p' "$T/w.out")
thirty=$(sed -n 's/^thirty_ns=//p' "$T/w.out")
[ -n "$pid" ] && [ -n "$seventy" ] && [ -n "$thirty" ] ||
	fail "the workload did not run"

"$TRACECTL" summary --json --pid "$pid" "$T/w.fxt" >"$T/sum.json" ||
	fail "summary --json --pid"
jq -e --argjson a "$seventy" --argjson b "$thirty" '.functions |
	map({(.name): .self}) | add | (.hot_seventy // 0) as $s |
	(.hot_thirty // 0) as $t | ($a * 100 / ($a + $b)) as $own |
	$s + $t > 100 and ($s * 100 / ($s + $t) - $own | fabs) <= 5' \
	"$T/sum.json" >/dev/null || {
	jq -c '.functions[:6]' "$T/sum.json"
	fail "hot_seventy's share is not within 5 points of the program's own ($seventy, $thirty ns)"
}
jq -r --argjson a "$seventy" --argjson b "$thirty" '.functions |
	map({(.name): .self}) | add | (.hot_seventy // 0) as $s |
	(.hot_thirty // 0) as $t |
	"hot_seventy: \($s) of \($s + $t) samples, \($s * 1000 / ($s + $t) | round / 10)%; its own timing \($a * 1000 / ($a + $b) | round / 10)%"' \
	"$T/sum.json"
jq -e '[.functions[] | select(.name == "hot_seventy" or
	.name == "hot_thirty") | .inlined] == [true, true]' "$T/sum.json" \
	>/dev/null || fail "summary does not mark them inlined"
jq -e '.functions | (map(select(.name == "hot_seventy" or
	.name == "hot_thirty") | .self) | add) as $hot |
	any(.name == "work" and .total >= $hot)' "$T/sum.json" >/dev/null ||
	fail "work() does not hold the inlined functions in its total"

"$TRACECTL" convert "$T/w.fxt" -o "$T/w.json" || fail "convert"
for f in hot_seventy hot_thirty; do
	jq -e --arg f "$f" '.stackFrames as $s | [$s[] |
		select(.name == $f and .inlined and .parent != null and
			$s[.parent].name == "work")] | length > 0' \
		"$T/w.json" >/dev/null ||
		fail "convert: no $f frame under work"
done

"$TRACECTL" report "$T/w.fxt" -o "$T/w.html" || fail "report"
python3 -c 'import sys; t = open(sys.argv[1]).read()
print(t.split("id=\"fxt-data\">")[1].split("</script>")[0])' "$T/w.html" >"$T/data.json"
jq -e '[.flame.functions[][0]] | index("hot_seventy") and index("hot_thirty")' \
	"$T/data.json" >/dev/null || fail "the flame graphs lack the inlined functions"
# The Perfetto blobs (blob records of type 3) name them, marked.
python3 - "$T/w.fxt" >"$T/perfetto.bin" <<'PY' || fail "no Perfetto blobs"
import struct, sys
b = open(sys.argv[1], 'rb').read()
out, i = bytearray(), 0
while i + 8 <= len(b):
    h, = struct.unpack_from('<Q', b, i)
    n = (h >> 4) & (0xffffffff if h & 15 == 15 else 0xfff)
    if not n:
        break
    if h & 15 == 5 and (h >> 48) & 0xff == 3 and not (h >> 16) & 0x8000:
        out += b[i + 8:i + 8 + ((h >> 32) & 0x7fff)]
    i += n * 8
sys.stdout.buffer.write(out)
sys.exit(0 if out else 1)
PY
for f in hot_seventy hot_thirty; do
	grep -qaF "$f [inlined]" "$T/perfetto.bin" ||
		fail "Perfetto does not name $f as inlined"
done
# ClickHouse (when its server is installed): the samples' stacks, leaf
# first, name the inlined function, then work.
if [ -n "${CLICKHOUSE_SERVER:-}" ]; then
	rc=0
	URL=$("$CLICKHOUSE_SERVER" start "$T/ch") || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "cannot start clickhouse-server"
fi
if [ -n "${URL:-}" ]; then
	BG_PIDS="$BG_PIDS $(cat "$T/ch/pid")"
	"$TRACECTL" export --clickhouse "$URL" "$T/w.fxt" >"$T/export.out" 2>&1 ||
		fail "export: $(cat "$T/export.out")"
	q() { curl -sS --fail-with-body --max-time 120 "$URL" --data-binary "$1"; }
	for f in hot_seventy hot_thirty; do
		n=$(q "SELECT count() FROM fxtrace.samples WHERE pid = $pid AND
			stack[1] = '$f' AND stack[2] = 'work'")
		[ "$n" -gt 0 ] || fail "ClickHouse: no sample of $f under work ($n)"
		echo "ClickHouse: $n samples of $f under work"
	done
	"$CLICKHOUSE_SERVER" stop "$T/ch"
fi
echo "stacks_inline: ok"
