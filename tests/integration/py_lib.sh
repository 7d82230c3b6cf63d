# SPDX-License-Identifier: GPL-2.0-only
# Shared by the tests of the fxtrace Python module, after lib.sh: skips
# (77) when the module is not built, else points Python at it.
if [ -z "${FXT_PYTHON:-}" ]; then
	echo "${0##*/}: the fxtrace Python module is not built (python3-dev); skipped"
	exit 77
fi
: "${TYPED_EVENTS:?}" "${FXT_PYTHONPATH:?}"
export PYTHONPATH=$FXT_PYTHONPATH
