// SPDX-License-Identifier: LGPL-2.1-or-later
//! Links libfxt-provider and compiles src/shim.c, which gives the
//! header's inline writer (<fxt/provider_internal.h>) a call site taking
//! the site and arguments Rust built: one writer of the buffer, in C.
//!
//! Where the library and its headers are, first found:
//!   FXT_PROVIDER_LIB_DIR, FXT_PROVIDER_INCLUDE_DIR (e.g. meson's build
//!   directory's libprovider/ and the source tree's include/);
//!   the source tree this crate is in (../../include, ../../build/libprovider);
//!   pkg-config libfxt-provider (package libfxt-provider-dev).
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn pkg_config(arg: &str, prefix: &str) -> Option<PathBuf> {
    let out = Command::new("pkg-config")
        .args([arg, "libfxt-provider"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let dir = text.split_whitespace().find_map(|w| w.strip_prefix(prefix));
    // No -L or -I: the compiler's default directories.
    Some(dir.map(PathBuf::from).unwrap_or_default())
}

fn find_dir(var: &str, in_tree: &Path, probe: &str, pc: (&str, &str)) -> PathBuf {
    println!("cargo:rerun-if-env-changed={}", var);
    if let Some(dir) = env::var_os(var) {
        return PathBuf::from(dir);
    }
    if in_tree.join(probe).exists() {
        return in_tree.to_path_buf();
    }
    pkg_config(pc.0, pc.1).unwrap_or_else(|| {
        panic!(
            "libfxt-provider not found: set {} (meson's build directory), \
             or install libfxt-provider-dev",
            var
        )
    })
}

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("{:?}: {}", cmd, e));
    assert!(status.success(), "{:?} failed: {}", cmd, status);
}

fn compile(src: &Path, include: &[&Path], obj: &Path, extra: &[&str]) {
    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    let mut cmd = Command::new(cc);
    cmd.args(["-std=gnu11", "-O2", "-fPIC", "-Wall", "-Wextra", "-c"]).args(extra);
    for dir in include.iter().filter(|d| !d.as_os_str().is_empty()) {
        cmd.arg("-I").arg(dir);
    }
    run(cmd.arg(src).arg("-o").arg(obj));
}

fn archive(obj: &Path, archive: &Path) {
    let ar = env::var("AR").unwrap_or_else(|_| "ar".into());
    let _ = std::fs::remove_file(archive);
    run(Command::new(ar).arg("crs").arg(archive).arg(obj));
}

/// In the source tree, the benchmark's C peer: provider_bench's loops,
/// for the examples only (cfg fxtrace_c_loops).
fn c_bench_loops(manifest: &Path, tree: &Path, include: &Path, out: &Path) {
    println!("cargo:rustc-check-cfg=cfg(fxtrace_c_loops)");
    let loops = tree.join("tests/bench/provider");
    if !loops.join("loops.h").exists() {
        return;
    }
    println!("cargo:rerun-if-changed={}", loops.join("loops.h").display());
    println!("cargo:rerun-if-changed=examples/bench_loops.c");
    let obj = out.join("bench_loops.o");
    compile(&manifest.join("examples/bench_loops.c"), &[include, &loops], &obj,
            &["-falign-loops=32", "-falign-jumps=32"]);
    let lib = out.join("libfxtrace_bench_loops.a");
    archive(&obj, &lib);
    println!("cargo:rustc-link-arg-examples={}", lib.display());
    println!("cargo:rustc-cfg=fxtrace_c_loops");
}

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let tree = manifest.join("../..");
    let include = find_dir(
        "FXT_PROVIDER_INCLUDE_DIR",
        &tree.join("include"),
        "fxt/provider.h",
        ("--cflags", "-I"),
    );
    let lib = find_dir(
        "FXT_PROVIDER_LIB_DIR",
        &tree.join("build/libprovider"),
        "libfxt-provider.so",
        ("--libs-only-L", "-L"),
    );

    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    let shim = manifest.join("src/shim.c");
    let obj = out.join("shim.o");
    compile(&shim, &[&include], &obj, &[]);
    archive(&obj, &out.join("libfxtrace_shim.a"));

    println!("cargo:rerun-if-changed=src/shim.c");
    for h in ["provider.h", "provider_internal.h", "provider_args.h", "fxt.h"] {
        println!("cargo:rerun-if-changed={}", include.join("fxt").join(h).display());
    }
    c_bench_loops(&manifest, &tree, &include, &out);
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=fxtrace_shim");
    if !lib.as_os_str().is_empty() {
        println!("cargo:rustc-link-search=native={}", lib.display());
        // A library outside the loader's path: programs find it at run time.
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    }
    println!("cargo:rustc-link-lib=dylib=fxt-provider");
}
