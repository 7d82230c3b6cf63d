// SPDX-License-Identifier: LGPL-2.1-or-later
//! A `tracing` layer over the registry of tracing-subscriber: each time a
//! span is entered and exited, a complete event on that thread; a span
//! entered on, or closed from, another thread than the one that created
//! it is an async span too, from its creation to its close; events are
//! instants. The category is the target (the module path unless given),
//! the fields are the arguments.
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::CString;
use std::fmt;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::RwLock;

use tracing_core::field::{Field, FieldSet, Visit};
use tracing_core::span::{Attributes, Id, Record};
use tracing_core::{Event as TracingEvent, Metadata, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::registry::LookupSpan;

use crate::{Arg, Event, Name, Site, Value, MAX_ARGS};

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

/// The sites of one kind of event of a call site. A site's argument
/// names must stay in place for the inline writer: every field, interned
/// by address; none; or those with values, interned by content (which
/// keeps the site off the inline writer).
struct Sites {
    all: Site,
    some: Site,
    none: Site,
}

impl Sites {
    const fn new() -> Sites {
        Sites { all: Site::new(), some: Site::new(), none: Site::new() }
    }

    fn maybe_enabled(&self) -> bool {
        self.all.maybe_enabled() || self.some.maybe_enabled() || self.none.maybe_enabled()
    }
}

/// A tracing call site's strings, NUL-terminated, and its fxtrace sites:
/// leaked, as the call sites are static.
struct Callsite {
    category: CString,
    name: CString,
    fields: Vec<CString>,
    /// The span's durations, or the event's instants.
    events: Sites,
    async_begin: Sites,
    async_end: Site,
}

impl Callsite {
    fn of(meta: &'static Metadata<'static>) -> &'static Callsite {
        static SITES: RwLock<Option<HashMap<usize, &'static Callsite>>> = RwLock::new(None);
        let key = meta as *const Metadata as usize;
        if let Some(c) = SITES.read().unwrap().as_ref().and_then(|m| m.get(&key)) {
            return c;
        }
        let mut map = SITES.write().unwrap();
        map.get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert_with(|| Box::leak(Box::new(Callsite::new(meta))))
    }

    fn new(meta: &'static Metadata<'static>) -> Callsite {
        let c = |s: &str| CString::new(s.replace('\0', " ")).unwrap();
        Callsite {
            category: c(meta.target()),
            name: c(meta.name()),
            fields: meta.fields().iter().take(MAX_ARGS).map(|f| c(f.name())).collect(),
            events: Sites::new(),
            async_begin: Sites::new(),
            async_end: Site::new(),
        }
    }

    /// Writes one event of sites with the fields' values as arguments.
    fn write(&'static self, sites: &'static Sites, kind: Event, ts: u64, extra: u64, f: &Fields) {
        let complete = f.values.iter().all(Option::is_some);
        let mut args = [MaybeUninit::<Arg>::uninit(); MAX_ARGS];
        let mut n = 0;
        for (field, value) in self.fields.iter().zip(&f.values) {
            if let Some(v) = value {
                let name = if complete { Name::literal(field) } else { Name::dynamic(field) };
                args[n].write(Arg::new(name, v.as_value()));
                n += 1;
            }
        }
        // SAFETY: the first n are written; Arg is Copy (nothing to drop).
        let args = unsafe { std::slice::from_raw_parts(args.as_ptr() as *const Arg, n) };
        let site = match (n, complete) {
            (0, _) => &sites.none,
            (_, true) => &sites.all,
            _ => &sites.some,
        };
        self.write_at(site, kind, ts, extra, args);
    }

    fn write_at(&'static self, site: &'static Site, kind: Event, ts: u64, extra: u64, args: &[Arg]) {
        site.event(Name::literal(&self.category), Name::literal(&self.name), kind, ts, extra, args);
    }
}

/// A field's value, kept until the span's events are written.
#[derive(Clone, Debug)]
enum FieldValue {
    I64(i64),
    U64(u64),
    F64(f64),
    Bool(bool),
    Str(String),
}

