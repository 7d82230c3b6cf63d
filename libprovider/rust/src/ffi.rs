// SPDX-License-Identifier: LGPL-2.1-or-later
//! The C ABI of libfxt-provider (<fxt/provider_internal.h>,
//! <fxt/provider_args.h>) mirrored field by field, and the entry points
//! of src/shim.c. Internal: the safe API is in lib.rs.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_uint, c_void};
use std::sync::atomic::{AtomicPtr, AtomicU16, AtomicU32, AtomicU64};

/// Arguments per event (FXT_MAX_ARGS).
pub const MAX_ARGS: usize = 15;

pub const SITE_DISABLED: u64 = 1;
pub const DYN_CAT: c_uint = 1;
pub const DYN_NAME: c_uint = 2;
pub const ARG_IN_DYN_NAME: u16 = 2;

/// enum fxt_event_type
pub const EVENT_INSTANT: c_uint = 0;
pub const EVENT_COUNTER: c_uint = 1;
pub const EVENT_DURATION_BEGIN: c_uint = 2;
pub const EVENT_DURATION_END: c_uint = 3;
pub const EVENT_DURATION_COMPLETE: c_uint = 4;
pub const EVENT_ASYNC_BEGIN: c_uint = 5;
pub const EVENT_ASYNC_INSTANT: c_uint = 6;
pub const EVENT_ASYNC_END: c_uint = 7;
pub const EVENT_FLOW_BEGIN: c_uint = 8;
pub const EVENT_FLOW_STEP: c_uint = 9;
pub const EVENT_FLOW_END: c_uint = 10;

/// enum fxt_arg_type
pub const ARG_NULL: u16 = 0;
pub const ARG_INT32: u16 = 1;
pub const ARG_UINT32: u16 = 2;
pub const ARG_INT64: u16 = 3;
pub const ARG_UINT64: u16 = 4;
pub const ARG_DOUBLE: u16 = 5;
pub const ARG_STRING: u16 = 6;
pub const ARG_POINTER: u16 = 7;
pub const ARG_KOID: u16 = 8;
pub const ARG_BOOL: u16 = 9;

/// struct fxt_site: written by the library only (atomically).
#[repr(C)]
pub struct fxt_site {
    pub state: AtomicU64,
    pub next: AtomicPtr<fxt_site>,
}

