#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fxtrace Python module against the real manager: a program making
# every call (py_every_call.py) recorded by tracectl record; the archive
# conforms and holds exactly its events, names, typed arguments, thread
# names and asyncio tasks. Without a manager the same program runs with
# every call a no-op.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/py_lib.sh"
prog=$(dirname "$0")/py_every_call.py

# No manager: the socket is not there.
FXTRACE_SOCKET=$T/none.sock "${FOREIGN[@]}" "$FXT_PYTHON" "$prog" --no-manager >"$T/off.out" 2>&1 ||
	{ cat "$T/off.out"; fail "without a manager the program failed"; }
grep -q '^every-call: done$' "$T/off.out" || fail "no-manager run did not finish"

start_manager
"$TRACECTL" record -o "$T/py.fxt" --kernel=off \
	--categories py,py.many,asyncio -- "${FOREIGN[@]}" "$FXT_PYTHON" "$prog" >"$T/rec.out" 2>&1 ||
	{ cat "$T/rec.out"; fail "tracectl record of the program failed"; }
grep -q '^every-call: done$' "$T/rec.out" || { cat "$T/rec.out"; fail "the program did not finish"; }
grep -q 'FAILED' "$T/rec.out" && { cat "$T/rec.out"; fail "a check of the program failed"; }
"$TRACECTL" dump --strict "$T/py.fxt" >"$T/dump.out" 2>&1 ||
	{ tail -20 "$T/dump.out"; fail "tracectl dump --strict"; }
# The provider is named after the script.
"$TYPED_EVENTS" "$T/py.fxt" py_every_call >"$T/events.out"

# Every event but the many, as a set; then the order on each thread.
grep -v ' py.many ' "$T/events.out" | LC_ALL=C sort >"$T/got"
LC_ALL=C sort >"$T/want" <<'WANT'
MainThread instant py every-call i:int64=-7 big:uint64=9223372036854775813 f:double=1.5 s:string=text t:bool=true n:null=-
MainThread counter py queue id=3 depth:int64=4 load:double=0.25
MainThread duration_complete py block end>=start k:int64=2 who:string=main
MainThread duration_complete py traced_function end>=start
MainThread instant py in-method n:int64=3
MainThread duration_complete py Server.handle end>=start
MainThread flow_begin py request id=7
MainThread flow_step py request id=7 stage:string=parse
MainThread flow_end py request id=7
MainThread async_begin py rpc id=9 method:string=get
MainThread async_instant py rpc id=9
MainThread async_end py rpc id=9 ok:bool=false
worker-1 instant py from-worker k:int64=1
worker-1 duration_complete py worker-block end>=start
MainThread async_begin asyncio Task-1 id=1
MainThread async_begin asyncio fetch-1 id=2
MainThread async_begin asyncio fetch-2 id=3
MainThread async_begin py fetch id=4
MainThread async_begin py fetch id=5
MainThread async_end py fetch id=4
MainThread async_end py fetch id=5
MainThread async_end asyncio fetch-1 id=2 cancelled:bool=false
MainThread async_end asyncio fetch-2 id=3 cancelled:bool=false
MainThread async_end asyncio Task-1 id=1 cancelled:bool=false
WANT
diff -u "$T/want" "$T/got" || fail "the archive's events are not the program's"

# Program order on each thread: the counter inside the block, the
# method's instant inside its duration (complete events come at the end).
order=$(grep '^MainThread' "$T/events.out" | grep -v ' py.many \| asyncio ' |
	awk '{ print $2 }' | tr '\n' ' ')
[ "$order" = "instant counter duration_complete duration_complete instant duration_complete flow_begin flow_step flow_end async_begin async_instant async_end async_begin async_begin async_end async_end " ] ||
	fail "main thread's events out of order: $order"
# Each task's span: begun before its coroutine's, ended after.
tasks=$(grep ' async_[a-z]* \(asyncio\|py fetch\)' "$T/events.out" |
	awk '{ print $2 $3 $4 }' | tr '\n' ' ')
case "$tasks" in
"async_beginasyncioTask-1 async_beginasynciofetch-1 async_beginpyfetch async_beginasynciofetch-2 async_beginpyfetch "*) ;;
*) fail "asyncio spans out of order: $tasks" ;;
esac

# Past the module's own sites the shared one: every event, its own name.
[ "$(grep -c ' instant py.many many-[0-9]* i:int64=' "$T/events.out")" -eq 5000 ] ||
	fail "events past the sites' limit lost"
grep -q '^MainThread instant py.many many-4999 i:int64=4999$' "$T/events.out" ||
	fail "the last of the many events is wrong"
# The disabled category: nothing, not even its strings.
grep -q 'never-written\|"off"' "$T/dump.out" && fail "a disabled category was written"
stop_manager
echo "python: ok"
