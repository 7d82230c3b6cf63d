// SPDX-License-Identifier: LGPL-2.1-or-later
//! The call-site macros: a `static` [`Site`](crate::Site) each, the
//! arguments evaluated only when it may be enabled.

/// A literal as a [`Name`](crate::Name), checked at compile time.
#[macro_export]
macro_rules! name {
    ($s:literal) => {{
        const NAME: $crate::Name<'static> = $crate::Name::literal(
            match $crate::__private::CStr::from_bytes_with_nul(concat!($s, "\0").as_bytes()) {
                Ok(s) => s,
                Err(_) => panic!("a NUL inside a trace string"),
            },
        );
        NAME
    }};
}

/// The arguments `"key" => value, ...` as a `[Arg; N]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __args {
    ($($k:literal => $v:expr),* $(,)?) => {
        [$($crate::Arg::new($crate::name!($k), $v)),*]
    };
}

/// An event of a site's method taking (cat, name, extra..., args).
#[doc(hidden)]
#[macro_export]
macro_rules! __site_event {
    ($method:ident, $cat:literal, $name:literal, [$($pre:expr),*], $($args:tt)*) => {{
        static SITE: $crate::Site = $crate::Site::new();
        if SITE.maybe_enabled() {
            SITE.$method($crate::name!($cat), $crate::name!($name), $($pre,)*
                         &$crate::__args!($($args)*));
        }
    }};
}

/// `instant!("cat", "name", "key" => value, ...)`: a thread-scoped instant.
#[macro_export]
macro_rules! instant {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(instant, $cat, $name, [$crate::Scope::Thread], $($($args)*)?)
    };
}

/// `instant_scoped!(Scope::Process, "cat", "name", args...)`
#[macro_export]
macro_rules! instant_scoped {
    ($scope:expr, $cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(instant, $cat, $name, [$scope], $($($args)*)?)
    };
}

/// An event of kind $kind with an id (or a time) in its extra word.
#[doc(hidden)]
#[macro_export]
macro_rules! __id_event {
    ($kind:ident, $cat:literal, $name:literal, $id:expr $(, $($args:tt)*)?) => {
        $crate::__site_event!(event, $cat, $name,
            [$crate::Event::$kind, 0, ($id) as u64], $($($args)*)?)
    };
}

/// `counter!("cat", "name", id, "series" => value, ...)`
#[macro_export]
macro_rules! counter {
    ($($t:tt)*) => { $crate::__id_event!(Counter, $($t)*) };
}

/// `async_begin!("cat", "name", id, args...)`; its instants and end share the id.
#[macro_export]
macro_rules! async_begin {
    ($($t:tt)*) => { $crate::__id_event!(AsyncBegin, $($t)*) };
}

/// `async_instant!("cat", "name", id, args...)`
#[macro_export]
macro_rules! async_instant {
    ($($t:tt)*) => { $crate::__id_event!(AsyncInstant, $($t)*) };
}

/// `async_end!("cat", "name", id, args...)`
#[macro_export]
macro_rules! async_end {
    ($($t:tt)*) => { $crate::__id_event!(AsyncEnd, $($t)*) };
}

/// `flow_begin!("cat", "name", id, args...)`: inside a duration.
#[macro_export]
macro_rules! flow_begin {
    ($($t:tt)*) => { $crate::__id_event!(FlowBegin, $($t)*) };
}

/// `flow_step!("cat", "name", id, args...)`
#[macro_export]
macro_rules! flow_step {
    ($($t:tt)*) => { $crate::__id_event!(FlowStep, $($t)*) };
}

/// `flow_end!("cat", "name", id, args...)`
#[macro_export]
macro_rules! flow_end {
    ($($t:tt)*) => { $crate::__id_event!(FlowEnd, $($t)*) };
}

/// `duration_begin!("cat", "name", args...)`, closed by [`duration_end!`].
#[macro_export]
macro_rules! duration_begin {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(event, $cat, $name,
            [$crate::Event::DurationBegin, 0, 0], $($($args)*)?)
    };
}

/// `duration_end!("cat", "name", args...)`
#[macro_export]
macro_rules! duration_end {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(event, $cat, $name,
            [$crate::Event::DurationEnd, 0, 0], $($($args)*)?)
    };
}

/// `let _d = duration!("cat", "name", args...);`: one complete event
/// when the guard drops ([`Duration`](crate::Duration)).
#[macro_export]
macro_rules! duration {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {{
        static SITE: $crate::Site = $crate::Site::new();
        let mut guard = $crate::Duration::disabled();
        if SITE.maybe_enabled() {
            SITE.begin(&mut guard, $crate::name!($cat), $crate::name!($name),
                       &$crate::__args!($($($args)*)?));
        }
        guard
    }};
}

/// `enabled!("cat")`: is the category on (one load when it is not)?
#[macro_export]
macro_rules! enabled {
    ($cat:literal) => {{
        static SITE: $crate::Site = $crate::Site::new();
        SITE.enabled($crate::name!($cat))
    }};
}

/// `duration_scope!("cat", "name", args...);` as a statement: a duration
/// until the end of the enclosing block, like C's `TRACE_DURATION`. The
/// guard is declared in place, never moved: cheaper than [`duration!`].
#[macro_export]
macro_rules! duration_scope {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        let mut guard = $crate::Duration::disabled();
        {
            static SITE: $crate::Site = $crate::Site::new();
            if SITE.maybe_enabled() {
                SITE.begin(&mut guard, $crate::name!($cat), $crate::name!($name),
                           &$crate::__args!($($($args)*)?));
            }
        }
    };
}
