# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the tests of the archive readers: the memory bound that
# tracectl(1) promises for dump, convert, summary and report whatever
# the input (READING ARCHIVES), and a way to run a command held to it.

READER_MEMORY_MIB=256

# Whether BINARY is built with AddressSanitizer, whose shadow memory
# reserves terabytes of address space: no address-space limit for it.
asan_build() {
	ldd "$1" 2>/dev/null | grep libasan >/dev/null
}

# under_reader_memory_limit COMMAND...: runs COMMAND with its address
# space limited to the bound, so that any excess fails (an allocation
# fails: the command says "out of memory" and exits 1).
under_reader_memory_limit() {
	(ulimit -v $((READER_MEMORY_MIB * 1024)) && exec "$@")
}