impl FieldValue {
    fn as_value(&self) -> Value<'_> {
        match self {
            FieldValue::I64(x) => Value::I64(*x),
            FieldValue::U64(x) => Value::U64(*x),
            FieldValue::F64(x) => Value::F64(*x),
            FieldValue::Bool(x) => Value::Bool(*x),
            FieldValue::Str(s) => Value::Str(s),
        }
    }
}

/// The values of a call site's fields, in their order.
struct Fields {
    set: &'static FieldSet,
    values: Vec<Option<FieldValue>>,
}

impl Fields {
    fn new(meta: &'static Metadata<'static>) -> Fields {
        let set = meta.fields();
        Fields { set, values: vec![None; set.len().min(MAX_ARGS)] }
    }

    fn set(&mut self, field: &Field, value: FieldValue) {
        let at = self.set.iter().position(|f| f == *field);
        if let Some(slot) = at.and_then(|i| self.values.get_mut(i)) {
            *slot = Some(value);
        }
    }
}

impl Visit for Fields {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.set(field, FieldValue::I64(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.set(field, FieldValue::U64(value));
    }
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.set(field, FieldValue::F64(value));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.set(field, FieldValue::Bool(value));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, FieldValue::Str(value.to_owned()));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.set(field, FieldValue::Str(format!("{:?}", value)));
    }
}

/// A span's state, in its registry extensions.
struct SpanState {
    callsite: &'static Callsite,
    fields: Fields,
    thread: u64,
    created: u64,
    async_begun: AtomicBool,
}

impl SpanState {
    /// The async begin of a span seen on another thread, once.
    fn begin_async(&self, id: &Id) {
        if !self.async_begun.swap(true, Ordering::Relaxed) {
            let c = self.callsite;
            c.write(&c.async_begin, Event::AsyncBegin, self.created, id.into_u64(), &self.fields);
        }
    }
}

/// A token per thread (tracing has no thread id of its own).
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static TOKEN: u64 = NEXT.fetch_add(1, Ordering::Relaxed));
    TOKEN.with(|t| *t)
}

thread_local! {
    /// The spans this thread entered: (span id, when), innermost last.
    static ENTERED: RefCell<Vec<(u64, u64)>> = const { RefCell::new(Vec::new()) };
}

impl<S> Layer<S> for FxtLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let meta = attrs.metadata();
        let mut fields = Fields::new(meta);
        attrs.record(&mut fields);
        let state = SpanState {
            callsite: Callsite::of(meta),
            fields,
            thread: thread_token(),
            created: crate::now(),
            async_begun: AtomicBool::new(false),
        };
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(state);
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(state) = span.extensions_mut().get_mut::<SpanState>() {
                values.record(&mut state.fields);
            }
        }
    }

    fn on_enter(&self, id: &Id, _ctx: Context<'_, S>) {
        let now = crate::now();
        ENTERED.with(|e| e.borrow_mut().push((id.into_u64(), now)));
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        let key = id.into_u64();
        let start = ENTERED.with(|e| {
            let mut e = e.borrow_mut();
            let at = e.iter().rposition(|&(k, _)| k == key)?;
            Some(e.remove(at).1)
        });
        let (Some(start), Some(span)) = (start, ctx.span(id)) else { return };
        let ext = span.extensions();
        let Some(state) = ext.get::<SpanState>() else { return };
        let c = state.callsite;
        c.write(&c.events, Event::DurationComplete, start, crate::now(), &state.fields);
        if state.thread != thread_token() {
            state.begin_async(id);
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let ext = span.extensions();
        let Some(state) = ext.get::<SpanState>() else { return };
        if state.thread != thread_token() {
            state.begin_async(&id);
        }
        if state.async_begun.load(Ordering::Relaxed) {
            let c = state.callsite;
            c.write_at(&c.async_end, Event::AsyncEnd, 0, id.into_u64(), &[]);
        }
    }

    fn on_event(&self, event: &TracingEvent<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        let c = Callsite::of(meta);
        if !c.events.maybe_enabled() {
            return;
        }
        let mut fields = Fields::new(meta);
        event.record(&mut fields);
        c.write(&c.events, Event::Instant, 0, 0, &fields);
    }
}
