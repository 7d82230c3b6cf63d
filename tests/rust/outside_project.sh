#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A cargo project outside the tree uses the crate as librust-fxtrace-dev
# installs it: scripts/debian/install-crate.sh lays the crate out in a
# registry directory beside Debian's crates (/usr/share/cargo/registry,
# linked), and the project's .cargo/config.toml is the one
# libprovider/rust/README.md gives. It builds offline (--offline, and a
# proxy that answers nothing) with the crate and its tracing feature,
# its Cargo.lock names the crate from that source; recorded by the real
# manager, its events are in the archive.
. "$(dirname "$0")/../integration/lib.sh"

: "${CARGO:=$(command -v cargo || command -v "$HOME/.cargo/bin/cargo" || true)}"
: "${FXT_BUILD_ROOT:?}" "${FXT_SOURCE_ROOT:?}"
if [ -z "$CARGO" ] || [ ! -x "$CARGO" ]; then
	echo "outside_project: cargo missing; skipped"
	exit 77
fi

# The registry: Debian's crates, and ours as the package installs it.
reg=$T/registry
mkdir -p "$reg"
for c in /usr/share/cargo/registry/*; do
	ln -s "$c" "$reg/"
done
sh "$FXT_SOURCE_ROOT/scripts/debian/install-crate.sh" "$FXT_SOURCE_ROOT" "$reg" >/dev/null ||
	fail "install-crate.sh"
[ -f "$reg/fxtrace-0.1.0/.cargo-checksum.json" ] || fail "no .cargo-checksum.json"
[ ! -e "$reg/fxtrace-0.1.0/.cargo" ] || fail "the tree's .cargo/ is in the crate"

app=$T/app
mkdir -p "$app/src" "$app/.cargo"
cat >"$app/Cargo.toml" <<'EOT'
[package]
name = "outside"
version = "0.1.0"
edition = "2021"

[dependencies]
fxtrace = { version = "0.1", features = ["tracing"] }
tracing = "0.1"
tracing-subscriber = { version = "0.3", default-features = false, features = ["registry", "std"] }
EOT
# As libprovider/rust/README.md says, with this test's registry in place
# of /usr/share/cargo/registry.
sed -n '/^\[source.crates-io\]/,/^offline = true/p' \
	"$FXT_SOURCE_ROOT/libprovider/rust/README.md" |
	sed "s|/usr/share/cargo/registry|$reg|" >"$app/.cargo/config.toml"
grep -q "directory = \"$reg\"" "$app/.cargo/config.toml" ||
	fail "README.md gives no .cargo/config.toml for one's own project"
cat >"$app/src/main.rs" <<'EOT'
use tracing_subscriber::layer::SubscriberExt;

#[tracing::instrument]
fn work(n: u64) -> u64 {
    fxtrace::duration_scope!("outside", "work", "n" => n);
    (0..n).sum()
}

fn main() {
    fxtrace::provider_init("outside-project").unwrap();
    let subscriber = tracing_subscriber::registry().with(fxtrace::FxtLayer::new());
    tracing::subscriber::set_global_default(subscriber).unwrap();
    println!("outside: {}", work(10));
}
EOT

# The library as libfxt-provider-dev would give it through pkg-config.
export FXT_PROVIDER_LIB_DIR="$FXT_BUILD_ROOT/libprovider"
export FXT_PROVIDER_INCLUDE_DIR="$FXT_SOURCE_ROOT/include"
export CARGO_HOME=$T/cargo-home
(cd "$app" && https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 \
	nice "$CARGO" build --offline --quiet -j1) >"$T/build.out" 2>&1 ||
	{ tail -30 "$T/build.out"; fail "cargo build of the outside project"; }
grep -A3 '^name = "fxtrace"' "$app/Cargo.lock" | grep -q '^checksum = ' ||
	fail "Cargo.lock: fxtrace not from the registry: $(cat "$app/Cargo.lock")"

start_manager
"$TRACECTL" record -o "$T/out.fxt" --kernel=off -- "${FOREIGN[@]}" \
	"$app/target/debug/outside" >"$T/rec.out" || fail "record: $(cat "$T/rec.out")"
grep -q '^outside: 45$' "$T/rec.out" || fail "bad run: $(cat "$T/rec.out")"
"$TRACECTL" dump --strict "$T/out.fxt" >"$T/dump.out" ||
	fail "tracectl dump --strict"
# Two: duration_scope!'s, and the #[instrument] span through FxtLayer
# (its category the target, the module path "outside"); both n=10.
[ "$(grep -c 'duration_complete .* category="outside" name="work" .* n=10$' "$T/dump.out")" -eq 2 ] ||
	fail "not the crate's event and the tracing span: $(grep work "$T/dump.out")"
stop_manager
echo "outside_project: ok"
