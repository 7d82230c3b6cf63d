// SPDX-License-Identifier: LGPL-2.1-or-later
//! `tracing` spans and events as fxtrace events, for the layer
//! ([`FxtLayer`](crate::FxtLayer)) and the subscriber
//! ([`FxtSubscriber`](crate::FxtSubscriber)): each time a span is entered
//! and exited, a complete event on that thread; a span entered on, or
//! closed from, another thread than the one that created it is an async
//! span too, from its creation to its close; events are instants. The
//! category is the target (the module path unless given), the fields are
//! the arguments.
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::CString;
use std::fmt;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};

use tracing_core::field::{Field, FieldSet, Visit};
use tracing_core::span::{Attributes, Record};
use tracing_core::{Event as TracingEvent, Metadata};

use crate::macro_site::{pack, IntoArg, MacroSite, NOT_FIXED};
use crate::{Arg, Event, Name, Scope, Site, Value, MAX_ARGS};

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
    meta: &'static Metadata<'static>,
    category: CString,
    name: CString,
    fields: Vec<CString>,
    /// The span's durations, or the event's instants.
    events: Sites,
    /// The span's durations when every field has a value of fixed size
    /// (FixedFields): the macros' path, the types packed once.
    durations: MacroSite,
    async_begin: Sites,
    async_end: Site,
}

impl Callsite {
    /// The callsite of meta: one of this thread's recent ones, else the
    /// map's (a read lock).
    fn of(meta: &'static Metadata<'static>) -> &'static Callsite {
        const SLOTS: usize = 32;
        #[allow(clippy::declare_interior_mutable_const)]
        const EMPTY: Cell<Option<&'static Callsite>> = Cell::new(None);
        thread_local! {
            static RECENT: [Cell<Option<&'static Callsite>>; SLOTS] = const { [EMPTY; SLOTS] };
        }
        let at = cache_slot(meta as *const Metadata as u64, SLOTS);
        let recent = RECENT.try_with(|r| r[at].get()).ok().flatten();
        if let Some(c) = recent.filter(|c| std::ptr::eq(c.meta, meta)) {
            return c;
        }
        let c = Callsite::shared(meta);
        let _ = RECENT.try_with(|r| r[at].set(Some(c)));
        c
    }

