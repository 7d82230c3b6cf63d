#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# README's "Using it" block, run as written, in order, in a fresh
# directory: every command must succeed. Only what the block itself
# says varies: the systemd lines run where systemd is PID 1, the
# "fxtraced &" line elsewhere; "..." (exercise the system) is left out.
# The environment stands in for an installed system: the built programs
# in PATH, ./my-app a provider, /usr/libexec/fxtrace/fxt-example the
# built one, FXTRACE_SOCKET a private socket.
. "$(dirname "$0")/lib.sh"
: "${FXT_EXAMPLE:?}"
if [ "$(id -u)" -ne 0 ] || [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "skip: the block runs as root, with a kernel backend (BTF)"
	exit 77
fi
README="$(dirname "$0")/../../README.md"

awk '/^## Using it/ { u = 1 } u && /^    / { print; b = 1; next }
	u && b && /^$/ { exit }' "$README" >"$T/block"
[ "$(grep -c '^    tracectl ' "$T/block")" -ge 10 ] ||
	fail "no Using it block in README.md: $(cat "$T/block")"

if [ -d /run/systemd/system ]; then
	skip='where PID 1 is not systemd'
else
	skip='# systemd:|under systemd'
fi
{
	echo 'set -ex'
	# the fxtraced the block starts ends with it
	echo 'trap '"'"'kill $(jobs -p) 2>/dev/null; wait'"'"' EXIT'
	# what a user types between "fxtraced &" and the next line
	grep -vE "$skip" "$T/block" | grep -v '^ *\.\.\. ' |
		sed -e "s|/usr/libexec/fxtrace/fxt-example|$FXT_EXAMPLE|" \
		    -e 's|^\( *fxtraced &\)|\1 until tracectl status >/dev/null 2>\&1; do sleep 0.05; done|'
} >"$T/block.sh"
cat "$T/block.sh"

mkdir "$T/work"
cat >"$T/work/my-app" <<EOT
#!/bin/sh
exec "$FXT_EXAMPLE" --iterations 100 --threads 1
EOT
chmod 755 "$T/work/my-app"
mkdir "$T/bin"
ln -s "$FXTRACED" "$T/bin/fxtraced"
ln -s "$TRACECTL" "$T/bin/tracectl"
set +e
(cd "$T/work" && PATH="$T/bin:$PATH" bash "$T/block.sh") >"$T/block.out" 2>&1
status=$?
set -e -o pipefail
[ "$status" -eq 0 ] || { tail -30 "$T/block.out"; fail "README's block exited $status"; }
for f in trace.fxt now.fxt trace.json report.html; do
	[ -s "$T/work/$f" ] || fail "the block wrote no $f"
done
echo "readme: ok"
