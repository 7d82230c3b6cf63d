// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_layout.h: CPython's layout from the interpreter's DWARF.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "py_layout.h"

/* The types whose members are read, by the name the headers give them. */
enum py_type {
	PY_RUNTIME,	/* _PyRuntimeState */
	PY_INTERP,	/* struct _is: PyInterpreterState */
	PY_TSTATE,	/* struct _ts: PyThreadState */
	PY_CFRAME,
	PY_FRAME,
	PY_CODE,
	PY_ASCII,
	PY_BYTES,
	PY_NTYPES
};

static const char *const type_names[PY_NTYPES] = {
	"_PyRuntimeState", "_is", "_ts", "_PyCFrame", "_PyInterpreterFrame",
	"PyCodeObject", "PyASCIIObject", "PyBytesObject",
};

/*
 * Each field: its type and member path; a size when member is NULL, a
 * bit's place when FIELD_BIT; 0 where a layout lacks a FIELD_OPTIONAL one.
 */
#define FIELD_BIT 1u
#define FIELD_OPTIONAL 2u

static const struct {
	enum py_type type;
	const char *member;
	size_t at;
	unsigned int flags;
} fields[] = {
	{ PY_RUNTIME, "interpreters.head",
	  offsetof(struct py_layout, runtime_interp_head), 0 },
	{ PY_INTERP, "next", offsetof(struct py_layout, interp_next), 0 },
	{ PY_INTERP, "threads.head",
	  offsetof(struct py_layout, interp_threads_head), 0 },
	{ PY_TSTATE, "next", offsetof(struct py_layout, tstate_next), 0 },
	{ PY_TSTATE, "native_thread_id",
	  offsetof(struct py_layout, tstate_native_tid), 0 },
	/* 3.13: the thread's current frame itself, no _PyCFrame */
	{ PY_TSTATE, "cframe|current_frame",
	  offsetof(struct py_layout, tstate_cframe), 0 },
	{ PY_CFRAME, "current_frame",
	  offsetof(struct py_layout, cframe_current), FIELD_OPTIONAL },
	{ PY_FRAME, "f_code|f_executable",
	  offsetof(struct py_layout, frame_code), 0 },
	{ PY_FRAME, "previous", offsetof(struct py_layout, frame_previous), 0 },
	{ PY_FRAME, "prev_instr|instr_ptr",
	  offsetof(struct py_layout, frame_prev_instr), 0 },
	{ PY_FRAME, "owner", offsetof(struct py_layout, frame_owner), 0 },
	{ PY_FRAME, "is_entry", offsetof(struct py_layout, frame_is_entry), FIELD_OPTIONAL },
	{ PY_CODE, "co_filename", offsetof(struct py_layout, code_filename), 0 },
	{ PY_CODE, "co_name", offsetof(struct py_layout, code_name), 0 },
	{ PY_CODE, "co_qualname", offsetof(struct py_layout, code_qualname), 0 },
	{ PY_CODE, "co_firstlineno",
	  offsetof(struct py_layout, code_firstlineno), 0 },
	{ PY_CODE, "co_linetable",
	  offsetof(struct py_layout, code_linetable), 0 },
	{ PY_CODE, "co_code_adaptive",
	  offsetof(struct py_layout, code_adaptive), 0 },
	{ PY_ASCII, "length", offsetof(struct py_layout, ascii_length), 0 },
	{ PY_ASCII, "state", offsetof(struct py_layout, ascii_state), 0 },
	{ PY_ASCII, NULL, offsetof(struct py_layout, ascii_size), 0 },
	{ PY_ASCII, "state.compact",
	  offsetof(struct py_layout, ascii_compact_bit), FIELD_BIT },
	{ PY_ASCII, "state.ascii", offsetof(struct py_layout, ascii_ascii_bit), FIELD_BIT },
	{ PY_BYTES, "ob_base.ob_size", offsetof(struct py_layout, bytes_size), 0 },
	{ PY_BYTES, "ob_sval", offsetof(struct py_layout, bytes_data), 0 },
};

