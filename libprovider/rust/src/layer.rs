// SPDX-License-Identifier: LGPL-2.1-or-later
//! A `tracing` layer over the registry of tracing-subscriber, for
//! programs that compose layers: the span states live in the registry's
//! extensions (src/spans.rs has what the events are), and each thread
//! keeps those of the spans it made or exited lately, so that an exit
//! looks nothing up in the registry (its look-ups and locks cost as much
//! as the event).
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tracing_core::span::{Attributes, Id, Record};
use tracing_core::{Event as TracingEvent, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

use crate::spans::{self, cache_slot, SpanState};

/// The layer: `tracing_subscriber::registry().with(FxtLayer::new())`.
#[derive(Debug, Default)]
pub struct FxtLayer {
    _private: (),
}

impl FxtLayer {
    pub fn new() -> FxtLayer {
        FxtLayer { _private: () }
    }
}

/// A span's state, in its extensions and in the threads' caches.
struct Shared {
    state: SpanState,
    /// Set when the registry closes the span: its id may then be given
    /// to another span, and the caches holding it are stale.
    closed: AtomicBool,
}

/// A thread's cache slot: a span id and its state.
type Slot = (u64, Option<Arc<Shared>>);

const CACHE_SLOTS: usize = 64;
const EMPTY_SLOT: Slot = (0, None);

thread_local! {
    /// The states of the spans this thread made or exited lately, by a
    /// hash of their ids: bounded, an older one replaced by a newer.
    static CACHE: RefCell<[Slot; CACHE_SLOTS]> = const { RefCell::new([EMPTY_SLOT; CACHE_SLOTS]) };
}

/// The state of span id, from the registry.
fn lookup<S>(id: &Id, ctx: &Context<'_, S>) -> Option<Arc<Shared>>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    ctx.span(id)?.extensions().get::<Arc<Shared>>().cloned()
}

/// Calls f with the state of span id: this thread's cached one while the
/// span is open, else the registry's (then cached). f may call `tracing`
/// (a field's Debug): those calls find the cache in use and take the
/// registry's.
fn with_state<S>(id: &Id, ctx: &Context<'_, S>, f: impl Fn(&Shared))
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let key = id.into_u64();
    let cached = CACHE.try_with(|cache| {
        let Ok(mut cache) = cache.try_borrow_mut() else {
            return false;
        };
        let slot = &mut cache[cache_slot(key, CACHE_SLOTS)];
        let fresh = slot.0 == key && slot.1.as_ref().is_some_and(|s| !s.closed.load(Ordering::Acquire));
        if !fresh {
            *slot = (key, lookup(id, ctx));
        }
        if let Some(shared) = &slot.1 {
            f(shared);
        }
        true
    });
    // A thread's last exits, after its cache is gone, or a call from f.
    if cached != Ok(true) {
        if let Some(shared) = lookup(id, ctx) {
            f(&shared);
        }
    }
}

/// Keeps shared as span id's in this thread's cache.
fn cache(id: u64, shared: &Arc<Shared>) {
    let _ = CACHE.try_with(|cache| {
        if let Ok(mut cache) = cache.try_borrow_mut() {
            cache[cache_slot(id, CACHE_SLOTS)] = (id, Some(Arc::clone(shared)));
        }
    });
}

/// Forgets span id in this thread's cache (closed: its memory freed with
/// the registry's copy, but in other threads' caches).
fn uncache(id: u64) {
    let _ = CACHE.try_with(|cache| {
        if let Ok(mut cache) = cache.try_borrow_mut() {
            let slot = &mut cache[cache_slot(id, CACHE_SLOTS)];
            if slot.0 == id {
                *slot = EMPTY_SLOT;
            }
        }
    });
}

impl<S> Layer<S> for FxtLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else {
            return;
        };
        // Before the extensions' lock: the fields' Debug may call tracing.
        let shared = Arc::new(Shared { state: SpanState::new(attrs), closed: AtomicBool::new(false) });
        cache(id.into_u64(), &shared);
        span.extensions_mut().insert(shared);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        with_state(id, &ctx, |shared| shared.state.record(values));
    }

    fn on_enter(&self, id: &Id, _ctx: Context<'_, S>) {
        spans::entered(id.into_u64());
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(start) = spans::exiting(id.into_u64()) {
            with_state(id, &ctx, |shared| shared.state.exited(id.into_u64(), start));
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        with_state(&id, &ctx, |shared| {
            shared.closed.store(true, Ordering::Release);
            shared.state.closed(id.into_u64());
        });
        uncache(id.into_u64());
    }

    fn on_event(&self, event: &TracingEvent<'_>, _ctx: Context<'_, S>) {
        spans::event(event);
    }
}
