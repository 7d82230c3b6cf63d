/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPython's layout, as a reader of another process's Python frames needs
 * it (the manager, a BPF program at each sample): where the runtime is,
 * how to reach each thread's state from it, the current frame of a
 * thread, a frame's code and caller, and a code object's names. Read
 * from the interpreter's own DWARF (Debian: python3.X-dbg holds it for
 * the release interpreter, found by build id), never guessed: each
 * offset is a member's DW_AT_data_member_location, each size a
 * DW_AT_byte_size, a flag's bit its DW_AT_data_bit_offset, the
 * runtime's address its variable's location.
 *
 * Supported: the layouts of CPython 3.11 and 3.12 (a thread's frames
 * through _PyCFrame) and 3.13 (the thread's current frame its own
 * member, a frame's code f_executable). Another layout lacks one of the
 * members: -ENOENT, naming it.
 */
#ifndef FXT_SYMBOLS_PY_LAYOUT_H
#define FXT_SYMBOLS_PY_LAYOUT_H

#include <stdint.h>

#include <elfutils/libdw.h>

/* cframe_current of a layout without _PyCFrame (3.13). */
#define PY_LAYOUT_NO_CFRAME UINT32_MAX

struct py_layout {
	uint64_t runtime;		/* _PyRuntime, an ELF address */
	/* offsets in bytes */
	uint32_t runtime_interp_head;	/* _PyRuntimeState.interpreters.head */
	uint32_t interp_next;		/* PyInterpreterState.next */
	uint32_t interp_threads_head;	/* PyInterpreterState.threads.head */
	uint32_t tstate_next;		/* PyThreadState.next */
	uint32_t tstate_native_tid;	/* PyThreadState.native_thread_id */
	uint32_t tstate_cframe;		/* PyThreadState.cframe (3.13:
					 * .current_frame) */
	uint32_t cframe_current;	/* _PyCFrame.current_frame (3.13:
					 * PY_LAYOUT_NO_CFRAME) */
	uint32_t frame_code;		/* _PyInterpreterFrame.f_code (3.13:
					 * .f_executable) */
	uint32_t frame_previous;	/* _PyInterpreterFrame.previous */
	uint32_t frame_prev_instr;	/* _PyInterpreterFrame.prev_instr */
	uint32_t frame_owner;		/* _PyInterpreterFrame.owner */
	/* _PyInterpreterFrame.is_entry (3.11; 0 in 3.12, which has none) */
	uint32_t frame_is_entry;
	uint32_t code_filename;		/* PyCodeObject.co_filename */
	uint32_t code_name;		/* PyCodeObject.co_name */
	uint32_t code_qualname;		/* PyCodeObject.co_qualname */
	uint32_t code_firstlineno;	/* PyCodeObject.co_firstlineno */
	uint32_t code_linetable;	/* PyCodeObject.co_linetable */
	uint32_t code_adaptive;		/* PyCodeObject.co_code_adaptive */
	uint32_t ascii_length;		/* PyASCIIObject.length */
	uint32_t ascii_state;		/* PyASCIIObject.state */
	uint32_t ascii_size;		/* sizeof(PyASCIIObject): the bytes of a
					 * compact ASCII string follow it */
	/* bits, from the object's first (bit 0 of its byte 0) */
	uint32_t ascii_compact_bit;	/* PyASCIIObject.state.compact */
	uint32_t ascii_ascii_bit;	/* PyASCIIObject.state.ascii */
	uint32_t bytes_size;		/* PyVarObject.ob_size of a bytes */
	uint32_t bytes_data;		/* PyBytesObject.ob_sval */
};

/* Names the py_layout fields, in order, for those who print them. */
#define PY_LAYOUT_FIELDS 26u
extern const char *const py_layout_names[PY_LAYOUT_FIELDS];
/* Field i of l (py_layout_names[i]). */
uint64_t py_layout_field(const struct py_layout *l, unsigned int i);

/*
 * The layout in dw (the interpreter's DWARF): 0; -ENOENT with *missing
 * set to the struct or member it lacks; -EBADMSG for one not a constant.
 */
int py_layout_read(Dwarf *dw, struct py_layout *l, const char **missing);

#endif /* FXT_SYMBOLS_PY_LAYOUT_H */
