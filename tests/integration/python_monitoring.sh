#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# python3 -m fxtrace on CPython 3.12 and 3.13 where installed, which it
# traces with sys.monitoring (3.11: sys.setprofile): the module's C
# extension built here against each interpreter's headers and the
# library, then python_auto.sh's every check run on that interpreter.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/py_versions.sh"
: "${PROVIDER_SRC:?}" "${PROVIDER_LIB:?}" "${FXT_INCLUDE:?}"
CC=${CC:-cc}
pythons=$(py_versions)
[ -n "$pythons" ] || { echo "skip: no CPython 3.12 or 3.13 here"; exit 77; }
for py in $pythons; do
	v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	"$py" -c 'import sys; sys.exit(not hasattr(sys, "monitoring"))' ||
		fail "$py: no sys.monitoring"
	inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
	suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	[ -r "$inc/Python.h" ] || { echo "$py: no Python.h, not tried"; continue; }
	dir=$T/py$v/fxtrace
	mkdir -p "$dir"
	cp "$PROVIDER_SRC"/python/fxtrace/*.py "$dir/"
	"$CC" -shared -fPIC -O2 -D_GNU_SOURCE -fvisibility=hidden \
		-I"$inc" -I"$FXT_INCLUDE" -I"$PROVIDER_SRC" \
		-o "$dir/_core$suffix" "$PROVIDER_SRC"/python/*.c \
		"$PROVIDER_LIB" || fail "$py: the extension did not build"
	echo "=== python $v ($py), sys.monitoring"
	FXT_PYTHON=$py FXT_PYTHONPATH=$T/py$v \
		bash "$(dirname "$0")/python_auto.sh" || fail "python $v"
done
echo "python_monitoring: ok"
