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

/// A macro's site: a static [`MacroSite`](crate::__private::MacroSite).
#[doc(hidden)]
#[macro_export]
macro_rules! __macro_site {
    ($kind:ident, $scope:expr, $cat:literal, $name:literal, $($k:literal),*) => {
        $crate::__private::MacroSite::new($crate::name!($cat), $crate::name!($name),
            $crate::Event::$kind, $scope, &[$($crate::name!($k).as_ptr()),*])
    };
}

/// How many arguments.
#[doc(hidden)]
#[macro_export]
macro_rules! __count {
    ($($k:literal),*) => { 0usize $(+ { let _ = $k; 1usize })* };
}

/// An event of kind $kind, with its extra word: a static site, the
/// values evaluated only when it may be enabled.
#[doc(hidden)]
#[macro_export]
macro_rules! __site_event {
    ($kind:ident, $scope:expr, $extra:expr, $cat:literal, $name:literal,
     $($k:literal => $v:expr),* $(,)?) => {{
        static SITE: $crate::__private::MacroSite =
            $crate::__macro_site!($kind, $scope, $cat, $name, $($k),*);
        if SITE.maybe_enabled() {
            SITE.event(($extra) as u64, $crate::__count!($($k),*), ($($v,)*));
        }
    }};
}

/// `instant!("cat", "name", "key" => value, ...)`: a thread-scoped instant.
#[macro_export]
macro_rules! instant {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(Instant, $crate::Scope::Thread, 0, $cat, $name, $($($args)*)?)
    };
}

/// `instant_scoped!(Scope::Process, "cat", "name", args...)`
#[macro_export]
macro_rules! instant_scoped {
    ($scope:expr, $cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(Instant, $scope, 0, $cat, $name, $($($args)*)?)
    };
}

/// An event of kind $kind with an id (or a time) in its extra word.
#[doc(hidden)]
#[macro_export]
macro_rules! __id_event {
    ($kind:ident, $cat:literal, $name:literal, $id:expr $(, $($args:tt)*)?) => {
        $crate::__site_event!($kind, $crate::Scope::Thread, $id, $cat, $name, $($($args)*)?)
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
        $crate::__site_event!(DurationBegin, $crate::Scope::Thread, 0, $cat, $name,
                              $($($args)*)?)
    };
}

/// `duration_end!("cat", "name", args...)`
#[macro_export]
macro_rules! duration_end {
    ($cat:literal, $name:literal $(, $($args:tt)*)?) => {
        $crate::__site_event!(DurationEnd, $crate::Scope::Thread, 0, $cat, $name,
                              $($($args)*)?)
    };
}

/// `let _d = duration!("cat", "name", args...);`: one complete event
/// when the guard drops ([`Duration`](crate::Duration)).
#[macro_export]
macro_rules! duration {
    ($cat:literal, $name:literal $(, $k:literal => $v:expr)* $(,)?) => {{
        let mut guard = $crate::Duration::<{ $crate::__count!($($k),*) }>::disabled();
        $crate::__duration_begin!(guard, $cat, $name, $($k => $v),*);
        guard
    }};
}

/// Begins the disabled guard $guard at a static site.
#[doc(hidden)]
#[macro_export]
macro_rules! __duration_begin {
    ($guard:ident, $cat:literal, $name:literal, $($k:literal => $v:expr),*) => {
        static SITE: $crate::__private::MacroSite = $crate::__macro_site!(
            DurationComplete, $crate::Scope::Thread, $cat, $name, $($k),*);
        if SITE.maybe_enabled() {
            SITE.begin(&mut $guard, ($($v,)*));
        }
    };
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
    ($cat:literal, $name:literal $(, $k:literal => $v:expr)* $(,)?) => {
        let mut guard = $crate::Duration::<{ $crate::__count!($($k),*) }>::disabled();
        {
            $crate::__duration_begin!(guard, $cat, $name, $($k => $v),*);
        }
    };
}
