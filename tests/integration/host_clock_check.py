#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks the host and clock records of an archive, as tracectl summary
--json gives them: host_clock_check.py SUMMARY.json [KEY=VALUE...]

  machine_id= boot_id= hostname= kernel=   the host fields equal these
  real=LO:HI boot=LO:HI mono=LO:HI         both readings of that clock lie
                                           in [LO, HI], the start first
  error_max=NS                             each reading's error_ns below
  offset=NS:TOL                            each reading's realtime minus
                                           boottime within TOL of NS
  same_start=OTHER.json                    the start reading is OTHER's
  other_trace=OTHER.json                   the trace id is not OTHER's
  dump=DUMP                                every timestamp of the dump lies
                                           between the readings
Prints the readings' errors and the drift; exits 1 saying what is wrong."""
import json
import re
import sys


def fail(msg):
    print(f"host_clock_check: {sys.argv[1]}: {msg}", file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_range(clock, key, spec):
    lo, hi = (int(v) for v in spec.split(":"))
    start, stop = clock["start"][key], clock["stop"][key]
    if not lo <= start <= stop <= hi:
        fail(f"{key}: start {start}, stop {stop}: not within [{lo}, {hi}] "
             f"in order (start off by {start - lo}, stop by {stop - hi})")


def check_dump(clock, path):
    lo, hi = clock["start"]["boottime"], clock["stop"]["boottime"]
    n = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\bts=(\d+)", line)
            if not m:
                continue
            n += 1
            if not lo <= int(m.group(1)) <= hi:
                fail(f"a record at {m.group(1)} lies outside the readings "
                     f"[{lo}, {hi}]: {line.strip()}")
    if n < 3:
        fail(f"the dump has only {n} timestamps")


def check(s, key, value):
    host, clock = s["host"], s["clock"]
    if key in ("machine_id", "boot_id", "hostname", "kernel"):
        if host[key] != value:
            fail(f"{key} is {host[key]!r}, expected {value!r}")
    elif key in ("real", "boot", "mono"):
        name = {"real": "realtime", "boot": "boottime", "mono": "monotonic"}
        check_range(clock, name[key], value)
    elif key == "error_max":
        for at in ("start", "stop"):
            if not clock[at]["error_ns"] < int(value):
                fail(f"{at} error_ns {clock[at]['error_ns']} >= {value}")
    elif key == "offset":
        want, tol = (int(v) for v in value.split(":"))
        for at in ("start", "stop"):
            got = clock[at]["realtime"] - clock[at]["boottime"]
            if abs(got - want) > tol:
                fail(f"{at}: REALTIME - BOOTTIME is {got}, the test's "
                     f"{want}: off by {got - want} ns")
    elif key == "same_start":
        if clock["start"] != load(value)["clock"]["start"]:
            fail(f"start reading differs from {value}'s")
    elif key == "other_trace":
        if host["trace_id"] == load(value)["host"]["trace_id"]:
            fail(f"trace id {host['trace_id']} is {value}'s too")
    elif key == "dump":
        check_dump(clock, value)
    else:
        fail(f"unknown check {key}")


def main():
    s = load(sys.argv[1])
    if "host" not in s or "clock" not in s:
        fail("no host or clock records")
    clock = s["clock"]
    if "start" not in clock or "stop" not in clock:
        fail(f"a reading is missing: {sorted(clock)}")
    if not re.fullmatch(r"[0-9a-f]{32}", s["host"]["trace_id"]):
        fail(f"trace id {s['host']['trace_id']!r} is not 32 hex digits")
    for arg in sys.argv[2:]:
        key, _, value = arg.partition("=")
        check(s, key, value)
    print(f"{sys.argv[1]}: error_ns {clock['start']['error_ns']} and "
          f"{clock['stop']['error_ns']}, drift {clock.get('drift_ppm')} ppm")


main()
