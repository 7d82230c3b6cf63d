// SPDX-License-Identifier: LGPL-2.1-or-later
//! The macros' call sites: a static holding the site, its literal
//! strings and its kind (struct fxtrace_rs_site in src/shim.c), so that
//! an event is one call with the argument types a constant and the
//! values in an array. Values of fixed size take it; strings and
//! [`Value`]s go through [`Site`]'s methods, the general path.
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_uint};
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU16, AtomicU64};

use crate::ffi::{self, fxtrace_rs_site, MAX_ARGS};
use crate::{Arg, Duration, Event, Name, Scope, Site, Value};

/// What a macro argument's value may be: its FXT type when it has a
/// fixed size (in 64 bits, [`IntoArg::bits`]), else [`NOT_FIXED`].
pub trait IntoArg<'a>: Copy {
    const TYPE: u16;
    fn bits(self) -> u64;
    fn value(self) -> Value<'a>;
}

/// IntoArg::TYPE of a value going through the general path.
pub const NOT_FIXED: u16 = u16::MAX;

macro_rules! fixed_arg {
    ($($t:ty => $type:ident, $v:ident, |$x:ident| $bits:expr;)*) => {$(
        impl<'a> IntoArg<'a> for $t {
            const TYPE: u16 = ffi::$type;
            #[inline(always)]
            fn bits(self) -> u64 { let $x = self; $bits }
            #[inline(always)]
            fn value(self) -> Value<'a> { Value::$v(self) }
        }
    )*};
}
fixed_arg! {
    i32 => ARG_INT32, I32, |x| x as i64 as u64;
    u32 => ARG_UINT32, U32, |x| x as u64;
    i64 => ARG_INT64, I64, |x| x as u64;
    u64 => ARG_UINT64, U64, |x| x;
    f64 => ARG_DOUBLE, F64, |x| x.to_bits();
    bool => ARG_BOOL, Bool, |x| x as u64;
}

impl<'a, T> IntoArg<'a> for *const T {
    const TYPE: u16 = ffi::ARG_POINTER;
    #[inline(always)]
    fn bits(self) -> u64 {
        self as usize as u64
    }
    fn value(self) -> Value<'a> {
        Value::Pointer(self as usize)
    }
}

macro_rules! general_arg {
    ($($t:ty),*) => {$(
        impl<'a> IntoArg<'a> for $t {
            const TYPE: u16 = NOT_FIXED;
            fn bits(self) -> u64 { 0 }
            #[inline(always)]
            fn value(self) -> Value<'a> { self.into() }
        }
    )*};
}
general_arg!(Value<'a>, &'a str, &'a std::ffi::CStr, &'a String);

/// A macro's argument values, as a tuple.
pub trait ArgList<'a> {
    /// The types, 4 bits each, when every one has a fixed size.
    const TYPES: Option<u64>;
    fn bits(&self, out: &mut [MaybeUninit<u64>; MAX_ARGS]);
    fn args(&self, names: *const *const c_char, out: &mut [MaybeUninit<Arg<'a>>; MAX_ARGS]);
}

pub(crate) const fn pack(types: &[u16]) -> Option<u64> {
    let mut packed = 0;
    let mut i = 0;
    while i < types.len() {
        if types[i] == NOT_FIXED || i >= MAX_ARGS {
            return None;
        }
        packed |= (types[i] as u64) << (4 * i);
        i += 1;
    }
    Some(packed)
}

macro_rules! arg_list {
    ($($t:ident $i:tt),*) => {
        impl<'a, $($t: IntoArg<'a>),*> ArgList<'a> for ($($t,)*) {
            const TYPES: Option<u64> = pack(&[$($t::TYPE),*]);
            #[inline(always)]
            fn bits(&self, _out: &mut [MaybeUninit<u64>; MAX_ARGS]) {
                $(_out[$i].write(self.$i.bits());)*
            }
            #[inline(always)]
            fn args(&self, _names: *const *const c_char,
                    _out: &mut [MaybeUninit<Arg<'a>>; MAX_ARGS]) {
                // SAFETY: the macro gave one name per value.
                $(_out[$i].write(Arg {
                    name: Name::literal_ptr(unsafe { *_names.add($i) }),
                    value: self.$i.value(),
                });)*
            }
        }
    };
}
arg_list!();
arg_list!(A0 0);
arg_list!(A0 0, A1 1);
arg_list!(A0 0, A1 1, A2 2);
arg_list!(A0 0, A1 1, A2 2, A3 3);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9, A10 10);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9, A10 10, A11 11);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9, A10 10, A11 11, A12 12);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9, A10 10, A11 11, A12 12,
          A13 13);
arg_list!(A0 0, A1 1, A2 2, A3 3, A4 4, A5 5, A6 6, A7 7, A8 8, A9 9, A10 10, A11 11, A12 12,
          A13 13, A14 14);

