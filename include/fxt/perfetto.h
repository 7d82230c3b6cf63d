/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The Perfetto protos of the archive's "perfetto" blobs (include/fxt/
 * stacks.h): the field numbers the manager writes and tracectl merge
 * rewrites, and the varint both encode and decode.
 *
 * Field numbers: protos/perfetto/trace/{trace,trace_packet}.proto,
 * interned_data/interned_data.proto, profiling/{profile_common,
 * profile_packet,stack_sample}.proto.
 */
#ifndef FXT_PERFETTO_H
#define FXT_PERFETTO_H

#include <stddef.h>
#include <stdint.h>

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

/* Protobuf wire types. */
enum fxt_pb_wire {
	FXT_PB_VARINT = 0,
	FXT_PB_FIXED64 = 1,
	FXT_PB_LEN = 2,
	FXT_PB_FIXED32 = 5,
};

#define FXT_PB_VARINT_MAX 10u /* bytes of a 64-bit varint */
/*
 * A nested message's length written after its end, in 4 varint bytes
 * (redundant where fewer would do, as protozero writes them: decoders
 * accept it), so that its room is kept before its bytes are known.
 */
#define FXT_PB_LEN4_BYTES 4u
#define FXT_PB_LEN4_MAX ((1u << 28) - 1)

/* v as a varint at p (room for FXT_PB_VARINT_MAX): the bytes written. */
static inline size_t fxt_pb_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* n (at most FXT_PB_LEN4_MAX) at p, in FXT_PB_LEN4_BYTES varint bytes. */
static inline void fxt_pb_put_len4(uint8_t *p, uint32_t n)
{
	p[0] = (uint8_t)(0x80 | (n & 0x7f));
	p[1] = (uint8_t)(0x80 | ((n >> 7) & 0x7f));
	p[2] = (uint8_t)(0x80 | ((n >> 14) & 0x7f));
	p[3] = (uint8_t)((n >> 21) & 0x7f);
}

/*
 * The varint at p (avail bytes) into *v: the bytes it takes, 0 if it is
 * cut by avail or longer than FXT_PB_VARINT_MAX bytes.
 */
static inline size_t fxt_pb_get_varint(const uint8_t *p, size_t avail,
				       uint64_t *v)
{
	size_t n;

	*v = 0;
	for (n = 0; n < avail && n < FXT_PB_VARINT_MAX; n++) {
		*v |= (uint64_t)(p[n] & 0x7f) << (7 * n);
		if (!(p[n] & 0x80))
			return n + 1;
	}
	return 0;
}

#endif /* FXT_PERFETTO_H */
