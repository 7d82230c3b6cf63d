// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_debug_offsets.h: 3.13's _Py_DebugOffsets, as its header lays it out
 * (every member 8 bytes), read from the file's data.
 */
#include <errno.h>
#include <stdbool.h>
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

/* Offset off of a structure of size: into *out, if it fits in 32 bits. */
static bool take(uint64_t off, uint64_t size, uint32_t *out)
{
	if (off >= size || size > UINT32_MAX)
		return false;
	*out = (uint32_t)off;
	return true;
}

int py_debug_offsets_read(Elf *elf, uint64_t runtime, struct py_layout *l)
{
	struct py_debug_offsets_313 o;
	bool ok;

	if (read_at(elf, runtime, &o, sizeof(o)) ||
	    memcmp(o.cookie, "xdebugpy", 8))
		return -ENOENT;
	if (o.version >> 16 != PY_313 || o.free_threaded)
		return -EPROTONOSUPPORT;
	memset(l, 0, sizeof(*l));
	l->runtime = runtime;
	ok = take(o.runtime_state.interpreters_head, o.runtime_state.size,
		  &l->runtime_interp_head) &&
	     take(o.interpreter_state.next, o.interpreter_state.size,
		  &l->interp_next) &&
	     take(o.interpreter_state.threads_head, o.interpreter_state.size,
		  &l->interp_threads_head) &&
	     take(o.thread_state.next, o.thread_state.size, &l->tstate_next) &&
	     take(o.thread_state.native_thread_id, o.thread_state.size,
		  &l->tstate_native_tid) &&
	     take(o.thread_state.current_frame, o.thread_state.size,
		  &l->tstate_cframe) &&
	     take(o.interpreter_frame.executable, o.interpreter_frame.size,
		  &l->frame_code) &&
	     take(o.interpreter_frame.previous, o.interpreter_frame.size,
		  &l->frame_previous) &&
	     take(o.interpreter_frame.instr_ptr, o.interpreter_frame.size,
		  &l->frame_prev_instr) &&
	     take(o.interpreter_frame.owner, o.interpreter_frame.size,
		  &l->frame_owner) &&
	     take(o.code_object.filename, o.code_object.size,
		  &l->code_filename) &&
	     take(o.code_object.name, o.code_object.size, &l->code_name) &&
	     take(o.code_object.qualname, o.code_object.size,
		  &l->code_qualname) &&
	     take(o.code_object.firstlineno, o.code_object.size,
		  &l->code_firstlineno) &&
	     take(o.code_object.linetable, o.code_object.size,
		  &l->code_linetable) &&
	     take(o.code_object.co_code_adaptive, o.code_object.size + 1,
		  &l->code_adaptive) &&
	     take(o.unicode_object.length, o.unicode_object.size,
		  &l->ascii_length) &&
	     take(o.unicode_object.state, o.unicode_object.size,
		  &l->ascii_state) &&
	     take(o.unicode_object.asciiobject_size,
		  o.unicode_object.size + 1, &l->ascii_size) &&
	     take(o.bytes_object.ob_size, o.bytes_object.size,
		  &l->bytes_size) &&
	     take(o.bytes_object.ob_sval, o.bytes_object.size + 1,
		  &l->bytes_data);
	if (!ok)
		return -EPROTONOSUPPORT;
	l->cframe_current = PY_LAYOUT_NO_CFRAME;
	l->ascii_compact_bit = l->ascii_state * 8 + STATE_COMPACT_BIT;
	l->ascii_ascii_bit = l->ascii_state * 8 + STATE_ASCII_BIT;
	return 0;
}
