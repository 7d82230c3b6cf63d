// SPDX-License-Identifier: LGPL-2.1-or-later
//! Every call of the fxtrace crate and its tracing layer, from named
//! threads, once: tests/rust/every_call.sh records it under `tracectl
//! record` and checks each event in the archive. `tracing` goes to
//! FxtLayer over the registry, or with FXTRACE_EXAMPLE_TRACING=subscriber
//! to FxtSubscriber: the same events.
use std::thread;

use tracing::{info, info_span, instrument};
use tracing_subscriber::layer::SubscriberExt;

#[instrument(target = "rust.tracing")]
fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let r = fib(n - 1) + fib(n - 2);
    if n == 3 {
        info!(target: "rust.tracing", n, r, "fib of {}", n);
    }
    r
}

fn plain_calls() {
    let x = 42u8;
    fxtrace::instant!("rust", "every-arg", "i32" => -5i32, "u32" => 7u32,
        "i64" => -9_000_000_000i64, "u64" => 9_000_000_000u64, "f64" => 1.5,
        "bool" => true, "str" => "hello", "ptr" => &x as *const u8,
        "koid" => fxtrace::Value::Koid(1234));
    fxtrace::instant_scoped!(fxtrace::Scope::Process, "rust", "process-wide");
    fxtrace::counter!("rust", "depth", 3, "items" => 10u32);
    {
        let _outer = fxtrace::duration!("rust", "outer", "n" => 1);
        let _inner = fxtrace::duration!("rust", "inner", "label" => "in");
        fxtrace::flow_begin!("rust", "handoff", 77);
    }
    // The same site again: the later ones take the templates made by the first.
    for i in 0..3u32 {
        fxtrace::duration_scope!("rust", "again", "i" => i, "w" => -7i64 * i as i64,
            "b" => i == 1, "s" => -2i32, "f" => 0.25);
    }
    fxtrace::duration_begin!("rust", "manual", "k" => 1u64);
    fxtrace::duration_end!("rust", "manual", "k" => 2u64);
    fxtrace::async_begin!("rust", "request", 9, "path" => "/a");
    fxtrace::async_instant!("rust", "request", 9, "step" => 1);
    let enabled = fxtrace::enabled!("rust");
    fxtrace::instant!("rust", "enabled", "rust" => enabled,
        "off" => fxtrace::enabled!("rust.off"), "any" => fxtrace::category_enabled("rust"));
    fxtrace::instant!("rust.off", "never", "n" => 1);
    fxtrace::trigger("rust-snapshot").expect("trigger");
}

fn main() {
    fxtrace::provider_init("rust-every-call").expect("provider name");
    fxtrace::set_thread_name("rust-main").expect("thread name");
    let installed = match std::env::var("FXTRACE_EXAMPLE_TRACING").as_deref() {
        Ok("subscriber") => tracing::subscriber::set_global_default(fxtrace::FxtSubscriber::new()),
        Ok("layer") | Err(_) => tracing::subscriber::set_global_default(
            tracing_subscriber::registry().with(fxtrace::FxtLayer::new()),
        ),
        Ok(other) => panic!("FXTRACE_EXAMPLE_TRACING={}: layer or subscriber", other),
    };
    installed.expect("subscriber");

    plain_calls();

    // A thread named by std (its comm), one by fxtrace (any length).
    thread::Builder::new()
        .name("rust-std-named".into())
        .spawn(|| {
            let _d = fxtrace::duration!("rust", "flow-step-here");
            fxtrace::flow_step!("rust", "handoff", 77);
            fxtrace::async_end!("rust", "request", 9, "status" => 200u32);
        })
        .unwrap()
        .join()
        .unwrap();

    // Spans: nested (#[instrument]) on this thread; one created here,
    // entered on a worker and closed back here: an async span too.
    let r = info_span!(target: "rust.tracing", "compute", what = "fib").in_scope(|| fib(4));
    // Every fixed-size field type: the exit's packed path.
    info_span!(target: "rust.tracing", "typed", i = -3i64, u = 4u64, f = 0.5, b = true).in_scope(|| ());
    let handoff = info_span!(target: "rust.tracing", "handoff", job = 5u64, who = tracing::field::Empty);
    let moved = handoff.clone();
    thread::spawn(move || {
        fxtrace::set_thread_name("rust-worker-with-a-long-name").unwrap();
        moved.record("who", "worker");
        moved.in_scope(|| {
            let _d = fxtrace::duration!("rust", "flow-end-here");
            fxtrace::flow_end!("rust", "handoff", 77);
            info!(target: "rust.tracing", count = 3u64, ok = true, ratio = 0.5, "worker event");
        });
    })
    .join()
    .unwrap();
    drop(handoff);
    // More spans open at once than a thread keeps states of (FxtLayer's
    // cache): each exit is its own span's, with its field.
    let many: Vec<_> = (0..70u64).map(|i| info_span!(target: "rust.tracing", "many", i)).collect();
    for span in many.iter().rev() {
        span.in_scope(|| ());
    }
    drop(many);
    reused_ids();
    println!("fxtrace-every-call: fib(4) = {}", r);
}

/// A span id given again after its span closed (the registry's slots come
/// back, their generation wraps): a thread that exited the first span
/// writes the second's events, not the first's.
fn reused_ids() {
    let (to_worker, spans) = std::sync::mpsc::channel::<tracing::Span>();
    let (to_main, done) = std::sync::mpsc::channel::<()>();
    let worker = thread::spawn(move || {
        fxtrace::set_thread_name("rust-span-worker").unwrap();
        for span in spans {
            span.in_scope(|| ());
            drop(span);
            to_main.send(()).unwrap();
        }
    });
    let first = info_span!(target: "rust.tracing", "reused-first");
    let first_id = first.id();
    to_worker.send(first.clone()).unwrap();
    done.recv().unwrap();
    // Closed here, its slot is the next span's, a generation later: its
    // id comes back when the generation wraps (8192 in tracing-subscriber
    // 0.3's registry; a span's address, at once, in FxtSubscriber).
    drop(first);
    let mut again = info_span!(target: "rust.tracing", "reused");
    for _ in 0..100_000 {
        if again.id() == first_id {
            break;
        }
        drop(again);
        again = info_span!(target: "rust.tracing", "reused");
    }
    // every_call.sh checks that the registry gave the id again.
    println!("fxtrace-every-call: span id given again: {}", again.id() == first_id);
    to_worker.send(again).unwrap();
    done.recv().unwrap();
    drop(to_worker);
    worker.join().unwrap();
}