const char *const py_layout_names[PY_LAYOUT_FIELDS] = {
	"runtime",
	"_PyRuntimeState.interpreters.head",
	"PyInterpreterState.next",
	"PyInterpreterState.threads.head",
	"PyThreadState.next",
	"PyThreadState.native_thread_id",
	"PyThreadState.cframe",
	"_PyCFrame.current_frame",
	"_PyInterpreterFrame.f_code",
	"_PyInterpreterFrame.previous",
	"_PyInterpreterFrame.prev_instr",
	"_PyInterpreterFrame.owner",
	"_PyInterpreterFrame.is_entry",
	"PyCodeObject.co_filename",
	"PyCodeObject.co_name",
	"PyCodeObject.co_qualname",
	"PyCodeObject.co_firstlineno",
	"PyCodeObject.co_linetable",
	"PyCodeObject.co_code_adaptive",
	"PyASCIIObject.length",
	"PyASCIIObject.state",
	"sizeof(PyASCIIObject)",
	"PyASCIIObject.state.compact (bit)",
	"PyASCIIObject.state.ascii (bit)",
	"PyBytesObject.ob_base.ob_size",
	"PyBytesObject.ob_sval",
};

uint64_t py_layout_field(const struct py_layout *l, unsigned int i)
{
	if (!i)
		return l->runtime;
	if (i >= PY_LAYOUT_FIELDS)
		return 0;
	return *(const uint32_t *)((const char *)l + fields[i - 1].at);
}

/* t without typedefs and qualifiers: 0, or -1. */
static int peel(Dwarf_Die *t)
{
	Dwarf_Attribute a;
	int tag, depth;

	for (depth = 0; depth < 16; depth++) {
		tag = dwarf_tag(t);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type)
			return 0;
		if (!dwarf_attr_integrate(t, DW_AT_type, &a) ||
		    !dwarf_formref_die(&a, t))
			return -1;
	}
	return -1;
}

/* A complete struct definition named name (through a typedef). */
static bool complete_struct(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die t = *die, child;

	if (peel(&t) || dwarf_tag(&t) != DW_TAG_structure_type ||
	    dwarf_hasattr(&t, DW_AT_declaration) || dwarf_child(&t, &child))
		return false;
	*out = t;
	return true;
}

/* One pass over the CUs' top-level DIEs: each type and the runtime. */
static void find_all(Dwarf *dw, Dwarf_Die *types, bool *found,
		     Dwarf_Die *runtime, bool *has_runtime)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu, die;
	const char *name;
	int i;

	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (!dwarf_offdie(dw, off + hsize, &cu) ||
		    dwarf_child(&cu, &die)) {
			off = next;
			continue;
		}
		do {
			name = dwarf_diename(&die);
			if (!name)
				continue;
			if (!*has_runtime && dwarf_tag(&die) == DW_TAG_variable &&
			    !strcmp(name, "_PyRuntime") &&
			    dwarf_hasattr(&die, DW_AT_location)) {
				*runtime = die;
				*has_runtime = true;
			}
			for (i = 0; i < PY_NTYPES; i++)
				if (!found[i] && !strcmp(name, type_names[i]))
					found[i] = complete_struct(&die,
								   &types[i]);
		} while (!dwarf_siblingof(&die, &die));
		off = next;
	}
}

/* The member of struct t named name: its DIE, or -ENOENT. */
static int member(Dwarf_Die *t, const char *name, size_t len, Dwarf_Die *out)
{
	const char *n;

	if (dwarf_child(t, out))
		return -ENOENT;
	do {
		n = dwarf_diename(out);
		if (dwarf_tag(out) == DW_TAG_member && n &&
		    strlen(n) == len && !memcmp(n, name, len))
			return 0;
	} while (!dwarf_siblingof(out, out));
	return -ENOENT;
}

/*
 * The offset of path ("a.b": a's member b) in struct t, in bytes; with
 * bit, in bits, the last member a bit field (DW_AT_data_bit_offset).
 */
