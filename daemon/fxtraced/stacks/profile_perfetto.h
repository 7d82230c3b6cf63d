/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The samples of a profile_ingest as one Perfetto Trace stream, cut in
 * blob records of blob type 3 named "perfetto" (Perfetto's FXT importer
 * appends their payloads and parses the result as a Trace): one packet
 * sequence, interned mappings, frames (named) and callstacks (root
 * first), then a PerfSample per on-CPU sample and a StackSample weighted
 * by the blocked time per off-CPU sample. Timestamps are left on the
 * FXT file's clock (CLOCK_BOOTTIME ns).
 *
 * Field numbers: protos/perfetto/trace/{trace,trace_packet}.proto,
 * interned_data/interned_data.proto, profiling/{profile_common,
 * profile_packet,stack_sample}.proto.
 */
#ifndef FXT_PROFILE_PERFETTO_H
#define FXT_PROFILE_PERFETTO_H

#include "profile_ingest.h"

/* Trace */
#define PF_TRACE_PACKET 1
/* TracePacket */
#define PF_PACKET_TIMESTAMP 8
#define PF_PACKET_SEQUENCE_ID 10
#define PF_PACKET_INTERNED_DATA 12
#define PF_PACKET_SEQUENCE_FLAGS 13
#define PF_PACKET_DEFAULTS 59
#define PF_PACKET_PERF_SAMPLE 66
#define PF_PACKET_FIRST_ON_SEQUENCE 87
#define PF_PACKET_STACK_SAMPLE 135
#define PF_SEQ_INCREMENTAL_STATE_CLEARED 1
#define PF_SEQ_NEEDS_INCREMENTAL_STATE 2
/* TracePacketDefaults, StackSampleDefaults, CounterDescriptor */
#define PF_DEFAULTS_STACK_SAMPLE 100
#define PF_SSDEFAULTS_SOURCE 1
#define PF_SSDEFAULTS_PRIMARY 2
#define PF_COUNTER_NAME 2
#define PF_COUNTER_UNIT 3
#define PF_COUNTER_SCOPE 7
#define PF_UNIT_NANOSECONDS 1
#define PF_SCOPE_GLOBAL 1
/* InternedData */
#define PF_INTERNED_FUNCTION_NAMES 5
#define PF_INTERNED_FRAMES 6
#define PF_INTERNED_CALLSTACKS 7
#define PF_INTERNED_BUILD_IDS 16
#define PF_INTERNED_MAPPING_PATHS 17
#define PF_INTERNED_MAPPINGS 19
/* InternedString */
#define PF_STRING_IID 1
#define PF_STRING_STR 2
/* Mapping */
#define PF_MAPPING_IID 1
#define PF_MAPPING_BUILD_ID 2
#define PF_MAPPING_PATH_STRING_IDS 7
/* Frame */
#define PF_FRAME_IID 1
#define PF_FRAME_FUNCTION_NAME_ID 2
#define PF_FRAME_MAPPING_ID 3
#define PF_FRAME_REL_PC 4
/* Callstack */
#define PF_CALLSTACK_IID 1
#define PF_CALLSTACK_FRAME_IDS 2
/* PerfSample */
#define PF_PERF_CPU 1
#define PF_PERF_PID 2
#define PF_PERF_TID 3
#define PF_PERF_CALLSTACK_IID 4
#define PF_PERF_CPU_MODE 5
#define PF_PERF_TIMEBASE_COUNT 6
#define PF_CPU_MODE_KERNEL 1 /* Profiling.CpuMode */
#define PF_CPU_MODE_USER 2
/* StackSample, TaskContext */
#define PF_STACK_TASK_CONTEXT 1
#define PF_STACK_CALLSTACK_IID 6
#define PF_STACK_PRIMARY_WEIGHT 11
#define PF_TASK_PID 2
#define PF_TASK_TID 3

#define PF_SEQUENCE_ID 1
/* The kernel's mapping: Perfetto's "magical" /kernel, no address. */
#define PF_KERNEL_MAPPING_IID 1
#define PF_OFFCPU_SOURCE "fxtrace.offcpu"
#define PF_OFFCPU_COUNTER "off-cpu"

struct profile_ingest;

/*
 * Writes the blobs; names[frame id - 1] names each frame (NULL: its
 * kernel name, or basename(mapping)+0xADDR).
 */
int profile_perfetto_write(const struct profile_ingest *p,
			   const char *const *names, profile_emit_fn emit,
			   void *ctx);

#endif /* FXT_PROFILE_PERFETTO_H */
