// SPDX-License-Identifier: LGPL-2.1-or-later
//! Without a manager every call is a no-op: each site is disabled after
//! its first use and its arguments are not evaluated again.
use std::sync::atomic::{AtomicU32, Ordering};

static EVALUATED: AtomicU32 = AtomicU32::new(0);

fn arg() -> i32 {
    EVALUATED.fetch_add(1, Ordering::Relaxed);
    7
}

fn every_call() {
    fxtrace::instant!("t", "instant", "a" => arg(), "s" => "text");
    fxtrace::instant_scoped!(fxtrace::Scope::Process, "t", "process", "a" => arg());
    fxtrace::counter!("t", "counter", 1, "a" => arg());
    fxtrace::duration_begin!("t", "begin", "a" => arg());
    fxtrace::duration_end!("t", "begin", "a" => arg());
    {
        let _d = fxtrace::duration!("t", "scope", "a" => arg(), "s" => "text");
    }
    fxtrace::async_begin!("t", "async", 5, "a" => arg());
    fxtrace::async_instant!("t", "async", 5, "a" => arg());
    fxtrace::async_end!("t", "async", 5, "a" => arg());
    fxtrace::flow_begin!("t", "flow", 6, "a" => arg());
    fxtrace::flow_step!("t", "flow", 6, "a" => arg());
    fxtrace::flow_end!("t", "flow", 6, "a" => arg());
    assert!(!fxtrace::enabled!("t"));
}

#[test]
fn no_manager_no_events() {
    // A socket no manager listens on, whatever runs on this machine.
    std::env::set_var("FXTRACE_SOCKET", "/nonexistent/fxtrace-test.sock");
    std::env::remove_var("FXTRACE_START_WAIT_MS");

    static SITE: fxtrace::Site = fxtrace::Site::new();
    assert!(SITE.maybe_enabled(), "a new site is evaluated at its first use");
    SITE.instant(fxtrace::name!("t"), fxtrace::name!("site"), fxtrace::Scope::Thread, &[]);
    assert!(!SITE.maybe_enabled(), "no trace: the site is disabled");

    every_call();
    let first = EVALUATED.load(Ordering::Relaxed);
    assert_eq!(first, 12, "the first use evaluates each site's arguments");
    every_call();
    assert_eq!(EVALUATED.load(Ordering::Relaxed), first, "disabled sites evaluated arguments");

    assert!(!fxtrace::category_enabled("t"));
    assert_eq!(fxtrace::trigger("snap"), Ok(()));
    assert_eq!(fxtrace::set_thread_name("a-rust-thread"), Ok(()));
    assert_eq!(fxtrace::set_thread_name(""), Err(-22));
    assert_eq!(fxtrace::set_thread_name("a\0b"), Err(-22));
    let t = fxtrace::now();
    assert!(t > 0 && fxtrace::now() >= t);

    #[cfg(feature = "tracing")]
    {
        use tracing_subscriber::layer::SubscriberExt;
        let subscriber = tracing_subscriber::registry().with(fxtrace::FxtLayer::new());
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("outer", n = 1);
            let _e = span.enter();
            tracing::info!(x = 2, "an event");
        });
        // The subscriber: handles counted, the current span its own.
        tracing::subscriber::with_default(fxtrace::FxtSubscriber::new(), || {
            let span = tracing::info_span!("outer", n = 1, later = tracing::field::Empty);
            let copy = span.clone();
            drop(span);
            copy.record("later", "now");
            let _e = copy.enter();
            assert_eq!(tracing::Span::current().id(), copy.id());
            let inner = tracing::info_span!("inner");
            inner.in_scope(|| assert_eq!(tracing::Span::current().id(), inner.id()));
            assert_eq!(tracing::Span::current().id(), copy.id());
            tracing::info!(x = 2, "an event");
        });
    }
}
