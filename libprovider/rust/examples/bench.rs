// SPDX-License-Identifier: LGPL-2.1-or-later
//! What an event costs from Rust, against the C macros in the same run:
//! run it under a trace of category "bench" (tests/bench/rust/rust_bench.sh:
//! `tracectl record --mode circular --categories bench`).
//!
//!   fxtrace-bench [RUNS [EVENTS]]
//!
//! Prints per row the median over RUNS (default 7) of ns per event
//! (thread CPU time: time descheduled on a busy machine is left out), the
//! rows taking turns in each run, and the ratio to its C peer:
//! `RUST_BENCH key ns xRATIO peer`. FXTRACE_BENCH_ROWS=key,... runs only
//! those rows and their peers (to profile one). The registry rows are
//! FxtLayer's floors: tracing-subscriber's registry with a layer that
//! does nothing, or that only reads the clock at each enter and exit.
use std::hint::black_box;

use tracing_subscriber::layer::SubscriberExt;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

#[cfg(fxtrace_c_loops)]
extern "C" {
    fn fxtrace_bench_c_duration(n: u64);
    fn fxtrace_bench_c_instant(n: u64);
}

fn thread_cpu_ns() -> f64 {
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid out pointer.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.sec as f64 * 1e9 + ts.nsec as f64
}

#[inline(never)]
fn rust_duration(i: u64) {
    let _d = fxtrace::duration!("bench", "duration", "a" => i as i32, "b" => (2 * i) as i32);
    black_box(i);
}

#[inline(never)]
fn rust_scope(i: u64) {
    fxtrace::duration_scope!("bench", "scope", "a" => i as i32, "b" => (2 * i) as i32);
    black_box(i);
}

fn rust_scopes(n: u64) {
    for i in 0..n {
        rust_scope(i);
    }
}

fn rust_durations(n: u64) {
    for i in 0..n {
        rust_duration(i);
    }
}

fn rust_instants(n: u64) {
    for i in 0..n {
        fxtrace::instant!("bench", "instant", "a" => i as i32, "b" => (2 * i) as i32);
    }
}

fn rust_disabled(n: u64) {
    for i in 0..n {
        fxtrace::instant!("bench.off", "instant", "a" => i as i32, "b" => (2 * i) as i32);
    }
}

/// Enter and exit of a span made once (its fields recorded then).
fn tracing_spans(n: u64) {
    let span = tracing::info_span!(target: "bench", "span", a = 1i64, b = 2i64);
    for i in 0..n {
        let _g = span.enter();
        black_box(i);
    }
}

/// A span made, entered, exited and closed each time.
fn tracing_new_spans(n: u64) {
    for i in 0..n {
        tracing::info_span!(target: "bench", "span", a = i, b = 2 * i).in_scope(|| black_box(i));
    }
}

/// A layer that does nothing: what the registry costs by itself.
struct NoLayer;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for NoLayer {}

/// A layer that reads the clock when a span is entered and exited: what
/// any layer timing spans costs at least (the reads follow the registry's
/// atomic operations).
struct ClockLayer;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for ClockLayer {
    fn on_enter(&self, _id: &tracing::span::Id, _ctx: tracing_subscriber::layer::Context<'_, S>) {
        black_box(fxtrace::now());
    }

    fn on_exit(&self, _id: &tracing::span::Id, _ctx: tracing_subscriber::layer::Context<'_, S>) {
        black_box(fxtrace::now());
    }
}

thread_local! {
    /// The tracing rows' dispatchers: FxtLayer over the registry, FxtSubscriber,
    /// and the registry with a layer that does nothing or reads the clock
    /// (FxtLayer's floors).
    static LAYER: tracing::Dispatch =
        tracing::Dispatch::new(tracing_subscriber::registry().with(fxtrace::FxtLayer::new()));
    static NO_LAYER: tracing::Dispatch =
        tracing::Dispatch::new(tracing_subscriber::registry().with(NoLayer));
    static CLOCK_LAYER: tracing::Dispatch =
        tracing::Dispatch::new(tracing_subscriber::registry().with(ClockLayer));
    static SUBSCRIBER: tracing::Dispatch = tracing::Dispatch::new(fxtrace::FxtSubscriber::new());
}

fn with(dispatch: &'static std::thread::LocalKey<tracing::Dispatch>, run: fn(u64), n: u64) {
    dispatch.with(|d| tracing::dispatcher::with_default(d, || run(n)));
}

