# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the stack samplers' benchmarks (stacks_bench.sh,
# python_frames_bench.sh), after they set work (their folder), fxtraced,
# tracectl and fail(): what both do alike.

# start_fxtraced SOCKET LOG [VAR=VALUE...]: a manager on SOCKET with
# those variables in its environment, up; its pid in $started.
start_fxtraced() {
	local sock=$1 log=$2
	shift 2
	env "$@" "$fxtraced" --socket "$sock" >"$log" 2>&1 &
	started=$!
	for _ in $(seq 100); do
		FXTRACE_SOCKET=$sock "$tracectl" status >/dev/null 2>&1 && return
		sleep 0.1
	done
	fail "fxtraced did not start: $(cat "$log")"
}

# value KEY OUT: the KEY= figure the workload printed in OUT.
value() {
	v=$(sed -n "s/^$1=//p" "$2")
	[ -n "$v" ] || { cat "$2" >&2; fail "no $1 in $2"; }
	echo "$v"
}

# bpf_floor HZ OUT COMMAND...: COMMAND run into OUT beside bpftrace's
# empty profile:hz:HZ program (on the same per-CPU cpu-clock perf
# events as ours: the floor every BPF sampler pays). bpftrace's pid is
# in $floor_pid meanwhile, for the caller's clean-up.
floor_pid=""
bpf_floor() {
	local hz=$1 out=$2 bt
	shift 2
	command -v bpftrace >/dev/null ||
		fail "bpftrace not found (apt-get install bpftrace)"
	# BEGIN runs once every other probe is attached.
	bpftrace -e "BEGIN { printf(\"attached\\n\") } profile:hz:$hz { }" \
		>"$work/bpftrace.log" 2>&1 &
	bt=$!
	floor_pid=$bt
	for _ in $(seq 300); do
		grep -q '^attached' "$work/bpftrace.log" && break
		kill -0 "$bt" 2>/dev/null || break
		sleep 0.1
	done
	grep -q '^attached' "$work/bpftrace.log" ||
		{ kill "$bt" 2>/dev/null; cat "$work/bpftrace.log" >&2;
		  fail "bpftrace did not attach"; }
	"$@" >"$out"
	# It may hang in its exit at SIGINT: TERM after 5 s.
	kill -INT "$bt"
	for _ in $(seq 50); do
		kill -0 "$bt" 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM "$bt" 2>/dev/null || true
	wait "$bt" || true
	floor_pid=""
}

# prog_ns TAG NAME SOCKET SAMPLE_OPTIONS COMMAND...: "TAG NAME NS", the
# run time per run of fxt_sample (kernel.bpf_stats_enabled, which the
# caller sets) in one capture of COMMAND by the manager on SOCKET.
prog_ns() {
	local tag=$1 name=$2 sock=$3 opts=$4
	shift 4
	# shellcheck disable=SC2086 # the options are words
	FXTRACE_SOCKET=$sock "$tracectl" start -o "$work/t.fxt" \
		--mode streaming --kernel=bpf --categories kernel:sample \
		$opts >/dev/null
	"$@" >/dev/null
	bpftool prog show name fxt_sample >"$work/prog" 2>&1 || true
	FXTRACE_SOCKET=$sock "$tracectl" stop >/dev/null
	rm -f "$work/t.fxt"
	awk -v tag="$tag" -v name="$name" '{ for (i = 1; i < NF; i++) {
		if ($i == "run_time_ns") t = $(i + 1)
		if ($i == "run_cnt") c = $(i + 1) } }
		END { if (c) printf "%s %s %.0f\n", tag, name, t / c }' "$work/prog"
}
