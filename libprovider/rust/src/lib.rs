// SPDX-License-Identifier: LGPL-2.1-or-later
//! fxtrace providers in Rust: trace events written by libfxt-provider
//! into the manager's shared buffers, as from C.
//!
//! ```no_run
//! let _d = fxtrace::duration!("net", "send", "bytes" => 512u64);
//! fxtrace::instant!("net", "queued", "n" => 1);
//! fxtrace::counter!("net", "queue", 0, "depth" => 3u32);
//! ```
//!
//! Each macro owns a `static` call site: with no trace, or its category
//! off, it costs one relaxed load and a branch, and its arguments are not
//! evaluated. Enabled, the record is written by the C library's inline
//! writer (<fxt/provider_internal.h>) or the library itself. Categories,
//! names and argument names given to the macros are literals, interned
//! by address; [`Name::dynamic`] strings are interned by content (the
//! library's `TRACE_DYN()` path). With feature `tracing`, [`FxtLayer`]
//! turns `tracing` spans and events into these events.
#![deny(unsafe_op_in_unsafe_fn)]

mod ffi;
#[cfg(feature = "tracing")]
mod layer;
#[cfg(feature = "tracing")]
mod spans;
#[cfg(feature = "tracing")]
mod subscriber;

#[cfg(feature = "tracing")]
pub use layer::FxtLayer;
#[cfg(feature = "tracing")]
pub use subscriber::FxtSubscriber;

use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_uint};
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU16, AtomicU64, Ordering};

pub use ffi::MAX_ARGS;

mod macro_site;
pub use macro_site::IntoArg;

#[doc(hidden)]
pub mod __private {
    pub use crate::macro_site::MacroSite;
    pub use std::ffi::CStr;
}

/// A call site: a `static`, one per place that writes events (the
/// macros declare theirs). The library caches the site's state for the
/// running trace in it and keeps it on a process-wide list.
#[repr(transparent)]
pub struct Site(ffi::fxt_site_args);

const ARG_NAME_UNSET: AtomicU16 = AtomicU16::new(0);

impl Site {
    pub const fn new() -> Site {
        Site(ffi::fxt_site_args {
            site: ffi::fxt_site {
                state: AtomicU64::new(0),
                next: AtomicPtr::new(ptr::null_mut()),
            },
            arg_name: [ARG_NAME_UNSET; MAX_ARGS],
        })
    }

    /// False when this site is known to be off: one relaxed load.
    #[inline(always)]
    pub fn maybe_enabled(&self) -> bool {
        self.0.site.state.load(Ordering::Relaxed) & ffi::SITE_DISABLED == 0
    }

    fn raw(&self) -> *const ffi::fxt_site_args {
        &self.0
    }
}

impl Default for Site {
    fn default() -> Self {
        Site::new()
    }
}

/// A category, event name or argument name.
#[derive(Clone, Copy, Debug)]
pub struct Name<'a> {
    ptr: *const c_char,
    dynamic: bool,
    _life: PhantomData<&'a CStr>,
}

impl Name<'static> {
    /// A string that never changes (a literal: the macros' names),
    /// interned by address.
    pub const fn literal(s: &'static CStr) -> Name<'static> {
        Name { ptr: s.as_ptr(), dynamic: false, _life: PhantomData }
    }

    /// The pointer of a literal (the macros' sites keep those).
    pub(crate) const fn literal_ptr(ptr: *const c_char) -> Name<'static> {
        Name { ptr, dynamic: false, _life: PhantomData }
    }

    #[doc(hidden)]
    pub const fn as_ptr(self) -> *const c_char {
        self.ptr
    }
}

impl<'a> Name<'a> {
    /// A string chosen at run time, interned by content (`TRACE_DYN()`).
    pub fn dynamic(s: &'a CStr) -> Name<'a> {
        Name { ptr: s.as_ptr(), dynamic: true, _life: PhantomData }
    }
}

/// The FXT_DYN_* mask of a site's category and name.
#[inline(always)]
fn dyn_mask(cat: Name, name: Name) -> c_uint {
    (cat.dynamic as c_uint) * ffi::DYN_CAT | (name.dynamic as c_uint) * ffi::DYN_NAME
}

/// An argument's value.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Null,
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F64(f64),
    Bool(bool),
    /// Copied into the record (a NUL ends it early).
    Str(&'a str),
    CStr(&'a CStr),
    /// Written as an FXT pointer argument.
    Pointer(usize),
    /// A kernel object id (e.g. a process or thread id).
    Koid(u64),
}

macro_rules! value_from {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> From<$t> for Value<'a> {
            #[inline(always)]
            fn from(x: $t) -> Value<'a> { Value::$v(x) }
        }
    )*};
}
value_from!(i32 => I32, u32 => U32, i64 => I64, u64 => U64, f64 => F64,
            bool => Bool, &'a str => Str, &'a CStr => CStr);

