// SPDX-License-Identifier: LGPL-2.1-or-later
//! A `tracing` subscriber of its own, without tracing-subscriber's
//! registry: a span's id is the address of its state (one allocation,
//! freed with its last handle), so entering, exiting and recording look
//! nothing up. The events are the layer's (src/spans.rs).
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicUsize, Ordering};

use tracing_core::span::{Attributes, Current, Id, Record};
use tracing_core::{Event as TracingEvent, Metadata, Subscriber};

use crate::spans::{self, SpanState};

/// The subscriber: `tracing::subscriber::set_global_default(FxtSubscriber::new())`.
/// Cheaper than [`FxtLayer`](crate::FxtLayer) over the registry; use the
/// layer to compose with other layers.
#[derive(Debug, Default)]
pub struct FxtSubscriber {
    _private: (),
}

impl FxtSubscriber {
    pub fn new() -> FxtSubscriber {
        FxtSubscriber { _private: () }
    }
}

/// A span: its state and its handles (tracing's clone_span/try_close).
struct Span {
    state: SpanState,
    refs: AtomicUsize,
}

/// The span of an id this subscriber gave.
fn span(id: &Id) -> &Span {
    // SAFETY: ids are addresses of live Spans (new_span()): tracing hands
    // a subscriber only the ids it made, and holds a reference to the
    // span (counted in refs) across each call that takes one.
    unsafe { &*(id.into_u64() as usize as *const Span) }
}

impl Subscriber for FxtSubscriber {
    fn enabled(&self, _meta: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let span = Box::new(Span { state: SpanState::new(attrs), refs: AtomicUsize::new(1) });
        let addr = Box::into_raw(span) as usize as u64;
        Id::from_non_zero_u64(NonZeroU64::new(addr).expect("a box is never at 0"))
    }

    fn record(&self, id: &Id, values: &Record<'_>) {
        span(id).state.record(values);
    }

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &TracingEvent<'_>) {
        spans::event(event);
    }

    fn enter(&self, id: &Id) {
        spans::entered(id.into_u64());
    }

    fn exit(&self, id: &Id) {
        if let Some(start) = spans::exiting(id.into_u64()) {
            span(id).state.exited(id.into_u64(), start);
        }
    }

    fn clone_span(&self, id: &Id) -> Id {
        span(id).refs.fetch_add(1, Ordering::Relaxed);
        id.clone()
    }

    fn try_close(&self, id: Id) -> bool {
        if span(&id).refs.fetch_sub(1, Ordering::Release) != 1 {
            return false;
        }
        std::sync::atomic::fence(Ordering::Acquire);
        // SAFETY: the last handle: the box of new_span(), no other user.
        let span = unsafe { Box::from_raw(id.into_u64() as usize as *mut Span) };
        span.state.closed(id.into_u64());
        true
    }

    fn current_span(&self) -> Current {
        match spans::innermost() {
            Some(id) => Current::new(Id::from_u64(id), span(&Id::from_u64(id)).state.meta),
            None => Current::none(),
        }
    }
}