/// struct fxt_site_args
#[repr(C)]
pub struct fxt_site_args {
    pub site: fxt_site,
    pub arg_name: [AtomicU16; MAX_ARGS],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union fxt_arg_value {
    pub i64: i64,
    pub u64: u64,
    pub f64: f64,
    pub str: *const c_char,
}

/// struct fxt_arg_in
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fxt_arg_in {
    pub name: *const c_char,
    pub type_: u16,
    pub flags: u16,
    pub name_ref: u16,
    pub value_ref: u16,
    pub v: fxt_arg_value,
}

/// struct fxt_scope_state
#[repr(C)]
#[derive(Clone, Copy)]
pub struct fxt_scope_state {
    pub site: *mut fxt_site,
    pub category: *const c_char,
    pub name: *const c_char,
    pub start: u64,
    pub nargs: c_uint,
    pub dyn_: c_uint,
    pub args: [fxt_arg_in; MAX_ARGS],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union fxt_scope_u {
    pub words: [u64; 2 * MAX_ARGS],
    pub slow: fxt_scope_state,
}

/// struct fxt_scope_args: TRACE_DURATION's state, header 0: nothing to end.
#[repr(C)]
pub struct fxt_scope_args {
    pub header: u64,
    pub start: u64,
    pub tag: u64,
    pub w: *mut c_void,
    pub nwords: u32,
    pub u: fxt_scope_u,
}

/// struct fxtrace_rs_templates (src/shim.c): the shim's, zero at first.
#[repr(C)]
pub struct fxtrace_rs_templates {
    pub seq: AtomicU64,
    pub state: AtomicU64,
    pub types: AtomicU64,
    pub words: [AtomicU64; MAX_ARGS],
    pub wide: AtomicU32,
    pub nwords: AtomicU32,
}

impl fxtrace_rs_templates {
    pub const fn new() -> fxtrace_rs_templates {
        const ZERO: AtomicU64 = AtomicU64::new(0);
        fxtrace_rs_templates {
            seq: ZERO,
            state: ZERO,
            types: ZERO,
            words: [ZERO; MAX_ARGS],
            wide: AtomicU32::new(0),
            nwords: AtomicU32::new(0),
        }
    }
}

/// struct fxtrace_rs_site (src/shim.c): a macro's site and its strings.
#[repr(C)]
pub struct fxtrace_rs_site {
    pub args: fxt_site_args,
    pub tmpl: fxtrace_rs_templates,
    pub category: *const c_char,
    pub name: *const c_char,
    pub arg_names: *const *const c_char,
    pub kind: u32,
    pub scope: u32,
}

extern "C" {
    pub fn fxt_provider_init(name: *const c_char) -> c_int;
    pub fn fxt_thread_set_name(name: *const c_char) -> c_int;
    pub fn fxt_process_set_name(name: *const c_char) -> c_int;
    pub fn fxt_category_enabled(category: *const c_char) -> bool;
    pub fn fxt_trigger(name: *const c_char) -> c_int;
    pub fn fxt_internal_enabled(site: *const fxt_site, category: *const c_char) -> bool;
    pub fn fxt_internal_enabled_dyn(site: *const fxt_site, category: *const c_char) -> bool;

    pub fn fxtrace_rs_event(
        site: *const fxt_site_args,
        dyn_: c_uint,
        category: *const c_char,
        name: *const c_char,
        type_: c_uint,
        ts: u64,
        extra: u64,
        args: *const fxt_arg_in,
        nargs: c_uint,
    );
    pub fn fxtrace_rs_instant(
        site: *const fxt_site_args,
        dyn_: c_uint,
        category: *const c_char,
        name: *const c_char,
        scope: c_uint,
        ts: u64,
        args: *const fxt_arg_in,
        nargs: c_uint,
    );
    pub fn fxtrace_rs_scope_begin(
        scope: *mut fxt_scope_args,
        site: *const fxt_site_args,
        dyn_: c_uint,
        category: *const c_char,
        name: *const c_char,
        args: *const fxt_arg_in,
        nargs: c_uint,
    );
    pub fn fxtrace_rs_site_event(
        site: *const fxtrace_rs_site,
        types: u64,
        ts: u64,
        extra: u64,
        values: *const u64,
        nargs: c_uint,
    );
    pub fn fxtrace_rs_site_scope_begin(
        scope: *mut fxt_scope_args,
        site: *const fxtrace_rs_site,
        types: u64,
        values: *const u64,
        nargs: c_uint,
    );
    pub fn fxtrace_rs_scope_end(scope: *mut fxt_scope_args);
    pub fn fxtrace_rs_now() -> u64;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    extern "C" {
        static fxtrace_rs_layout: usize;
        static fxtrace_rs_layout_len: usize;
    }

    /// Every size and offset the C compiler gives (src/shim.c).
    #[test]
    fn layout_matches_c() {
        let rust = [
            size_of::<fxt_site>(),
            size_of::<fxt_site_args>(),
            offset_of!(fxt_site_args, arg_name),
            size_of::<fxt_arg_in>(),
            offset_of!(fxt_arg_in, type_),
            offset_of!(fxt_arg_in, flags),
            offset_of!(fxt_arg_in, name_ref),
            offset_of!(fxt_arg_in, value_ref),
            offset_of!(fxt_arg_in, v),
            size_of::<fxt_scope_state>(),
            offset_of!(fxt_scope_state, start),
            offset_of!(fxt_scope_state, nargs),
            offset_of!(fxt_scope_state, dyn_),
            offset_of!(fxt_scope_state, args),
            size_of::<fxt_scope_args>(),
            offset_of!(fxt_scope_args, start),
            offset_of!(fxt_scope_args, tag),
            offset_of!(fxt_scope_args, w),
            offset_of!(fxt_scope_args, nwords),
            offset_of!(fxt_scope_args, u),
            size_of::<fxtrace_rs_site>(),
            offset_of!(fxtrace_rs_site, tmpl),
            size_of::<fxtrace_rs_templates>(),
            offset_of!(fxtrace_rs_templates, words),
            offset_of!(fxtrace_rs_templates, nwords),
            offset_of!(fxtrace_rs_site, category),
            offset_of!(fxtrace_rs_site, arg_names),
            offset_of!(fxtrace_rs_site, kind),
            offset_of!(fxtrace_rs_site, scope),
        ];
        let c = unsafe {
            std::slice::from_raw_parts(&fxtrace_rs_layout as *const usize, fxtrace_rs_layout_len)
        };
        assert_eq!(c, &rust[..]);
    }
}