static int member_offset(Dwarf_Die t, const char *path, bool bit,
			 uint32_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word at;
	Dwarf_Die m;
	uint64_t sum = 0;
	size_t len;
	int err;

	for (;;) {
		len = strcspn(path, ".");
		err = member(&t, path, len, &m);
		if (err)
			return err;
		if (bit && !path[len])
			break;
		if (!dwarf_attr_integrate(&m, DW_AT_data_member_location, &a) ||
		    dwarf_formudata(&a, &at))
			return -EBADMSG; /* not a constant (DWARF 2's block) */
		sum += at;
		if (!path[len])
			break;
		path += len + 1;
		if (!dwarf_attr_integrate(&m, DW_AT_type, &a) ||
		    !dwarf_formref_die(&a, &t) || peel(&t))
			return -ENOENT;
	}
	if (bit) {
		if (!dwarf_attr_integrate(&m, DW_AT_data_bit_offset, &a) ||
		    dwarf_formudata(&a, &at))
			return -EBADMSG; /* DWARF 2's DW_AT_bit_offset */
		sum = sum * 8 + at;
	}
	if (sum > UINT32_MAX)
		return -EBADMSG;
	*off = (uint32_t)sum;
	return 0;
}

/* _PyRuntime's address: its location, one DW_OP_addr. */
static int runtime_address(Dwarf_Die *var, uint64_t *addr)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr_integrate(var, DW_AT_location, &a) ||
	    dwarf_getlocation(&a, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_addr)
		return -EBADMSG;
	*addr = ops[0].number;
	return 0;
}

/* The first of the '|'-separated paths of alts that t has. */
static int member_offset_alts(Dwarf_Die t, const char *alts, bool bit,
			      uint32_t *off)
{
	char path[64];
	size_t len;
	int err = -ENOENT;

	while (err == -ENOENT && *alts) {
		len = strcspn(alts, "|");
		if (len >= sizeof(path))
			return -ENOENT;
		memcpy(path, alts, len);
		path[len] = '\0';
		err = member_offset(t, path, bit, off);
		alts += len + (alts[len] == '|');
	}
	return err;
}

static int read_field(const Dwarf_Die *types, const bool *found,
		      unsigned int i, struct py_layout *l)
{
	uint32_t *out = (uint32_t *)((char *)l + fields[i].at);
	Dwarf_Die t = types[fields[i].type];
	int size, err = -ENOENT;

	if (fields[i].member) {
		if (found[fields[i].type])
			err = member_offset_alts(t, fields[i].member,
						 fields[i].flags & FIELD_BIT,
						 out);
		if (err == -ENOENT && (fields[i].flags & FIELD_OPTIONAL)) {
			*out = 0;
			err = 0;
		}
		return err;
	}
	size = dwarf_bytesize(&t);
	if (size <= 0)
		return -EBADMSG;
	*out = (uint32_t)size;
	return 0;
}

int py_layout_read(Dwarf *dw, struct py_layout *l, const char **missing)
{
	Dwarf_Die types[PY_NTYPES], runtime;
	bool found[PY_NTYPES] = { false }, has_runtime = false;
	unsigned int i;
	int err;

	memset(l, 0, sizeof(*l));
	*missing = NULL;
	find_all(dw, types, found, &runtime, &has_runtime);
	/* 3.13 has no _PyCFrame: the thread holds its current frame. */
	for (i = 0; i < PY_NTYPES; i++)
		if (!found[i] && i != PY_CFRAME) {
			*missing = type_names[i];
			return -ENOENT;
		}
	if (!has_runtime) {
		*missing = "_PyRuntime";
		return -ENOENT;
	}
	err = runtime_address(&runtime, &l->runtime);
	for (i = 0; !err && i < sizeof(fields) / sizeof(*fields); i++) {
		err = read_field(types, found, i, l);
		if (err)
			*missing = py_layout_names[i + 1];
	}
	if (!err && !found[PY_CFRAME])
		l->cframe_current = PY_LAYOUT_NO_CFRAME;
	return err;
}