    fn shared(meta: &'static Metadata<'static>) -> &'static Callsite {
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
        let (category, name) = (c(meta.target()), c(meta.name()));
        let fields: Vec<CString> = meta.fields().iter().take(MAX_ARGS).map(|f| c(f.name())).collect();
        // The strings' buffers stay where they are: the callsite is leaked.
        let arg_names = fields.iter().map(|f| f.as_ptr()).collect::<Vec<_>>();
        let durations = MacroSite::new(Name::literal_ptr(category.as_ptr()),
                                       Name::literal_ptr(name.as_ptr()), Event::DurationComplete,
                                       Scope::Thread, Box::leak(arg_names.into_boxed_slice()));
        Callsite {
            meta,
            category,
            name,
            fields,
            events: Sites::new(),
            durations,
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
    /// Its FXT type and value in 64 bits (IntoArg), if of fixed size.
    fn fixed(&self) -> (u16, u64) {
        match self {
            FieldValue::I64(x) => (i64::TYPE, x.bits()),
            FieldValue::U64(x) => (u64::TYPE, x.bits()),
            FieldValue::F64(x) => (f64::TYPE, x.bits()),
            FieldValue::Bool(x) => (bool::TYPE, x.bits()),
            FieldValue::Str(_) => (NOT_FIXED, 0),
        }
    }

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
#[derive(Clone)]
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

/// A span's fields as the macros give them, when every one has a value
/// of fixed size: their packed types and values.
struct FixedFields {
    types: u64,
    bits: [u64; MAX_ARGS],
    n: usize,
}

impl FixedFields {
    fn of(f: &Fields) -> Option<FixedFields> {
        let mut types = [0u16; MAX_ARGS];
        let mut bits = [0u64; MAX_ARGS];
        for (i, v) in f.values.iter().enumerate() {
            (types[i], bits[i]) = v.as_ref()?.fixed();
        }
        let n = f.values.len();
        Some(FixedFields { types: pack(&types[..n])?, bits, n })
    }
}

/// A span's state (in the registry's extensions, or the subscriber's).
pub(crate) struct SpanState {
    pub(crate) meta: &'static Metadata<'static>,
    callsite: &'static Callsite,
    /// The fields given at creation: never changed, read without a lock.
    fields: Fields,
    /// `fields`, if of fixed size: the exits' path while none is recorded.
    fixed: Option<FixedFields>,
    /// The fields once recorded since (record() never changes `fields`:
    /// a thread that read `recorded` false still reads them safely).
    later: Mutex<Option<Fields>>,
    recorded: AtomicBool,
    thread: u64,
    created: u64,
    async_begun: AtomicBool,
}

impl SpanState {
    pub(crate) fn new(attrs: &Attributes<'_>) -> SpanState {
        let meta = attrs.metadata();
        let mut fields = Fields::new(meta);
        attrs.record(&mut fields);
        SpanState {
            meta,
            callsite: Callsite::of(meta),
            fixed: FixedFields::of(&fields),
            fields,
            later: Mutex::new(None),
            recorded: AtomicBool::new(false),
            thread: thread_token(),
            created: crate::now(),
            async_begun: AtomicBool::new(false),
        }
    }

    pub(crate) fn record(&self, values: &Record<'_>) {
        let mut later = self.later.lock().unwrap_or_else(|e| e.into_inner());
        values.record(later.get_or_insert_with(|| self.fields.clone()));
        self.recorded.store(true, Ordering::Release);
    }

    /// Writes an event of sites with the span's fields.
    fn write(&self, sites: &'static Sites, kind: Event, ts: u64, extra: u64) {
        let c = self.callsite;
        if !self.recorded.load(Ordering::Acquire) {
            return c.write(sites, kind, ts, extra, &self.fields);
        }
        let later = self.later.lock().unwrap_or_else(|e| e.into_inner());
        c.write(sites, kind, ts, extra, later.as_ref().unwrap_or(&self.fields));
    }

    /// The async begin of a span seen on another thread, once.
    fn begin_async(&self, id: u64) {
        if !self.async_begun.swap(true, Ordering::Relaxed) {
            self.write(&self.callsite.async_begin, Event::AsyncBegin, self.created, id);
        }
    }

    /// The span id left this thread, entered at start: its duration.
    pub(crate) fn exited(&self, id: u64, start: u64) {
        match &self.fixed {
            Some(f) if !self.recorded.load(Ordering::Acquire) => {
                let site = &self.callsite.durations;
                if site.maybe_enabled() {
                    // The end is read by the writer.
                    site.event_fixed(f.types, start, 0, &f.bits[..f.n]);
                }
            }
            _ => self.write(&self.callsite.events, Event::DurationComplete, start, crate::now()),
        }
        if self.thread != thread_token() {
            self.begin_async(id);
        }
    }

    /// The span id closed: the end of its async span, if it had one.
    pub(crate) fn closed(&self, id: u64) {
        if self.thread != thread_token() {
            self.begin_async(id);
        }
        if self.async_begun.load(Ordering::Relaxed) {
            let c = self.callsite;
            c.write_at(&c.async_end, Event::AsyncEnd, 0, id, &[]);
        }
    }
}

/// The slot of key in a thread's cache of slots entries (a power of two
/// above 1): its bits mixed, as the keys are addresses or the registry's
/// packed ids.
pub(crate) fn cache_slot(key: u64, slots: usize) -> usize {
    debug_assert!(slots.is_power_of_two() && slots > 1);
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - slots.trailing_zeros())) as usize
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

/// The span id entered on this thread now.
pub(crate) fn entered(id: u64) {
    let now = crate::now();
    ENTERED.with(|e| e.borrow_mut().push((id, now)));
}

/// When this thread entered the span id it leaves, if it did.
pub(crate) fn exiting(id: u64) -> Option<u64> {
    ENTERED.with(|e| {
        let mut e = e.borrow_mut();
        let at = e.iter().rposition(|&(k, _)| k == id)?;
        Some(e.remove(at).1)
    })
}

/// The innermost span this thread is in, if any.
pub(crate) fn innermost() -> Option<u64> {
    ENTERED.with(|e| e.borrow().last().map(|&(id, _)| id))
}

/// A `tracing` event: an instant.
pub(crate) fn event(event: &TracingEvent<'_>) {
    let meta = event.metadata();
    let c = Callsite::of(meta);
    if !c.events.maybe_enabled() {
        return;
    }
    let mut fields = Fields::new(meta);
    event.record(&mut fields);
    c.write(&c.events, Event::Instant, 0, 0, &fields);
}
