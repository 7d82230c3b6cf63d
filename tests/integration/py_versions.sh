# SPDX-License-Identifier: GPL-2.0-only
# Sourced: py_versions: the CPython interpreters of 3.12 and 3.13 this
# machine has besides Debian's /usr/bin/python3 (by Debian, by hand, or
# by pyenv: the first found of each), a path a line.
py_versions() {
	local v p
	for v in 3.12 3.13; do
		for p in /usr/bin/python$v /usr/local/bin/python$v \
			"${PYENV_ROOT:-/root/.pyenv}"/versions/$v*/bin/python$v; do
			if [ -x "$p" ]; then
				echo "$p"
				break
			fi
		done
	done
}