impl<'a> From<&'a String> for Value<'a> {
    fn from(s: &'a String) -> Value<'a> {
        Value::Str(s)
    }
}

impl<'a, T> From<*const T> for Value<'a> {
    fn from(p: *const T) -> Value<'a> {
        Value::Pointer(p as usize)
    }
}

/// One argument of an event: a name and a value.
#[derive(Clone, Copy, Debug)]
pub struct Arg<'a> {
    pub name: Name<'a>,
    pub value: Value<'a>,
}

impl<'a> Arg<'a> {
    #[inline(always)]
    pub fn new(name: Name<'a>, value: impl Into<Value<'a>>) -> Arg<'a> {
        Arg { name, value: value.into() }
    }
}

mod lower;
use lower::RawArgs;

/// enum fxt_scope: who an instant is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Thread = 0,
    Process = 1,
    Global = 2,
}

/// The kinds of events [`Site::event`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Instant = ffi::EVENT_INSTANT as isize,
    Counter = ffi::EVENT_COUNTER as isize,
    DurationBegin = ffi::EVENT_DURATION_BEGIN as isize,
    DurationEnd = ffi::EVENT_DURATION_END as isize,
    DurationComplete = ffi::EVENT_DURATION_COMPLETE as isize,
    AsyncBegin = ffi::EVENT_ASYNC_BEGIN as isize,
    AsyncInstant = ffi::EVENT_ASYNC_INSTANT as isize,
    AsyncEnd = ffi::EVENT_ASYNC_END as isize,
    FlowBegin = ffi::EVENT_FLOW_BEGIN as isize,
    FlowStep = ffi::EVENT_FLOW_STEP as isize,
    FlowEnd = ffi::EVENT_FLOW_END as isize,
}

impl Site {
    /// Any event: at ts (trace clock, [`now`]; 0: now), with its extra
    /// word (a counter, async or flow id; a complete event's end).
    #[inline(always)]
    pub fn event(&'static self, cat: Name, name: Name, kind: Event, ts: u64, extra: u64, args: &[Arg]) {
        self.event_kind(cat, name, kind as u32, ts, extra, args);
    }

    #[inline(always)]
    pub(crate) fn event_kind(&'static self, cat: Name, name: Name, kind: u32, ts: u64, extra: u64,
                             args: &[Arg]) {
        if !self.maybe_enabled() {
            return;
        }
        let raw = RawArgs::lower(args);
        // SAFETY: the site is static, the strings and raw live across the call.
        unsafe {
            ffi::fxtrace_rs_event(self.raw(), dyn_mask(cat, name), cat.ptr, name.ptr,
                                  kind as c_uint, ts, extra, raw.ptr(), raw.len());
        }
    }

    /// An instant event (process and global scopes add an argument "scope").
    #[inline(always)]
    pub fn instant(&'static self, cat: Name, name: Name, scope: Scope, args: &[Arg]) {
        if !self.maybe_enabled() {
            return;
        }
        let raw = RawArgs::lower(args);
        // SAFETY: as in event().
        unsafe {
            ffi::fxtrace_rs_instant(self.raw(), dyn_mask(cat, name), cat.ptr, name.ptr,
                                    scope as c_uint, 0, raw.ptr(), raw.len());
        }
    }

    /// A duration until the guard is dropped: one complete event then.
    #[inline(always)]
    pub fn duration<'a, const N: usize>(&'static self, cat: Name<'a>, name: Name<'a>,
                                        args: &[Arg<'a>; N]) -> Duration<'a, N> {
        let mut d = Duration::disabled();
        self.begin(&mut d, cat, name, args);
        d
    }

    /// Begins d (a disabled guard) in place: the guard does not move.
    #[inline(always)]
    pub fn begin<'a, const N: usize>(&'static self, d: &mut Duration<'a, N>, cat: Name<'a>,
                                     name: Name<'a>, args: &[Arg<'a>; N]) {
        if !self.maybe_enabled() {
            return;
        }
        let raw = RawArgs::lower(args);
        // SAFETY: the scope has room for N arguments (ScopeStorage), the
        // strings live as long as the guard ('a), which keeps the string
        // arguments' copies (raw's text) too.
        unsafe {
            ffi::fxtrace_rs_scope_begin(d.scope.as_mut_ptr() as *mut ffi::fxt_scope_args,
                                        self.raw(), dyn_mask(cat, name), cat.ptr, name.ptr,
                                        raw.ptr(), raw.len());
        }
        d.text = raw.into_text();
    }

    /// True while a trace runs with the category enabled (`TRACE_ENABLED`).
    #[inline(always)]
    pub fn enabled(&'static self, cat: Name) -> bool {
        if !self.maybe_enabled() {
            return false;
        }
        let site = &self.0.site;
        // SAFETY: a static site and a NUL-terminated category.
        unsafe {
            if cat.dynamic {
                ffi::fxt_internal_enabled_dyn(site, cat.ptr)
            } else {
                ffi::fxt_internal_enabled(site, cat.ptr)
            }
        }
    }
}

