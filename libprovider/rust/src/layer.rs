// SPDX-License-Identifier: LGPL-2.1-or-later
//! A `tracing` layer over the registry of tracing-subscriber, for
//! programs that compose layers: the span states live in the registry's
//! extensions (src/spans.rs has what the events are).
use tracing_core::span::{Attributes, Id, Record};
use tracing_core::{Event as TracingEvent, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

use crate::spans::{self, SpanState};

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

impl<S> Layer<S> for FxtLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(SpanState::new(attrs));
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(state) = span.extensions().get::<SpanState>() {
                state.record(values);
            };
        }
    }

    fn on_enter(&self, id: &Id, _ctx: Context<'_, S>) {
        spans::entered(id.into_u64());
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        let (Some(start), Some(span)) = (spans::exiting(id.into_u64()), ctx.span(id)) else {
            return;
        };
        if let Some(state) = span.extensions().get::<SpanState>() {
            state.exited(id.into_u64(), start);
        };
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(&id) {
            if let Some(state) = span.extensions().get::<SpanState>() {
                state.closed(id.into_u64());
            };
        }
    }

    fn on_event(&self, event: &TracingEvent<'_>, _ctx: Context<'_, S>) {
        spans::event(event);
    }
}
