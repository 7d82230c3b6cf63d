// SPDX-License-Identifier: LGPL-2.1-or-later
//! Arguments as the library takes them (struct fxt_arg_in), built on the
//! caller's stack; Rust strings copied NUL-terminated, out of line.
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_uint};

use crate::ffi::{self, fxt_arg_in, fxt_arg_value, MAX_ARGS};
use crate::{Arg, Value};

pub(crate) struct RawArgs {
    raw: [MaybeUninit<fxt_arg_in>; MAX_ARGS],
    len: usize,
    /// The NUL-terminated copies of Str values, which raw points into.
    text: Vec<u8>,
}

#[inline(always)]
fn lower_value(value: Value) -> (u16, fxt_arg_value) {
    use fxt_arg_value as V;
    match value {
        Value::Null => (ffi::ARG_NULL, V { u64: 0 }),
        Value::I32(x) => (ffi::ARG_INT32, V { i64: x as i64 }),
        Value::U32(x) => (ffi::ARG_UINT32, V { u64: x as u64 }),
        Value::I64(x) => (ffi::ARG_INT64, V { i64: x }),
        Value::U64(x) => (ffi::ARG_UINT64, V { u64: x }),
        Value::F64(x) => (ffi::ARG_DOUBLE, V { f64: x }),
        Value::Bool(x) => (ffi::ARG_BOOL, V { u64: x as u64 }),
        Value::Str(_) => (ffi::ARG_STRING, V { str: std::ptr::null() }),
        Value::CStr(s) => (ffi::ARG_STRING, V { str: s.as_ptr() }),
        Value::Pointer(x) => (ffi::ARG_POINTER, V { u64: x as u64 }),
        Value::Koid(x) => (ffi::ARG_KOID, V { u64: x }),
    }
}

impl RawArgs {
    /// The first MAX_ARGS of args.
    #[inline(always)]
    pub(crate) fn lower(args: &[Arg]) -> RawArgs {
        let len = args.len().min(MAX_ARGS);
        let mut r = RawArgs { raw: [MaybeUninit::uninit(); MAX_ARGS], len, text: Vec::new() };
        let mut text = 0;
        for (slot, a) in r.raw.iter_mut().zip(&args[..len]) {
            let (type_, v) = lower_value(a.value);
            if let Value::Str(s) = a.value {
                text += s.len() + 1;
            }
            slot.write(fxt_arg_in {
                name: a.name.ptr,
                type_,
                flags: if a.name.dynamic { ffi::ARG_IN_DYN_NAME } else { 0 },
                name_ref: 0,
                value_ref: 0,
                v,
            });
        }
        if text != 0 {
            r.copy_text(&args[..len], text);
        }
        r
    }

    #[cold]
    #[inline(never)]
    fn copy_text(&mut self, args: &[Arg], size: usize) {
        let mut text = Vec::with_capacity(size);
        let mut at = Vec::with_capacity(args.len());
        for a in args {
            if let Value::Str(s) = a.value {
                at.push(text.len());
                text.extend_from_slice(s.as_bytes());
                text.push(0);
            } else {
                at.push(usize::MAX);
            }
        }
        // No reallocation past this point: the pointers stay valid.
        for (slot, &off) in self.raw.iter_mut().zip(&at) {
            if off != usize::MAX {
                // SAFETY: lower() wrote the first args.len() slots.
                let a = unsafe { slot.assume_init_mut() };
                a.v.str = text[off..].as_ptr() as *const c_char;
            }
        }
        self.text = text;
    }

    #[inline(always)]
    pub(crate) fn ptr(&self) -> *const fxt_arg_in {
        self.raw.as_ptr() as *const fxt_arg_in
    }

    #[inline(always)]
    pub(crate) fn len(&self) -> c_uint {
        self.len as c_uint
    }

    /// The string copies, for a duration that ends later.
    pub(crate) fn into_text(self) -> Vec<u8> {
        self.text
    }
}
