#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tracectl why across two hosts: a client's requests on one manager, a
# server's handling on another, in a time namespace 300 s ahead, linked
# by a flow per request; kernel records off on both. tracectl merge puts
# them on one clock; why --slice request on the merged archive follows
# the flow to the server's thread on the other host, its share within 5
# points of the server's own timing of that request.
set -eu -o pipefail
. "$(dirname "$0")/../integration/lib.sh"
: "${WHY_HOSTS:?}"
if [ "$(id -u)" -ne 0 ] || ! unshare --time --boottime 300 --fork true 2>/dev/null; then
	echo "skip: time namespaces need root (unshare --time)"
	exit 77
fi
N=5
mkfifo "$T/req" "$T/reply"

# host K OFFSET: its manager, in a time namespace OFFSET s ahead.
host() {
	export FXTRACE_SOCKET="$T/h$1.sock"
	unshare --time --boottime "$2" --kill-child "$FXTRACED" \
		--socket "$FXTRACE_SOCKET" --allow-uid "$(id -u)" \
		--state-dir "$T/state$1" >"$T/fxtraced$1.log" 2>&1 &
	BG_PIDS="$BG_PIDS $!"
	poll "$TRACECTL" status
}
host 0 0
host 1 300
FXTRACE_SOCKET="$T/h1.sock" unshare --time --boottime 300 --kill-child \
	"$TRACECTL" record -o "$T/server.fxt" --kernel=off --categories app \
	-- "$WHY_HOSTS" server "$T/req" "$T/reply" $N >"$T/server.out" 2>&1 &
srv=$!
FXTRACE_SOCKET="$T/h0.sock" "$TRACECTL" record -o "$T/client.fxt" \
	--kernel=off --categories app \
	-- "$WHY_HOSTS" client "$T/req" "$T/reply" $N >"$T/client.out" 2>&1 ||
	fail "the client's record: $(cat "$T/client.out")"
wait "$srv" || fail "the server's record: $(cat "$T/server.out")"

"$TRACECTL" merge "$T/client.fxt" "$T/server.fxt" -o "$T/both.fxt" \
	2>"$T/merge.err" || fail "merge: $(cat "$T/merge.err")"
"$TRACECTL" why --slice request --top 1 "$T/both.fxt" | tee "$T/why.txt" ||
	fail "tracectl why"
"$TRACECTL" why --slice request --top 1 --json "$T/both.fxt" >"$T/why.json" ||
	fail "tracectl why --json"
python3 - "$T/why.json" "$T/client.out" "$T/server.out" <<'PY' || fail "the path across hosts"
import json, sys
doc = json.load(open(sys.argv[1]))
fig = {}
for name in sys.argv[2:]:
    for line in open(name):
        f = dict(p.split('=') for p in line.split() if '=' in p)
        for k, v in f.items():
            if k in ('client_tid', 'server_tid'):
                fig[k] = int(v)
        if 'request' in f:
            fig.setdefault('requests', {})[int(f['request'])] = int(f['wall_ns'])
        if 'handle' in f:
            fig.setdefault('handles', {})[int(f['handle'])] = int(f['wall_ns'])
inst = doc['instances'][0]
req = min(fig['requests'], key=lambda i: abs(fig['requests'][i] - inst['wall_ns']))
path = [h['tid'] for h in inst['path']]
# The merge numbers the second host's threads host << 22 | tid.
server = 1 << 22 | fig['server_tid']
if path[:2] != [fig['client_tid'], server]:
    sys.exit('path %s, not client %d -> server %d' % (path, fig['client_tid'],
                                                    server))
flow = [c for c in inst['tree']['children'] if c['kind'] == 'flow']
got = sum(c['ns'] for c in flow) / inst['wall_ns']
want = fig['handles'][req] / fig['requests'][req]
print('request %d: the server\'s share %.3f, its own timing %.3f' % (req, got, want))
if abs(got - want) > 0.05:
    sys.exit('share %.3f, the server timed %.3f' % (got, want))
if 'kernel:sched' not in doc['would_tell_more']:
    sys.exit('kernel:sched not named as telling more')
PY
echo "why across hosts: ok"
