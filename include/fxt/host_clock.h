/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How an archive says which host it came from and how its clock relates
 * to wall time. fxtraced writes, in a provider section of its own named
 * FXT_HOST_CLOCK_PROVIDER (a fresh provider id, as the command mark of
 * record_command.h), two kinds of instant events of category
 * FXT_HOST_CLOCK_CATEGORY on process 0, thread 0 (inline thread):
 *
 * - FXT_HOST_NAME ("host"): string arguments "machine_id"
 *   (/etc/machine-id, 32 lowercase hex), "boot_id"
 *   (/proc/sys/kernel/random/boot_id, 36 characters), "hostname" (uname
 *   nodename), "kernel" (uname release) and "trace_id" (32 lowercase hex,
 *   random per archive: a trace's is its id in the manager's journal,
 *   FXT_TRACE_ID; a snapshot is an archive of its own and gets its own
 *   id). Its timestamp is that of the start reading.
 *
 * - FXT_CLOCK_NAME ("clock"): one reading of the host's clocks, its
 *   timestamp the reading's CLOCK_BOOTTIME (the archive's clock); uint64
 *   arguments "boottime", "monotonic" and "realtime" (ns of those
 *   clocks, read together), "error_ns" (half the width of the tightest of
 *   FXT_CLOCK_TRIES reads of the three bracketed by two BOOTTIME reads:
 *   each clock was read within error_ns of "boottime"), and string "at",
 *   "start" or "stop".
 *
 * Both are written once at trace start, right after the magic number
 * record (so a circular trace keeps them), and a "clock" at "stop" when
 * the trace stops. A snapshot carries the host record (with its own
 * trace_id), the trace's start reading, and a reading taken at snapshot
 * time as its "stop". Two readings give the drift between BOOTTIME and
 * REALTIME over the trace; a reader maps trace time to wall time on the
 * line through them.
 *
 * An archive of tracectl merge has such a provider section of its own,
 * first: a host record with a fresh trace_id (the other fields those of
 * the first input, whose clock the merge is on), the first input's clock
 * readings, and one FXT_MERGE_NAME ("merge") instant per input, in
 * order: string arguments "host" (its name in the merge: the prefix of
 * its process and provider names) and "trace_id" (its host record's,
 * "" when it had none). The inputs' own sections of this provider are
 * renamed like their other providers ("web1/fxtraced").
 *
 * After the inputs' records the merge's section comes again, with one
 * FXT_MERGE_CPUS_NAME ("merge_cpus") instant per input, in order (their
 * CPUs are known once their records are written): string "host" (as in
 * its "merge" record), uint64 "cpu_base" (the output's number of its CPU
 * 0) and "cpus" (how many numbers from cpu_base are its CPUs: its highest
 * CPU + 1, 0 when its records name none).
 *
 * Which input a record of a merged archive came from: a pid or tid below
 * 2^FXT_MERGE_PID_BITS on its host (every Linux pid) is host << 22 | pid
 * in the output, host the input's position among the "merge" records; a
 * scheduling record's CPU lies in one input's "merge_cpus" range.
 *
 * Plain FXT instants: any FXT reader (Perfetto's too) shows them on
 * thread 0 of process 0 and their arguments as they are.
 */
#ifndef FXT_HOST_CLOCK_H
#define FXT_HOST_CLOCK_H

#define FXT_HOST_CLOCK_PROVIDER "fxtraced"
#define FXT_HOST_CLOCK_CATEGORY "fxtrace"

#define FXT_HOST_NAME "host"
#define FXT_HOST_ARG_MACHINE_ID "machine_id"
#define FXT_HOST_ARG_BOOT_ID "boot_id"
#define FXT_HOST_ARG_HOSTNAME "hostname"
#define FXT_HOST_ARG_KERNEL "kernel"
#define FXT_HOST_ARG_TRACE_ID "trace_id"

/* Lengths of the identifiers as written (no NUL). */
#define FXT_HOST_MACHINE_ID_LEN 32
#define FXT_HOST_BOOT_ID_LEN 36
#define FXT_HOST_TRACE_ID_LEN 32
/* uname's nodename and release: at most 64 bytes each on Linux. */
#define FXT_HOST_NAME_MAX 64

#define FXT_CLOCK_NAME "clock"
#define FXT_CLOCK_ARG_BOOTTIME "boottime"
#define FXT_CLOCK_ARG_MONOTONIC "monotonic"
#define FXT_CLOCK_ARG_REALTIME "realtime"
#define FXT_CLOCK_ARG_ERROR_NS "error_ns"
#define FXT_CLOCK_ARG_AT "at"
#define FXT_CLOCK_AT_START "start"
#define FXT_CLOCK_AT_STOP "stop"

#define FXT_MERGE_NAME "merge"
#define FXT_MERGE_ARG_HOST "host"
#define FXT_MERGE_ARG_TRACE_ID "trace_id"
#define FXT_MERGE_CPUS_NAME "merge_cpus"
#define FXT_MERGE_ARG_CPU_BASE "cpu_base"
#define FXT_MERGE_ARG_CPUS "cpus"
/* Bits of a merged pid or tid below its input's number (see above). */
#define FXT_MERGE_PID_BITS 22u
/* A host's name in a merge: a hostname and "#NNN" (no NUL). */
#define FXT_MERGE_HOST_LEN_MAX (FXT_HOST_NAME_MAX + 7)
/* Inputs of one merge: hosts numbered in 8 bits of the pid field. */
#define FXT_MERGE_INPUTS_MAX 256

/* Reads of the three clocks a reading takes the tightest of. */
#define FXT_CLOCK_TRIES 5

#endif /* FXT_HOST_CLOCK_H */
