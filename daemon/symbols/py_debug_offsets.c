// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_debug_offsets.h: 3.13's _Py_DebugOffsets, as its header lays it out
 * (every member 8 bytes), read from the file's data.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "py_debug_offsets.h"

/* A structure's size, then member offsets: n words. */
struct py_debug_offsets_313 {
	char cookie[8];
	uint64_t version;
	uint64_t free_threaded;
	struct { uint64_t size, finalizing, interpreters_head; } runtime_state;
	struct {
		uint64_t size, id, next, threads_head, gc, imports_modules,
			sysdict, builtins, ceval_gil, gil_runtime_state,
			gil_runtime_state_enabled, gil_runtime_state_locked,
			gil_runtime_state_holder;
	} interpreter_state;
	struct {
		uint64_t size, prev, next, interp, current_frame, thread_id,
			native_thread_id, datastack_chunk, status;
	} thread_state;
	struct {
		uint64_t size, previous, executable, instr_ptr, localsplus,
			owner;
	} interpreter_frame;
	struct {
		uint64_t size, filename, name, qualname, linetable,
			firstlineno, argcount, localsplusnames,
			localspluskinds, co_code_adaptive;
	} code_object;
	struct { uint64_t size, ob_type; } pyobject;
	struct { uint64_t size, tp_name, tp_repr, tp_flags; } type_object;
	struct { uint64_t size, ob_item, ob_size; } tuple_object;
	struct { uint64_t size, ob_item, ob_size; } list_object;
	struct { uint64_t size, ma_keys, ma_values; } dict_object;
	struct { uint64_t size, ob_fval; } float_object;
	struct { uint64_t size, lv_tag, ob_digit; } long_object;
	struct { uint64_t size, ob_size, ob_sval; } bytes_object;
	struct { uint64_t size, state, length, asciiobject_size; } unicode_object;
	struct { uint64_t size, collecting; } gc;
};

#define PY_313 0x030d

/* 3.13's PyASCIIObject.state: interned:2, kind:3, then these. */
#define STATE_COMPACT_BIT 5u
#define STATE_ASCII_BIT 6u

/* The bytes of elf's file at address at: into out, or -ENOENT. */
static int read_at(Elf *elf, uint64_t at, void *out, size_t len)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    at < sh.sh_addr || at - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || at - sh.sh_addr > d->d_size ||
		    d->d_size - (at - sh.sh_addr) < len)
			return -ENOENT;
		memcpy(out, (const char *)d->d_buf + (at - sh.sh_addr), len);
		return 0;
	}
	return -ENOENT;
}

/* Where each layout field is in the offsets: its member, its size's. */
#define OFFSET(group, member, field, at_end)                               \
	{ offsetof(struct py_debug_offsets_313, group.member),              \
	  offsetof(struct py_debug_offsets_313, group.size),                \
	  offsetof(struct py_layout, field), at_end }

static const struct {
	size_t member, size, field;
	bool at_end; /* a flexible array's: may be the structure's size */
} offsets[] = {
	OFFSET(runtime_state, interpreters_head, runtime_interp_head, false),
	OFFSET(interpreter_state, next, interp_next, false),
	OFFSET(interpreter_state, threads_head, interp_threads_head, false),
	OFFSET(thread_state, next, tstate_next, false),
	OFFSET(thread_state, native_thread_id, tstate_native_tid, false),
	OFFSET(thread_state, current_frame, tstate_cframe, false),
	OFFSET(interpreter_frame, executable, frame_code, false),
	OFFSET(interpreter_frame, previous, frame_previous, false),
	OFFSET(interpreter_frame, instr_ptr, frame_prev_instr, false),
	OFFSET(interpreter_frame, owner, frame_owner, false),
	OFFSET(code_object, filename, code_filename, false),
	OFFSET(code_object, name, code_name, false),
	OFFSET(code_object, qualname, code_qualname, false),
	OFFSET(code_object, firstlineno, code_firstlineno, false),
	OFFSET(code_object, linetable, code_linetable, false),
	OFFSET(code_object, co_code_adaptive, code_adaptive, true),
	OFFSET(unicode_object, length, ascii_length, false),
	OFFSET(unicode_object, state, ascii_state, false),
	OFFSET(unicode_object, asciiobject_size, ascii_size, true),
	OFFSET(bytes_object, ob_size, bytes_size, false),
	OFFSET(bytes_object, ob_sval, bytes_data, true),
};

int py_debug_offsets_read(Elf *elf, uint64_t runtime, struct py_layout *l)
{
	struct py_debug_offsets_313 o;
	uint64_t off, size;
	size_t i;

	if (read_at(elf, runtime, &o, sizeof(o)) ||
	    memcmp(o.cookie, "xdebugpy", 8))
		return -ENOENT;
	if (o.version >> 16 != PY_313 || o.free_threaded)
		return -EPROTONOSUPPORT;
	memset(l, 0, sizeof(*l));
	l->runtime = runtime;
	for (i = 0; i < sizeof(offsets) / sizeof(*offsets); i++) {
		memcpy(&off, (const char *)&o + offsets[i].member, sizeof(off));
		memcpy(&size, (const char *)&o + offsets[i].size, sizeof(size));
		if (size > UINT32_MAX || off > size ||
		    (off == size && !offsets[i].at_end))
			return -EPROTONOSUPPORT;
		memcpy((char *)l + offsets[i].field, &(uint32_t){ (uint32_t)off },
		       sizeof(uint32_t));
	}
	l->cframe_current = PY_LAYOUT_NO_CFRAME;
	l->ascii_compact_bit = l->ascii_state * 8 + STATE_COMPACT_BIT;
	l->ascii_ascii_bit = l->ascii_state * 8 + STATE_ASCII_BIT;
	return 0;
}