struct Row {
    key: &'static str,
    what: &'static str,
    run: fn(u64),
    /// Its C peer's key, for the ratio.
    peer: Option<&'static str>,
    ns: Vec<f64>,
}

fn row(key: &'static str, what: &'static str, run: fn(u64), peer: Option<&'static str>) -> Row {
    Row { key, what, run, peer, ns: Vec::new() }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().map_or(7, |a| a.parse().expect("RUNS: a number"));
    let events: u64 = args.next().map_or(1_000_000, |a| a.parse().expect("EVENTS: a number"));
    if !fxtrace::enabled!("bench") {
        eprintln!("fxtrace-bench: category bench is not traced: run it under tracectl record");
        std::process::exit(1);
    }

    let mut rows = Vec::new();
    #[cfg(fxtrace_c_loops)]
    {
        // SAFETY: loops of call sites, nothing else.
        rows.push(row("c_duration", "C TRACE_DURATION, 2 int args", |n| unsafe { fxtrace_bench_c_duration(n) }, None));
        rows.push(row("c_instant", "C TRACE_INSTANT, 2 int args", |n| unsafe { fxtrace_bench_c_instant(n) }, None));
    }
    rows.push(row("rust_duration", "fxtrace::duration!, 2 int args", rust_durations, Some("c_duration")));
    rows.push(row("rust_scope", "fxtrace::duration_scope!, 2 int args", rust_scopes, Some("c_duration")));
    rows.push(row("rust_instant", "fxtrace::instant!, 2 int args", rust_instants, Some("c_instant")));
    rows.push(row("rust_disabled", "fxtrace::instant!, category off", rust_disabled, None));
    rows.push(row("layer_span", "tracing span enter+exit, 2 fields, FxtLayer",
                  |n| with(&LAYER, tracing_spans, n), Some("c_duration")));
    rows.push(row("subscriber_span", "tracing span enter+exit, 2 fields, FxtSubscriber",
                  |n| with(&SUBSCRIBER, tracing_spans, n), Some("c_duration")));
    rows.push(row("registry_span", "tracing span enter+exit, 2 fields, registry, no-op layer",
                  |n| with(&NO_LAYER, tracing_spans, n), Some("c_duration")));
    rows.push(row("clock_span", "tracing span enter+exit, 2 fields, registry, clock-reading layer",
                  |n| with(&CLOCK_LAYER, tracing_spans, n), Some("c_duration")));
    rows.push(row("layer_new_span", "tracing span new+enter+exit+close, FxtLayer",
                  |n| with(&LAYER, tracing_new_spans, n), Some("c_duration")));
    rows.push(row("subscriber_new_span", "tracing span new+enter+exit+close, FxtSubscriber",
                  |n| with(&SUBSCRIBER, tracing_new_spans, n), Some("c_duration")));
    rows.push(row("registry_new_span", "tracing span new+enter+exit+close, registry, no-op layer",
                  |n| with(&NO_LAYER, tracing_new_spans, n), Some("c_duration")));

    // FXTRACE_BENCH_ROWS=key,key: only those rows (to profile one).
    if let Ok(keys) = std::env::var("FXTRACE_BENCH_ROWS") {
        rows.retain(|r| keys.split(',').any(|k| k == r.key || Some(k) == r.peer));
    }
    // Run 0 warms up: the trace buffer's pages faulted in, caches filled.
    for run in 0..=runs {
        for r in rows.iter_mut() {
            let n = if r.key.ends_with("new_span") { events / 10 } else { events };
            let t0 = thread_cpu_ns();
            (r.run)(n);
            if run > 0 {
                r.ns.push((thread_cpu_ns() - t0) / n as f64);
            }
        }
    }
    let medians: Vec<(&str, f64)> = rows.iter_mut().map(|r| (r.key, median(&mut r.ns))).collect();
    println!("fxtrace-bench: median of {} runs of {} events, ns per event (thread CPU time)", runs, events);
    for r in &rows {
        let ns = medians.iter().find(|m| m.0 == r.key).unwrap().1;
        let peer = r.peer.and_then(|p| medians.iter().find(|m| m.0 == p));
        match peer {
            Some((p, pns)) => println!("RUST_BENCH {} {:.1} x{:.2} {}  # {}", r.key, ns, ns / pns, p, r.what),
            None => println!("RUST_BENCH {} {:.1} - -  # {}", r.key, ns, r.what),
        }
    }
}
