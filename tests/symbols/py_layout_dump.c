// SPDX-License-Identifier: GPL-2.0-only
/*
 * py-layout-dump PYTHON: CPython's layout as py_layout.h reads it from
 * PYTHON's DWARF (its own, or the debug file its build id names under
 * /usr/lib/debug), a "name=value" line a field; exit 1 with what is
 * missing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "py_layout.h"

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

int main(int argc, char **argv)
{
	const char *missing = NULL;
	struct py_layout l;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw = NULL;
	unsigned int i;
	Dwfl *dwfl;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: py-layout-dump PYTHON\n");
		return 2;
	}
	dwfl = dwfl_begin(&callbacks);
	mod = dwfl ? dwfl_report_offline(dwfl, "python", argv[1], -1) : NULL;
	if (mod && !dwfl_report_end(dwfl, NULL, NULL))
		dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw) {
		fprintf(stderr, "py-layout-dump: %s: no DWARF (%s)\n", argv[1],
			dwfl_errmsg(-1));
		return 1;
	}
	err = py_layout_read(dw, &l, &missing);
	if (err) {
		fprintf(stderr, "py-layout-dump: %s: %s: %s\n", argv[1],
			missing ? missing : "?", strerror(-err));
		return 1;
	}
	for (i = 0; i < PY_LAYOUT_FIELDS; i++)
		printf("%s=%" PRIu64 "\n", py_layout_names[i],
		       py_layout_field(&l, i));
	dwfl_end(dwfl);
	return 0;
}
