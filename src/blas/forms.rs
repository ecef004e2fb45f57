//! The public forms of a BLAS routine over its one core, written once ([`routine`]).

/// The blocking routines of the two precisions and their cores, over the routine's one
/// generic core `$core`, with the signature written once.
///
/// `pub fn $s / $s_in: f32;` and `pub fn $d / $d_in: f64;`, each with its own docs, then the
/// arguments after `ctx` and the result: each operand named by its kind (`VecRef`, `VecMut`,
/// `MatRef`, `MatMut`, `Scalar`: `impl Into<Kind<'a, f32>>` in `$s`, `impl Into<Kind<'a,
/// f64>>` in `$d`), `T` (or `[T; n]`) for a plain value of the element type, any other type as
/// it is; the result `Result<R>` with `R` as an argument's type. `$name` blocks on `$name_in`,
/// and `$name_in`, also the core of the `_async` twin (module `blas::asynch`), waits for the
/// read-back as `wait` says: it calls `$core(ctx, "$name", $pass…, wait)`, so that errors name
/// the routine called.
///
/// The core is either a function of its own, shared by several routines (`= product_in(…);`,
/// with what it is passed), or the routine's alone, written last with its docs as
/// `= async fn $core<T: Bound>(ctx, routine, wait) { … }`: its signature comes from the same
/// arguments, each operand as `Kind<'a, T>` (converted, `mut`), `T` the element type.
macro_rules! routine {
    (
        $(#[$sdoc:meta])* pub fn $s:ident / $s_in:ident: f32;
        $(#[$ddoc:meta])* pub fn $d:ident / $d_in:ident: f64;
        ($($arg:ident: $spec:tt),* $(,)?) -> Result<$ret:tt>
        $(#[$cdoc:meta])*
        = async fn $core:ident<T: $bound:path>($ctx:ident, $r:ident, $wait:ident) $body:block
    ) => {
        $crate::blas::forms::routine! {
            $(#[$sdoc])* pub fn $s / $s_in: f32;
            $(#[$ddoc])* pub fn $d / $d_in: f64;
            ($($arg: $spec),*) -> Result<$ret>
            = $core ($($arg.into()),*);
        }

        $(#[$cdoc])*
        #[allow(clippy::too_many_arguments, unused_mut)]
        async fn $core<'a, T: $bound>(
            $ctx: &$crate::Context,
            $r: &'static str,
            $(mut $arg: $crate::blas::forms::param!(core, 'a, T, $spec),)*
            $wait: $crate::launch::Wait,
        ) -> $crate::error::Result<$crate::blas::forms::param!(core, 'a, T, $ret)> $body
    };
    (
        $(#[$sdoc:meta])* pub fn $s:ident / $s_in:ident: f32;
        $(#[$ddoc:meta])* pub fn $d:ident / $d_in:ident: f64;
        ($($arg:ident: $spec:tt),* $(,)?) -> Result<$ret:tt>
        = $core:ident $pass:tt;
    ) => {
        $crate::blas::forms::routine!(@form $(#[$sdoc])* $s / $s_in: f32;
            ($($arg: $spec),*) -> $ret = $core $pass);
        $crate::blas::forms::routine!(@form $(#[$ddoc])* $d / $d_in: f64;
            ($($arg: $spec),*) -> $ret = $core $pass);
    };
    (@form $(#[$doc:meta])* $name:ident / $name_in:ident: $t:ty;
        ($($arg:ident: $spec:tt),*) -> $ret:tt = $core:ident $pass:tt
    ) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        pub fn $name<'a>(
            ctx: &$crate::Context,
            $($arg: $crate::blas::forms::param!(into, 'a, $t, $spec)),*
        ) -> $crate::error::Result<$crate::blas::forms::param!(into, 'a, $t, $ret)> {
            // One core for this blocking form and its `_async` twin (module `blas::asynch`).
            pollster::block_on($name_in(ctx, $($arg,)* $crate::launch::Wait::Block))
        }

        #[doc = concat!("The core of [`", stringify!($name), "`] and [`", stringify!($name),
            "_async`](crate::blas::", stringify!($name), "_async), waiting for the ",
            "read-back as `wait` says.")]
        #[allow(clippy::too_many_arguments)]
        pub(crate) async fn $name_in<'a>(
            ctx: &$crate::Context,
            $($arg: $crate::blas::forms::param!(into, 'a, $t, $spec),)*
            wait: $crate::launch::Wait,
        ) -> $crate::error::Result<$crate::blas::forms::param!(into, 'a, $t, $ret)> {
            $crate::blas::forms::routine!(@call $core, ctx, stringify!($name), wait, $pass)
        }
    };
    (@call $core:ident, $ctx:ident, $name:expr, $wait:ident, ($($pass:expr),* $(,)?)) => {
        $core($ctx, $name, $($pass,)* $wait).await
    };
}
pub(crate) use routine;

/// The type of one argument (or the result) of a [`routine`] in element type `$t`: an operand
/// kind as `impl Into<Kind<$lt, $t>>` in a public form (`into`), as `Kind<$lt, $t>` in the core
/// (`core`); `T` as `$t`, `[T; n]` as `[$t; n]`, any other type as it is.
macro_rules! param {
    ($m:ident, $lt:lifetime, $t:ty, VecRef) => { $crate::blas::forms::param!(@$m $crate::layout::VecRef<$lt, $t>) };
    ($m:ident, $lt:lifetime, $t:ty, VecMut) => { $crate::blas::forms::param!(@$m $crate::layout::VecMut<$lt, $t>) };
    ($m:ident, $lt:lifetime, $t:ty, MatRef) => { $crate::blas::forms::param!(@$m $crate::layout::MatRef<$lt, $t>) };
    ($m:ident, $lt:lifetime, $t:ty, MatMut) => { $crate::blas::forms::param!(@$m $crate::layout::MatMut<$lt, $t>) };
    ($m:ident, $lt:lifetime, $t:ty, Scalar) => { $crate::blas::forms::param!(@$m $crate::layout::Scalar<$lt, $t>) };
    ($m:ident, $lt:lifetime, $t:ty, T) => { $t };
    ($m:ident, $lt:lifetime, $t:ty, [T; $n:literal]) => { [$t; $n] };
    ($m:ident, $lt:lifetime, $t:ty, $other:ty) => { $other };
    (@into $kind:ty) => { impl Into<$kind> };
    (@core $kind:ty) => { $kind };
}
pub(crate) use param;
