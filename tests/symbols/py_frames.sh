#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# test_py_frames on Debian's interpreter, then on 3.12 and 3.13 where
# installed (their runtime and DWARF in their libpython, pyenv's; an
# interpreter with neither is said and left out).
set -u
TEST=$1
SCRIPT=$2
. "$(dirname "$0")/../integration/py_versions.sh"
"$TEST" "$SCRIPT" || exit $?
for py in $(py_versions); do
	lib=$("$py" -c 'import sysconfig, os
d, n = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
print(os.path.realpath(os.path.join(d, n)) if d and n else "")')
	if [ -z "$lib" ] || [ ! -r "$lib" ]; then
		echo "$py: no shared libpython, left out"
		continue
	fi
	echo "=== $py ($lib)"
	"$TEST" "$SCRIPT" "$py" "$lib" || exit 1
done