/// A macro's call site (a `static`): what [`Site`] is, with the event's
/// kind and literal strings. Not for direct use.
#[repr(transparent)]
pub struct MacroSite(fxtrace_rs_site);

// SAFETY: the pointers are to literals; the rest is atomic.
unsafe impl Sync for MacroSite {}

const ARG_NAME_UNSET: AtomicU16 = AtomicU16::new(0);

impl MacroSite {
    /// arg_names: as many as the calls give values.
    pub const fn new(cat: Name<'static>, name: Name<'static>, kind: Event, scope: Scope,
                     arg_names: &'static [*const c_char]) -> MacroSite {
        MacroSite(fxtrace_rs_site {
            args: ffi::fxt_site_args {
                site: ffi::fxt_site { state: AtomicU64::new(0), next: AtomicPtr::new(ptr::null_mut()) },
                arg_name: [ARG_NAME_UNSET; MAX_ARGS],
            },
            tmpl: ffi::fxtrace_rs_templates::new(),
            category: cat.ptr,
            name: name.ptr,
            arg_names: arg_names.as_ptr(),
            kind: kind as u32,
            scope: scope as u32,
        })
    }

    #[inline(always)]
    fn site(&'static self) -> &'static Site {
        // SAFETY: Site is a transparent fxt_site_args, the first member.
        unsafe { &*(&self.0.args as *const ffi::fxt_site_args as *const Site) }
    }

    /// False when the site is known to be off: one relaxed load.
    #[inline(always)]
    pub fn maybe_enabled(&'static self) -> bool {
        self.site().maybe_enabled()
    }

    #[inline(always)]
    fn names(&self) -> (Name<'static>, Name<'static>) {
        (Name::literal_ptr(self.0.category), Name::literal_ptr(self.0.name))
    }

    /// The general path's arguments: the first n of args' storage.
    #[inline(always)]
    fn with_args<'a, A: ArgList<'a>, R>(&self, values: &A, n: usize, f: impl FnOnce(&[Arg<'a>]) -> R) -> R {
        let mut args = [MaybeUninit::<Arg>::uninit(); MAX_ARGS];
        values.args(self.0.arg_names, &mut args);
        // SAFETY: args() wrote the first n; Arg is Copy.
        f(unsafe { std::slice::from_raw_parts(args.as_ptr() as *const Arg, n) })
    }

    /// The site's event, n values (extra: the id of the kinds that have one).
    #[inline(always)]
    pub fn event<'a, A: ArgList<'a>>(&'static self, extra: u64, n: usize, values: A) {
        if let Some(types) = A::TYPES {
            let mut bits = [MaybeUninit::<u64>::uninit(); MAX_ARGS];
            values.bits(&mut bits);
            // SAFETY: n values written.
            self.event_fixed(types, 0, extra, unsafe {
                std::slice::from_raw_parts(bits.as_ptr() as *const u64, n)
            });
            return;
        }
        let (cat, name) = self.names();
        let site = self.site();
        self.with_args(&values, n, |args| {
            if self.0.kind == Event::Instant as u32 {
                let scope = match self.0.scope {
                    0 => Scope::Thread,
                    1 => Scope::Process,
                    _ => Scope::Global,
                };
                site.instant(cat, name, scope, args);
            } else {
                site.event_kind(cat, name, self.0.kind, 0, extra, args);
            }
        });
    }

    /// The site's event with fixed-size values of packed types (4 bits
    /// each, [`ArgList::TYPES`]); ts 0: now; a complete event's end
    /// (extra) 0: now.
    #[inline(always)]
    pub(crate) fn event_fixed(&'static self, types: u64, ts: u64, extra: u64, bits: &[u64]) {
        // SAFETY: a static site; a name per value (the site's maker).
        unsafe {
            ffi::fxtrace_rs_site_event(&self.0, types, ts, extra, bits.as_ptr(),
                                       bits.len() as c_uint);
        }
    }

    /// Begins d (a disabled guard, N its values) in place.
    #[inline(always)]
    pub fn begin<'a, A: ArgList<'a>, const N: usize>(&'static self, d: &mut Duration<'a, N>, values: A) {
        if let Some(types) = A::TYPES {
            let mut bits = [MaybeUninit::<u64>::uninit(); MAX_ARGS];
            values.bits(&mut bits);
            // SAFETY: the scope has room for N arguments (ScopeStorage);
            // fixed-size values only: nothing to keep.
            unsafe {
                ffi::fxtrace_rs_site_scope_begin(d.scope_ptr(), &self.0, types,
                                                 bits.as_ptr() as *const u64, N as c_uint);
            }
            return;
        }
        let (cat, name) = self.names();
        let site = self.site();
        self.with_args(&values, N, |args| site.begin(d, cat, name, args.try_into().unwrap()));
    }
}