/// struct fxt_scope_args cut to N arguments: its head, then room for
/// either of its union's members with N arguments (the library and the
/// inline writer touch the first nargs only).
#[repr(C)]
struct ScopeStorage<const N: usize> {
    head: [u64; 5],           // header, start, tag, w, nwords
    slow_head: [u64; 5],      // struct fxt_scope_state up to args
    args: [[u64; 3]; N],      // N struct fxt_arg_in (or 2N words)
}

/// A duration being measured ([`Site::duration`], [`duration!`]): its
/// drop writes one complete event, on the thread that began it.
#[must_use = "the duration ends when this guard is dropped"]
pub struct Duration<'a, const N: usize = 0> {
    scope: MaybeUninit<ScopeStorage<N>>,
    text: Vec<u8>,
    _life: PhantomData<(Name<'a>, *mut u8)>,
}

impl<'a, const N: usize> Duration<'a, N> {
    /// A guard that writes nothing.
    #[inline(always)]
    pub fn disabled() -> Duration<'a, N> {
        let mut scope = MaybeUninit::<ScopeStorage<N>>::uninit();
        // SAFETY: header alone tells whether the rest was written.
        unsafe { (scope.as_mut_ptr() as *mut u64).write(0) };
        Duration { scope, text: Vec::new(), _life: PhantomData }
    }
}

impl<const N: usize> Duration<'_, N> {
    #[inline(always)]
    pub(crate) fn scope_ptr(&mut self) -> *mut ffi::fxt_scope_args {
        self.scope.as_mut_ptr() as *mut ffi::fxt_scope_args
    }
}

impl<const N: usize> Drop for Duration<'_, N> {
    #[inline(always)]
    fn drop(&mut self) {
        let scope = self.scope.as_mut_ptr();
        // SAFETY: begun by fxtrace_rs_scope_begin() when header is not 0.
        unsafe {
            if (scope as *const u64).read() != 0 {
                ffi::fxtrace_rs_scope_end(scope as *mut ffi::fxt_scope_args);
            }
        }
    }
}

/// Nanoseconds of the trace clock (CLOCK_BOOTTIME), as the library reads it.
#[inline]
pub fn now() -> u64 {
    // SAFETY: no arguments.
    unsafe { ffi::fxtrace_rs_now() }
}

fn c_string(s: &str) -> Result<CString, i32> {
    CString::new(s).map_err(|_| -(libc_errno::EINVAL))
}

mod libc_errno {
    pub const EINVAL: i32 = 22;
}

fn check(ret: i32) -> Result<(), i32> {
    if ret < 0 {
        Err(ret)
    } else {
        Ok(())
    }
}

/// The provider name shown in traces (default: the program's name);
/// before the first event. Err(-errno) as fxt_provider_init().
pub fn provider_init(name: &str) -> Result<(), i32> {
    let name = c_string(name)?;
    // SAFETY: a NUL-terminated string, copied by the library.
    check(unsafe { ffi::fxt_provider_init(name.as_ptr()) })
}

/// Names the calling thread in traces (and its comm).
pub fn set_thread_name(name: &str) -> Result<(), i32> {
    let name = c_string(name)?;
    // SAFETY: as above.
    check(unsafe { ffi::fxt_thread_set_name(name.as_ptr()) })
}

/// Names the process in traces.
pub fn set_process_name(name: &str) -> Result<(), i32> {
    let name = c_string(name)?;
    // SAFETY: as above.
    check(unsafe { ffi::fxt_process_set_name(name.as_ptr()) })
}

/// True while a trace runs with this category enabled (no site cache:
/// [`enabled!`] is the cheap one).
pub fn category_enabled(category: &str) -> bool {
    // SAFETY: as above.
    c_string(category).map_or(false, |c| unsafe { ffi::fxt_category_enabled(c.as_ptr()) })
}

/// Asks the manager for a snapshot named name of a circular trace armed
/// with it; never blocks. Err(-EAGAIN): the socket was full.
pub fn trigger(name: &str) -> Result<(), i32> {
    let name = c_string(name)?;
    // SAFETY: as above.
    check(unsafe { ffi::fxt_trigger(name.as_ptr()) })
}

mod macros;

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// The guard's storage is struct fxt_scope_args cut to N arguments.
    #[test]
    fn scope_storage_layout() {
        assert_eq!(offset_of!(ScopeStorage<2>, slow_head), offset_of!(ffi::fxt_scope_args, u));
        assert_eq!(offset_of!(ScopeStorage<2>, args) - offset_of!(ScopeStorage<2>, slow_head),
                   offset_of!(ffi::fxt_scope_state, args));
        assert_eq!(size_of::<[u64; 3]>(), size_of::<ffi::fxt_arg_in>());
        assert_eq!(size_of::<ScopeStorage<MAX_ARGS>>(), size_of::<ffi::fxt_scope_args>());
    }
}
